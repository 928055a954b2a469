import { sentenceText, type Sentence } from '../doc';
import { GUARD_WORDS, words } from '../text/words';
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
        const set = new Set(words(sentenceText(sentence)));
        for (const w of set) wordFrequency.set(w, (wordFrequency.get(w) ?? 0) + 1);
        entries.push({ sentence, words: set, locked: lockedKey(sentence) });
      }
    }
    for (const entry of entries) {
      const exact = sentenceText(entry.sentence).toLowerCase().replace(/\s+/g, ' ').trim();
      if (seen.has(exact)) {
        entry.sentence.removed = true;
        continue;
      }
      seen.add(exact);
      if (entry.words.size < MIN_WORDS_FOR_NEAR) continue;
      const rare = [...entry.words].sort((a, b) => wordFrequency.get(a)! - wordFrequency.get(b)! || (a < b ? -1 : 1)).slice(0, 2);
      const candidates = new Set(rare.flatMap((w) => byRareWord.get(w) ?? []).slice(0, MAX_CANDIDATES));
      if ([...candidates].some((earlier) => earlier.locked === entry.locked && jaccard(earlier.words, entry.words) >= NEAR)) {
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
  locked: string;
}

/** What must be identical for two sentences to be near repeats: protected spans and negations. */
function lockedKey(sentence: Sentence): string {
  const locked = sentence.pieces.filter((p) => p.locked).map((p) => p.text);
  const guards = words(sentenceText(sentence)).filter((w) => GUARD_WORDS.has(w));
  return [...locked, '|', ...guards].join('\u0000');
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
