/**
 * Finds the rewrite dictionary's phrases in text: whole words, case-insensitive, separated by
 * whitespace only, longest phrase first at each word.
 */
import { CONTRACTIONS, OPENERS, REWRITES } from '../data/rewrites';
import { scanWords, type AsciiClasses } from './scan';
import { Vocabulary } from './vocabulary';

/** Where else a phrase must stand: before another word (contractions), or opening a sentence. */
export type Placement = 'beforeWord' | 'opening';
export type PhraseEntry = readonly [from: string, to: string, only?: Placement];

interface Phrase {
  /** Vocabulary ids of the phrase's words. */
  readonly words: readonly number[];
  readonly length: number;
  readonly replacement: string;
  readonly only?: Placement;
  /** Written with a comma after it ("as you might imagine,"): a filler only where punctuation follows. */
  readonly comma: boolean;
}

/** The phrases that start with one word, longest first, by the word that follows it. */
interface PhrasesFrom {
  /** Phrases whose second word is the key, with the one-word phrase if there is one. */
  readonly bySecondWord: Map<number, Phrase[]>;
  /** The one-word phrase, if any: all that can match when the next word is no second word. */
  readonly alone: Phrase[];
}

const wordsOf = (from: string): string[] => from.replace(/,$/, '').split(' ');

// After an opener these words are not the verb of an instruction: "You should have received…".
const NOT_A_VERB_WORDS = ['have', 'had', 'has', 'not'];
// A contraction cannot end its clause: "who they are and what" never becomes "who they're and what".
const CLAUSE_OPENERS = ['and', 'or', 'but', 'nor', 'so', 'yet', 'because', 'if', 'when', 'while', 'then', 'than', 'as'];

// After "I think that", these make "that" the subject ("I think that should be enough"), not a conjunction.
const THAT_SUBJECT_WORDS = ['should', 'would', 'could', 'will', 'can', 'might', 'must', 'may', 'is', 'was', 'sounds', 'seems', 'works', 'makes', 'looks', 'covers', 'means', 'helps', 'matters', 'depends', 'happens', 'does', 'has', 'needs', 'fits'];

// "There is" says that something exists where it opens its clause ("…, and there is a cache"); after any
// other word "there" is a place: "The conflict resolution there is last-writer-wins" is no "there's".
// "Here is" presents what follows the same way ("Here is the log"), and after a word is a place too.
const THERE_OPENS_AFTER = [...CLAUSE_OPENERS, 'that', 'where', 'since', 'although', 'though', 'unless', 'until', 'whether', 'also', 'now', 'still'];

// One vocabulary for every dictionary, so a piece's words are scanned to the same ids.
const VOCABULARY = new Vocabulary([...REWRITES, ...CONTRACTIONS, ...OPENERS].flatMap(([from]) => wordsOf(from)).concat(NOT_A_VERB_WORDS, CLAUSE_OPENERS, THAT_SUBJECT_WORDS, THERE_OPENS_AFTER));
const NOT_A_VERB = new Set(NOT_A_VERB_WORDS.map((w) => VOCABULARY.id(w)));
const THAT = VOCABULARY.id('that');
const THAT_SUBJECT = new Set(THAT_SUBJECT_WORDS.map((w) => VOCABULARY.id(w)));
const OPENS_CLAUSE = new Set(CLAUSE_OPENERS.map((w) => VOCABULARY.id(w)));
const ENDS_CLAUSE_AFTER = new Set(['otherwise', 'anyway', 'too', 'either', 'though', 'indeed']);
const THERE = VOCABULARY.id('there');
const HERE = VOCABULARY.id('here');
const THERE_OPENS = new Set(THERE_OPENS_AFTER.map((w) => VOCABULARY.id(w)));

/**
 * A phrase dictionary indexed by the first two words of each phrase, longest first, so "in order to
 * make sure that" wins over "in order to": two map lookups per word instead of a regex at every position.
 */
export class PhraseDictionary {
  // Indexed by vocabulary id (small integers): an array lookup per word of the text.
  private readonly byFirstWord: (PhrasesFrom | undefined)[] = [];

  constructor(entries: readonly PhraseEntry[]) {
    const byFirst = new Map<number, Phrase[]>();
    for (const [from, to, only] of entries) {
      const words = wordsOf(from).map((w) => VOCABULARY.id(w));
      const list = byFirst.get(words[0]!) ?? [];
      list.push({ words, length: from.length, replacement: to, only, comma: from.endsWith(',') });
      byFirst.set(words[0]!, list);
    }
    for (const [first, list] of byFirst) {
      list.sort((a, b) => b.length - a.length);
      const alone = list.filter((p) => p.words.length === 1);
      const bySecondWord = new Map<number, Phrase[]>();
      for (const p of list) {
        const second = p.words[1];
        if (second !== undefined && !bySecondWord.has(second)) bySecondWord.set(second, list.filter((q) => q.words.length === 1 || q.words[1] === second));
      }
      this.byFirstWord[first] = { bySecondWord, alone };
    }
  }

