import { stemmer } from 'stemmer';
import StemmerAr from '@nlpjs/lang-ar/src/stemmer-ar';
import StemmerHi from '@nlpjs/lang-hi/src/stemmer-hi';
import { scanWords, type AsciiClasses } from './scan';

/**
 * A word: a letter or digit, then letters, combining marks (the vowel signs of Hindi, Thai, Arabic),
 * digits, apostrophes, underscores and hyphens.
 */
export const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’_-]*/gu;

const isAsciiAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
export const WORD_ASCII: AsciiClasses = { start: isAsciiAlnum, part: (c) => isAsciiAlnum(c) || c === 39 || c === 95 || c === 45 }; // ' _ -

/** Lower-cased words of `text` (the matches of WORD), for scoring only (never for output). */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  scanWords(lower, WORD, WORD_ASCII, (start, end) => found.push(lower.slice(start, end)));
  return found;
}

/** English function words: what BM25 ignores and pruning removes first. */
export const STOPWORDS = new Set(
  ('a an the and or but if then else of at by for with about against between into through during before after above below ' +
    'to from up down in out on off over under again further once here there when where why how all any both each few more ' +
    'most other some such own same so than too very s t can will just should now i me my myself we our ours ourselves you ' +
    'your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves ' +
    'what which who whom this that these those am is are was were be been being have has had having do does did doing would ' +
    'could ought also as until while because been may might shall let us via per upon whether yet however therefore thus')
    .split(' '),
);

/** Words whose removal would weaken a negation, restriction or requirement: never pruned or rewritten away. */
export const GUARD_WORDS = new Set(
  ("not no never none nor nothing nobody neither cannot can't don't doesn't didn't won't wouldn't shouldn't mustn't isn't aren't " +
    "wasn't weren't haven't hasn't hadn't couldn't without except unless only must always exactly least most maximum minimum " +
    'required require requires mandatory forbidden avoid stop limit under over before after within less fewer more than every all any ' +
    'if first last')
    .split(' '),
);


const PREFIX = 5;

// Stemming is the costly part of matching and the vocabulary of a prompt is small: remember stems.
const stems = new Map<string, string>();
const MAX_STEMS = 100_000;

/**
 * A language-neutral key for matching: stemmed in English; an Arabic or Devanagari word by its Snowball
 * stemmer; elsewhere its first five characters, the truncation stemmer of IR (Turkish "İstanbul'da" and
 * "İstanbul", Russian "Варшавы" and "Варшава" meet). Truncation misses where a word opens on what
 * inflects it (Arabic "المدينة", "the city", and "مدينة") or a letter is several code points (Hindi
 * "शहरों" and "शहर"). Numbers and codes stay whole.
 */
