// Baselines the README's evaluation compares against, as described in ../shared/data/README.md.
import { encode, decode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from '../src/core';

/** Keep the first `budget` tokens. */
export function truncate(text: string, budget: number): string {
  return decode(encode(text, { disallowedSpecial: new Set() }).slice(0, budget));
}

/** BM25 sentence selection: split at ./!/? + whitespace, greedy by score, original order. */
export function bm25Sentences(text: string, question: string, budget: number): string {
  const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());
  const tokenize = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const docs = sentences.map(tokenize);
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const query: string[] = [...new Set(tokenize(question))];
  const df = new Map<string, number>(query.map((t) => [t, docs.filter((d) => d.includes(t)).length]));
  const scores = docs.map((d) =>
    query.reduce((sum, t) => {
      const f = d.filter((w) => w === t).length;
      const idf = Math.log(1 + (docs.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      return sum + (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }, 0),
  );
  const order = sentences.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const chosen = new Set<number>();
  let used = 0;
  for (const i of order) {
    const cost = countTokens(sentences[i]!) + 1;
    if (used + cost <= budget) (chosen.add(i), (used += cost));
  }
  return sentences.filter((_, i) => chosen.has(i)).join(' ');
}