  /** Whether a word of `text` opens a phrase of the dictionary: most text holds none, and needs no search. */
  opensIn(text: string): boolean {
    scanPhraseWords(text);
    for (let i = 0; i < scanned.count; i++) {
      const id = scanned.ids[i]!;
      if (id >= 0 && this.byFirstWord[id] !== undefined) return true;
    }
    return false;
  }

  /** The dictionary's phrases in `text`, left to right, as whole words separated by whitespace. */
  find(text: string): PhraseMatch[] {
    scanPhraseWords(text);
    const { count, starts, ends, ids } = scanned;
    const matches: PhraseMatch[] = [];
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const from = id < 0 ? undefined : this.byFirstWord[id];
      if (!from) continue;
      const candidates = (i + 1 < count && from.bySecondWord.get(ids[i + 1]!)) || from.alone;
      let phrase: Phrase | undefined;
      for (const candidate of candidates) if (phraseAt(text, candidate, i)) {
        phrase = candidate;
        break;
      }
      if (!phrase) continue;
      const last = i + phrase.words.length - 1;
      matches.push({ index: starts[i]!, text: text.slice(starts[i]!, ends[last]!), replacement: phrase.replacement, opening: phrase.only === 'opening' });
      i = last;
    }
    return matches;
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
  /** Applies only where it opens a sentence: the rewrite pass decides. */
  readonly opening: boolean;
}

/** Words of the piece being searched, reused from call to call: start, end and vocabulary id. */
const scanned = { count: 0, starts: new Int32Array(512), ends: new Int32Array(512), ids: new Int32Array(512) };

let lastScanned: string | undefined;

function scanPhraseWords(text: string): void {
  // The rewrite pass searches one piece with several dictionaries in turn: scan it once.
  if (text === lastScanned) return;
  lastScanned = text;
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

/**
 * Whether the phrase's words are the scanned words from `first` on, separated by whitespace within
 * one line: a hard-wrapped prompt keeps its lines ("… a unit test is\nnot runtime evidence").
 */
function phraseAt(text: string, phrase: Phrase, first: number): boolean {
  const n = phrase.words.length;
  if (first + n > scanned.count) return false;
  for (let k = 0; k < n; k++) {
    if (scanned.ids[first + k] !== phrase.words[k]) return false;
    if (k > 0 && !onlyWhitespace(text, scanned.ends[first + k - 1]!, scanned.starts[first + k]!)) return false;
  }
  const next = first + n;
  // "a lot, as you might imagine for an app …": not set off by punctuation, the phrase goes on into what follows.
  // Where it opens a sentence it is set off anyway: "To be honest nobody likes it".
  if (phrase.comma && !/^(?:[,.;:!?)]|$)/.test(text.slice(scanned.ends[next - 1]!, scanned.ends[next - 1]! + 1)) && !/(?:^|[.!?:;(]\s*)$/.test(text.slice(0, scanned.starts[first]!).trimEnd())) return false;
  if (phrase.words[n - 1] === THAT && n > 1 && next < scanned.count && THAT_SUBJECT.has(scanned.ids[next]!)) return false;
  // So is "here": "everything they'd do here is already covered" is no "here's".
  if ((phrase.words[0] === THERE || phrase.words[0] === HERE) && first > 0 && onlyWhitespace(text, scanned.ends[first - 1]!, scanned.starts[first]!) && !THERE_OPENS.has(scanned.ids[first - 1]!)) return false;
  if (!phrase.only) return true;
  // The word after the phrase may stand on the next line: it is not rewritten.
  if (next >= scanned.count || !onlyWhitespace(text, scanned.ends[next - 1]!, scanned.starts[next]!, true)) return false;
  if (phrase.only !== 'beforeWord') return !NOT_A_VERB.has(scanned.ids[next]!);
  // "no matter how good it is otherwise.": a verb that ends its clause, an adverb after it, stays whole.
  if (ENDS_CLAUSE_AFTER.has(text.slice(scanned.starts[next]!, scanned.ends[next]!).toLowerCase()) && (next + 1 >= scanned.count || /[,.;:!?)]/.test(text.slice(scanned.ends[next]!, scanned.starts[next + 1]!)))) return false;
  return !OPENS_CLAUSE.has(scanned.ids[next]!);
}

const WHITESPACE = /\s/;
/** The line breaks beyond ASCII's \n and \r. */
const LINE_BREAK = /[\u2028\u2029]/;

/** Whether text[from, to) is whitespace only (and not empty), within one line unless `lines`. */
function onlyWhitespace(text: string, from: number, to: number, lines = false): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 11 || c === 12) continue;
    if (c === 10 || c === 13) {
      if (lines) continue;
      return false;
    }
    if (c < 128 || !WHITESPACE.test(text[i]!) || (!lines && LINE_BREAK.test(text[i]!))) return false;
  }
  return true;
}
