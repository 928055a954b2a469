import { words } from './words';

// The most frequent function words of English and of the other Latin-script languages the product reads.
// Which set a text's words fall into names its language, as in stopword-profile language identification.
// Words English shares ("a", "do", "no", "as") are left out of the others.
const ENGLISH = 'the of and to a in is you that it for are be with as on this your not or by at from have will an can if should';
const OTHERS = [
  'der die das und ist nicht zu den von mit sie ich du es ein eine auf für im dem des sich auch wie oder bitte', // German
  'de la que el en y los se del las un por con una su para es al lo como más pero sus le ya o este si', // Spanish
  'de la le et les des en un une du est que pour dans qui pas sur au par ne vous il se ce avec plus ou', // French
  'de o que e da em um para com não uma os se na por mais dos como mas ao ele das à seu sua ou você', // Portuguese
];
// One bit per language (bit 0: English), so that a text's words are looked up once.
const LANGUAGES = new Map<string, number>();
[ENGLISH, ...OTHERS].forEach((list, i) => {
  for (const word of list.split(' ')) LANGUAGES.set(word, (LANGUAGES.get(word) ?? 0) | (1 << i));
});

/** Below this share of English function words, text is not English prose (terse rule lists are about 5%). */
const MIN_ENGLISH = 0.04;
/** English must also outnumber every other language's function words this many times. */
const MARGIN = 2;
/** A Chinese character says as much as a few Latin letters: a small share of them is another language. */
const MAX_OTHER_SCRIPT = 0.15;
/** Above this share of words with diacritics ("dúvida", "é", "über"), Latin-script text is another language. */
const MAX_ACCENTED = 0.08;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
const ACCENTED = /[\u00c0-\u024f]/;

/** The text's language shows in its first few hundred words; a long prompt is read no further. */
export const LANGUAGE_SAMPLE = 6_000;

/** True when the text reads as English, so English-only passes (rewrites, stopword pruning) may run. */
export function isEnglish(text: string): boolean {
  const head = text.slice(0, LANGUAGE_SAMPLE);
  const sample = words(head);
  if (sample.length < 3) return /^[\x00-\x7f]*$/.test(text);
  if (otherScriptShare(head) > MAX_OTHER_SCRIPT) return false;
  const hits = new Array<number>(OTHERS.length + 1).fill(0);
  let accented = 0;
  for (const word of sample) {
    const mask = LANGUAGES.get(word);
    if (mask !== undefined) for (let i = 0; i < hits.length; i++) if (mask & (1 << i)) hits[i]!++;
    if (ACCENTED.test(word)) accented++;
  }
  if (accented > MAX_ACCENTED * sample.length) return false;
  const english = hits[0]! / sample.length;
  return english >= MIN_ENGLISH && hits[0]! >= MARGIN * Math.max(...hits.slice(1));
}

/** The share of letters that belong to a script other than Latin; ASCII is read without a regex. */
function otherScriptShare(text: string): number {
  let letters = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
      continue;
    }
    const ch = text[i]!;
    if (!LETTER.test(ch)) continue;
    letters++;
    if (!LATIN.test(ch)) other++;
  }
  return letters === 0 ? 0 : other / letters;
}
