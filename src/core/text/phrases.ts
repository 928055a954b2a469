/**
 * Finds the rewrite dictionary's phrases in text: whole words, case-insensitive, separated by
 * whitespace only, longest phrase first at each word.
 */
import { REWRITES } from '../data/rewrites';
import { scanWords, type AsciiClasses } from './scan';
import { Vocabulary } from './vocabulary';

interface Phrase {
  /** Vocabulary ids of the phrase's words. */
  readonly words: readonly number[];
  readonly length: number;
  readonly replacement: string;
}

/** The phrases that start with one word, longest first, by the word that follows it. */
interface PhrasesFrom {
  /** Phrases whose second word is the key, with the one-word phrase if there is one. */
  readonly bySecondWord: Map<number, Phrase[]>;
  /** The one-word phrase, if any: all that can match when the next word is no second word. */
  readonly alone: Phrase[];
}

const phraseWords = REWRITES.map(([from]) => from.replace(/,$/, '').split(' '));
const VOCABULARY = new Vocabulary(phraseWords.flat());

// Phrases indexed by their first two words, longest first, so "in order to make sure that" wins over
// "in order to" — two map lookups per word instead of a 270-branch regex at every position.
const BY_FIRST_WORD = new Map<number, PhrasesFrom>();
{
  const byFirst = new Map<number, Phrase[]>();
  REWRITES.forEach(([from, to], i) => {
    const words = phraseWords[i]!.map((w) => VOCABULARY.id(w));
    const list = byFirst.get(words[0]!) ?? [];
    list.push({ words, length: from.length, replacement: to });
    byFirst.set(words[0]!, list);
  });
  for (const [first, list] of byFirst) {
    list.sort((a, b) => b.length - a.length);
    const alone = list.filter((p) => p.words.length === 1);
    const bySecondWord = new Map<number, Phrase[]>();
    for (const p of list) {
      const second = p.words[1];
      if (second !== undefined && !bySecondWord.has(second)) bySecondWord.set(second, list.filter((q) => q.words.length === 1 || q.words[1] === second));
    }
    BY_FIRST_WORD.set(first, { bySecondWord, alone });
  }
}

/** A word of a phrase, as matched in text. */
export const PHRASE_WORD = /[\p{L}\p{N}'’-]+/gu;
const isWordPart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 39 || c === 45; // ' -
export const PHRASE_WORD_ASCII: AsciiClasses = { start: isWordPart, part: isWordPart };
export interface PhraseMatch {
  readonly index: number;
  readonly text: string;
  readonly replacement: string;
}

/** Words of the piece being searched, reused from call to call: start, end and vocabulary id. */
const scanned = { count: 0, starts: new Int32Array(512), ends: new Int32Array(512), ids: new Int32Array(512) };

function scanPhraseWords(text: string): void {
  scanned.count = 0;
  scanWords(text, PHRASE_WORD, PHRASE_WORD_ASCII, (start, end) => {
    if (scanned.count === scanned.ids.length) {
      for (const key of ['starts', 'ends', 'ids'] as const) {
        const grown = new Int32Array(scanned[key].length * 2);
        grown.set(scanned[key]);
        scanned[key] = grown;
      }
    }
    scanned.starts[scanned.count] = start;
    scanned.ends[scanned.count] = end;
    scanned.ids[scanned.count] = VOCABULARY.idIn(text, start, end);
    scanned.count++;
  });
}

/** Whether the phrase's words are the scanned words from `first` on, separated by whitespace only. */
function phraseAt(text: string, phrase: Phrase, first: number): boolean {
  if (first + phrase.words.length > scanned.count) return false;
  for (let k = 0; k < phrase.words.length; k++) {
    if (scanned.ids[first + k] !== phrase.words[k]) return false;
    if (k > 0 && !onlyWhitespace(text, scanned.ends[first + k - 1]!, scanned.starts[first + k]!)) return false;
  }
  return true;
}

const WHITESPACE = /\s/;

/** Whether text[from, to) is whitespace only (and not empty), as /^\s+$/ tests it. */
function onlyWhitespace(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128 || !WHITESPACE.test(text[i]!)) return false;
  }
  return true;
}

/** Dictionary phrases in `text`, left to right, as whole words separated by whitespace. */
export function findPhrases(text: string): PhraseMatch[] {
  scanPhraseWords(text);
  const { count, starts, ends, ids } = scanned;
  const matches: PhraseMatch[] = [];
  for (let i = 0; i < count; i++) {
    const from = BY_FIRST_WORD.get(ids[i]!);
    if (!from) continue;
    const candidates = (i + 1 < count && from.bySecondWord.get(ids[i + 1]!)) || from.alone;
    let phrase: Phrase | undefined;
    for (const candidate of candidates) {
      if (phraseAt(text, candidate, i)) {
        phrase = candidate;
        break;
      }
    }
    if (!phrase) continue;
    const last = i + phrase.words.length - 1;
    matches.push({ index: starts[i]!, text: text.slice(starts[i]!, ends[last]!), replacement: phrase.replacement });
    i = last;
  }
  return matches;
}
