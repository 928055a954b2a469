import { sentenceText, sentenceWords, type Sentence } from '../doc';
import { GUARD_WORDS } from '../text/words';
import type { Pass } from './context';

const NEAR = 0.8;
const MIN_WORDS_FOR_NEAR = 5;
const MAX_CANDIDATES = 32;

/**
 * Pass 4: removes repeated sentences; the first occurrence stays. Exact repeats match after case and
 * whitespace folding; near repeats share at least 80% of their words and the very same protected
 * spans (numbers, names, literals) — a sentence that differs in a number is never a duplicate.
 */
export const dedupe: Pass = {
  name: 'dedupe',
  lossy: false,
  run(doc) {
    const seen = new Set<string>();
    const byRareWord = new Map<string, Entry[]>();
    const wordFrequency = new Map<string, number>();
    const entries: Entry[] = [];
    for (const block of doc.blocks) {
      if (block.kind !== 'prose' || block.removed) continue;
      for (const sentence of block.sentences) {
        if (sentence.removed) continue;
        const set = new Set(sentenceWords(sentence));
        for (const w of set) wordFrequency.set(w, (wordFrequency.get(w) ?? 0) + 1);
        entries.push({ sentence, words: set });
      }
    }
    for (const entry of entries) {
      const exact = foldCaseAndSpace(sentenceText(entry.sentence));
      if (seen.has(exact)) {
        entry.sentence.removed = true;
        continue;
      }
      seen.add(exact);
      if (entry.words.size < MIN_WORDS_FOR_NEAR) continue;
      const rare = rarestTwo(entry.words, wordFrequency);
      if (earlierCandidates(rare, byRareWord).some((earlier) => lockedKey(earlier) === lockedKey(entry) && nearRepeat(earlier.words, entry.words))) {
        entry.sentence.removed = true;
        continue;
      }
      for (const w of rare) {
        const list = byRareWord.get(w) ?? [];
        list.push(entry);
        byRareWord.set(w, list);
      }
    }
  },
};

interface Entry {
  sentence: Sentence;
  words: Set<string>;
  /** See lockedKey; computed only for sentences that have near-repeat candidates. */
  locked?: string;
}

const SPACE_TO_FOLD = /[^\S ]| \s/;

/** The text with case and whitespace folded: what exact repeats share. */
function foldCaseAndSpace(text: string): string {
  const lower = text.toLowerCase();
  return (SPACE_TO_FOLD.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}

/** What must be identical for two sentences to be near repeats: protected spans and negations. */
function lockedKey(entry: Entry): string {
  if (entry.locked === undefined) {
    const locked = entry.sentence.pieces.filter((p) => p.locked).map((p) => p.text);
    const guards = sentenceWords(entry.sentence).filter((w) => GUARD_WORDS.has(w));
    entry.locked = [...locked, '|', ...guards].join('\u0000');
  }
  return entry.locked;
}

/** The two least frequent words, ties by code-unit order (a linear scan instead of a sort). */
function rarestTwo(words: Set<string>, frequency: Map<string, number>): string[] {
  let first: string | undefined;
  let second: string | undefined;
  let firstCount = 0;
  let secondCount = 0;
  for (const w of words) {
    const count = frequency.get(w)!;
    if (first === undefined || count < firstCount || (count === firstCount && w < first)) {
      second = first;
      secondCount = firstCount;
      first = w;
      firstCount = count;
    } else if (second === undefined || count < secondCount || (count === secondCount && w < second)) {
      second = w;
      secondCount = count;
    }
  }
  return first === undefined ? [] : second === undefined ? [first] : [first, second];
}

/** Up to MAX_CANDIDATES earlier sentences that share a rare word, without copying long lists. */
function earlierCandidates(rare: readonly string[], byRareWord: Map<string, Entry[]>): Entry[] {
  const candidates: Entry[] = [];
  for (const w of rare) {
    for (const entry of byRareWord.get(w) ?? []) {
      if (candidates.length === MAX_CANDIDATES) return candidates;
      candidates.push(entry);
    }
  }
  return candidates;
}

/**
 * Whether the Jaccard similarity of the word sets is at least NEAR. Stops counting shared words as soon
 * as the words still unchecked could not lift it to NEAR: the ratio only grows with the shared count.
 */
function nearRepeat(a: Set<string>, b: Set<string>): boolean {
  const union = a.size + b.size;
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let reachable = small.size;
  if (reachable / (union - reachable) < NEAR) return false;
  for (const w of small) {
    if (large.has(w)) continue;
    reachable--;
    if (reachable / (union - reachable) < NEAR) return false;
  }
  return reachable / (union - reachable) >= NEAR;
}
