import { isListItem, isStructural, sentenceText, sentenceWords, type Sentence } from '../doc';
import { REWRITES } from '../data/rewrites';
import { GUARD_WORDS, STOPWORDS } from '../text/words';
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
    const byRareWord = new Map<number, Entry[]>();
    const vocabulary = new WordIds();
    const entries: Entry[] = [];
    // A field of a record ("Applies to: all offices", "ID: HR-112") repeats under another heading as the
    // field of another record: it is a repeat only within its section.
    let section = 0;
    for (const block of doc.blocks) {
      if (isStructural(block) && !block.removed) section++;
      if (block.removed || block.kind !== 'prose') continue;
      for (const sentence of block.sentences) {
        if (sentence.removed) continue;
        const text = sentenceText(sentence);
        const field = text.includes(':') && FIELD.test(text) ? section : undefined;
        // So is a list item under another heading or lead-in: "- Work silently without announcements until
        // complete." under each of "# Phase 1" … "# Phase 4" is a rule of each phase.
        entries.push({ sentence, words: vocabulary.countDistinct(sentenceWords(sentence)), field, scope: field ?? (isListItem(block) ? section : undefined) });
      }
    }
    const inEntry = new Int32Array(vocabulary.size).fill(-1);
    entries.forEach((entry, index) => {
      // A line of marks alone (""""", "***") delimits; its repeat closes what the first opened.
      if (entry.words.length === 0) return;
      const exact = (entry.scope === undefined ? '' : `${entry.scope}\u0000`) + foldCaseAndSpace(sentenceText(entry.sentence));
      if (seen.has(exact)) {
        entry.sentence.removed = true;
        return;
      }
      seen.add(exact);
      if (entry.words.length < MIN_WORDS_FOR_NEAR || entry.field !== undefined) return;
      const rare = rarestTwo(entry.words, vocabulary);
      const candidates = earlierCandidates(rare, byRareWord).filter((earlier) => earlier.scope === entry.scope);
      if (candidates.length > 0) {
        for (const id of entry.words) inEntry[id] = index;
        // The word overlap first: it rules out almost every candidate, before any locked key is built.
        if (candidates.some((earlier) => nearRepeat(earlier.words, entry.words.length, inEntry, index) && saysNothingNew(entry, earlier, vocabulary) && lockedKey(earlier) === lockedKey(entry))) {
          entry.sentence.removed = true;
          return;
        }
      }
      for (const w of rare) {
        const list = byRareWord.get(w) ?? [];
        list.push(entry);
        byRareWord.set(w, list);
      }
    });
  },
};

/** "Label: value" on a line of its own, a label of at most four words: a field of a record. */
export const FIELD = /^[^\S\n]*[\p{L}][\p{L}\p{N} ._/-]{0,40}:[^\S\n]+[^\n]{1,80}$/u;

interface Entry {
  sentence: Sentence;
  /** For a field, the section it stands in (see FIELD). */
  field?: number;
  /** For a field or a list item, the section it stands in: a repeat only within it. */
  scope?: number;
  /** Ids of the sentence's distinct words. */
  words: number[];
  /** See lockedKey; computed only for sentences that have near-repeat candidates. */
  locked?: string;
}

/** Small ids for the words of one document, with how many sentences hold each. */
class WordIds {
  private readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  frequency = new Int32Array(1024);
  private countedIn = new Int32Array(1024);
  private sentences = 0;

  get size(): number {
    return this.words.length;
  }

  /** Ids of the distinct words, in order of first occurrence; counts each word once for the sentence. */
  countDistinct(scanned: readonly string[]): number[] {
    const sentence = ++this.sentences;
    const distinct: number[] = [];
    for (const w of scanned) {
      let id = this.ids.get(w);
      if (id === undefined) {
        id = this.add(w);
      }
      if (this.countedIn[id] === sentence) continue;
      this.countedIn[id] = sentence;
      this.frequency[id]!++;
      distinct.push(id);
    }
    return distinct;
  }

  private add(word: string): number {
    const id = this.words.length;
    this.ids.set(word, id);
    this.words.push(word);
    if (id === this.frequency.length) {
      const frequency = new Int32Array(id * 2);
      frequency.set(this.frequency);
      this.frequency = frequency;
      const countedIn = new Int32Array(id * 2);
      countedIn.set(this.countedIn);
      this.countedIn = countedIn;
    }
    return id;
  }
}

const SPACE_TO_FOLD = /[^\S ]| \s/;

/** The text with case and whitespace folded: what exact repeats share. */
function foldCaseAndSpace(text: string): string {
  const lower = text.toLowerCase();
  return (SPACE_TO_FOLD.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}

/**
 * Whether every content word of the later sentence is in the earlier one: "Inputs on the pages should
 * have numbers …" after "Links on the pages should have numbers …" shares 10 of 12 words but is another rule.
 */
function saysNothingNew(later: Entry, earlier: Entry, vocabulary: WordIds): boolean {
  const before = new Set(earlier.words);
  return later.words.every((id) => before.has(id) || STOPWORDS.has(vocabulary.words[id]!) || FILLER.has(vocabulary.words[id]!));
}

/** Words the rewrite pass deletes ("please", "really"): a repeat that adds only these adds nothing. */
const FILLER = new Set(REWRITES.filter(([from, to]) => to === '' && !from.includes(' ')).map(([from]) => from.toLowerCase()));

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
function rarestTwo(ids: readonly number[], vocabulary: WordIds): number[] {
  let first = -1;
  let second = -1;
  let firstCount = 0;
  let secondCount = 0;
  const { frequency, words } = vocabulary;
  for (const id of ids) {
    const count = frequency[id]!;
    if (first < 0 || count < firstCount || (count === firstCount && words[id]! < words[first]!)) {
      second = first;
      secondCount = firstCount;
      first = id;
      firstCount = count;
    } else if (second < 0 || count < secondCount || (count === secondCount && words[id]! < words[second]!)) {
      second = id;
      secondCount = count;
    }
  }
  return first < 0 ? [] : second < 0 ? [first] : [first, second];
}

/** Up to MAX_CANDIDATES earlier sentences that share a rare word, without copying long lists. */
function earlierCandidates(rare: readonly number[], byRareWord: Map<number, Entry[]>): Entry[] {
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
 * Whether the Jaccard similarity of the earlier sentence's words and the current one's (`size` words,
 * those whose `inEntry` mark is `current`) is at least NEAR. Stops counting as soon as the words still
 * unchecked could not lift it to NEAR: the ratio only grows with the shared count.
 */
function nearRepeat(earlier: readonly number[], size: number, inEntry: Int32Array, current: number): boolean {
  const union = earlier.length + size;
  let reachable = Math.min(earlier.length, size);
  let missing = 0;
  if (reachable / (union - reachable) < NEAR) return false;
  for (const id of earlier) {
    if (inEntry[id] === current) continue;
    missing++;
    reachable = Math.min(earlier.length - missing, size);
    if (reachable / (union - reachable) < NEAR) return false;
  }
  const shared = earlier.length - missing;
  return shared / (union - shared) >= NEAR;
}
