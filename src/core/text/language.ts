import { words } from './words';

// The most frequent function words of English and of the other Latin-script languages the product reads.
// Which set a text's words fall into names its language, as in stopword-profile language identification.
// Words English shares ("a", "do", "no", "as") are left out of the others.
const ENGLISH = new Set('the of and to a in is you that it for are be with as on this your not or by at from have will an can if should'.split(' '));
const OTHERS = [
  'der die das und ist nicht zu den von mit sie ich du es ein eine auf für im dem des sich auch wie oder bitte', // German
  'de la que el en y los se del las un por con una su para es al lo como más pero sus le ya o este si', // Spanish
  'de la le et les des en un une du est que pour dans qui pas sur au par ne vous il se ce avec plus ou', // French
  'de o que e da em um para com não uma os se na por mais dos como mas ao ele das à seu sua ou você', // Portuguese
].map((list) => new Set(list.split(' ')));

/** Below this share of English function words, text is not English prose (terse rule lists are about 5%). */
const MIN_ENGLISH = 0.04;
/** English must also outnumber every other language's function words this many times. */
const MARGIN = 2;
// Letters of scripts other than Latin: a Chinese prompt with English identifiers in it is not English.
const OTHER_SCRIPT = /[^\p{Script=Latin}\P{L}]/gu;
/** A Chinese character says as much as a few Latin letters: a small share of them is another language. */
const MAX_OTHER_SCRIPT = 0.15;
// Latin letters with diacritics ("dúvida", "é", "über"): English words almost never have them.
const ACCENTED = /[\u00c0-\u024f]/;
/** Above this share of words with diacritics, Latin-script text is another language. */
const MAX_ACCENTED = 0.08;

/** True when the text reads as English, so English-only passes (rewrites, stopword pruning) may run. */
export function isEnglish(text: string): boolean {
  const head = text.slice(0, 20_000);
  const sample = words(head);
  if (sample.length < 3) return /^[\x00-\x7f]*$/.test(text);
  const letters = (head.match(/\p{L}/gu) ?? []).length;
  if ((head.match(OTHER_SCRIPT) ?? []).length > MAX_OTHER_SCRIPT * letters) return false;
  const share = (set: ReadonlySet<string>) => {
    let n = 0;
    for (const w of sample) if (set.has(w)) n++;
    return n / sample.length;
  };
  if (sample.filter((w) => ACCENTED.test(w)).length > MAX_ACCENTED * sample.length) return false;
  const english = share(ENGLISH);
  return english >= MIN_ENGLISH && english >= MARGIN * Math.max(...OTHERS.map(share));
}