export function termKey(word: string, english: boolean): string {
  if (!english) {
    if (/\p{N}/u.test(word)) return word;
    const script = scriptStemmer(word);
    if (script) return remembered(scriptStems, word, () => script.stemWord(word) || word);
    return word.length > PREFIX ? [...word].slice(0, PREFIX).join('') : word;
  }
  return remembered(stems, word, () => stemmer(word.replace(/['’]s$/, '')));
}

/** `word`'s entry in `cache`, computed once (the cache is emptied when full). */
function remembered(cache: Map<string, string>, word: string, compute: () => string): string {
  let value = cache.get(word);
  if (value === undefined) {
    if (cache.size >= MAX_STEMS) cache.clear();
    value = compute();
    cache.set(word, value);
  }
  return value;
}

// Measured on XQuAD dev with each question as the task (strict, 50 / 25 / 12.5%): Arabic 96.4 / 92.1 / 80.9
// by truncation, 98.3 / 95.3 / 84.9 by Snowball; Hindi 98.5 / 96.6 / 86.4 and 99.2 / 97.7 / 88.3. German,
// Russian, Greek and Turkish lost with the Snowball stemmers of the same library; they keep truncation.
type ScriptStemmer = { stemWord(word: string): string };
let arabic: ScriptStemmer | undefined;
let hindi: ScriptStemmer | undefined;
const scriptStems = new Map<string, string>();

/** The Snowball stemmer for the script of the word's first letter (Arabic, Devanagari), if it has one. */
function scriptStemmer(word: string): ScriptStemmer | undefined {
  const code = word.charCodeAt(0);
  if (code >= 0x0600 && code <= 0x06ff) return (arabic ??= new StemmerAr());
  if (code >= 0x0900 && code <= 0x097f) return (hindi ??= new StemmerHi());
  return undefined;
}


/** Content terms of a text: stopwords dropped (English), stemmed keys. */
export function terms(text: string, english: boolean): string[] {
  return termsOf(words(text), english);
}

/** Content terms of already scanned words (see `words`). */
export function termsOf(scanned: readonly string[], english: boolean): string[] {
  const out: string[] = [];
  const add = (w: string) => {
    if (w && !(english && STOPWORDS.has(w))) out.push(termKey(w, english));
  };
  // Hyphenated compounds match by their parts, as in common search analyzers: "18-yard" → 18, yard.
  for (const w of scanned) {
    if (isUnspaced(w)) addBigrams(w, out);
    else if (w.includes('-')) for (const part of w.split('-')) add(part);
    else add(w);
  }
  return out;
}

/** Whether `text` holds a character of a script written without spaces (Chinese, Japanese, Thai): one "word" is a clause. */
export function isUnspaced(text: string): boolean {
  return hasHighCode(text) && UNSPACED.test(text);
}

/** Whether a character of `w` is at U+0E00 or above: only then can it be of a script without spaces (most words are ASCII). */
function hasHighCode(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 0x0e00) return true;
  return false;
}

// Scripts written without spaces between words (Chinese, Japanese kana and kanji, Thai): one scanned
// "word" is a whole clause, so relevance reads them as overlapping character pairs, as Lucene's CJK
// analyzer does ("超级碗50在哪里举行" → 超级, 级碗, 50, 在哪, 哪里, 里举, 举行).
const UNSPACED = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u;
const UNSPACED_RUN = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+|[^\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+/gu;

function addBigrams(word: string, out: string[]): void {
  for (const run of word.match(UNSPACED_RUN) ?? []) {
    if (!UNSPACED.test(run)) {
      out.push(run);
      continue;
    }
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
}

/** About how many words `text` holds: Chinese and Japanese have no spaces, and about two characters make a word. */
export const roughWordCount = (text: string): number => (/[\u3040-\u9fff]/.test(text) ? Math.ceil(text.length / 2) : text.split(/\s+/).filter(Boolean).length);

const NEGATION_BEFORE = /(?:(?<![\p{L}])(?:not|never|nicht|nie|pas|jamais|no|não|nunca)|n['’]t)[ \t]+$/iu;
/** Whether a negation ends right before `start`: an intensifier after it softens it ("not very technical"). */
export const negatedBefore = (text: string, start: number): boolean => NEGATION_BEFORE.test(text.slice(Math.max(0, start - 8), start));

/**
 * The closed list of words and phrases that word pruning may remove: intensifiers, hedges and
 * discourse fillers that change no instruction ("extremely important" → "important"). The rewrite
 * dictionary removes the commonest ones (really, basically, very …) before any budget applies;
 * these go only when the text is over budget. "kind of"/"sort of" only as hedges, not after a
 * determiner ("what kind of file"), and "at all" only as an intensifier ("anything at all."), not in
 * "at all depths" or "at all times".
 */
export const MEANING_FREE =
  /(?<![\p{L}\p{N}'’-])(?:quite|extremely|incredibly|absolutely|totally|obviously|frankly|genuinely|undoubtedly|(?<!\b(?:what|which|this|that|any|the|a|an|some|each|every|one|same|other|different|right|wrong|all|these|those|many|several|no)\s)(?:kind|sort) of|at all(?!\s+[\p{L}\p{N}])|of course|in fact)(?![\p{L}\p{N}'’-])/giu;
