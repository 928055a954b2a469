// Baselines of ../shared/docs/evaluation.md, on the same o200k_base token counts as the project.
import { encode, decode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from '../src/core';

/** Keep the first `budget` tokens. */
export function truncate(text: string, budget: number): string {
  return decode(encode(text, { disallowedSpecial: new Set() }).slice(0, budget));
}

/** A context cut into sentences, with each one's cost (tokens + 1) and lowercased words. */
export interface Sentences {
  texts: string[];
  costs: number[];
  words: string[][];
}

/** Sentences end at `.`/`!`/`?` followed by whitespace, or at a line break. */
export function sentencesOf(text: string): Sentences {
  const texts = text.split(/(?<=[.!?])\s+|\s*\n\s*/).filter((s) => s.trim());
  return { texts, costs: texts.map((s) => countTokens(s) + 1), words: texts.map(wordsOf) };
}

/** Words: runs of letters (with their combining marks) and digits, lowercased. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** A short English stopword list, taken out of the BM25 query. */
const STOPWORDS = new Set(
  ('a an the of in on at to for from by with about as into and or but is are was were be been being do does did ' +
    'what which who whom whose when where why how that this these those it its there their they he she his her ' +
    'has have had not no than then can could would should will s').split(' '),
);

/** BM25 (k1 1.2, b 0.75) of every sentence against the question's words minus stopwords. */
export function bm25Scores(s: Sentences, question: string): number[] {
  const n = s.words.length;
  const avg = s.words.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const query = [...new Set(wordsOf(question))].filter((w) => !STOPWORDS.has(w));
  const idf = new Map(query.map((t) => {
    const df = s.words.filter((d) => d.includes(t)).length;
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
  }));
  return s.words.map((d) =>
    query.reduce((sum, t) => {
      const f = d.filter((w) => w === t).length;
      return sum + (idf.get(t)! * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }, 0),
  );
}

/** LexRank-like centrality: tf-idf cosine similarity of every sentence to the whole context. */
export function centralityScores(s: Sentences): number[] {
  const n = s.words.length;
  const df = new Map<string, number>();
  for (const d of s.words) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const vector = (words: string[]): Map<string, number> => {
    const v = new Map<string, number>();
    for (const w of words) v.set(w, (v.get(w) ?? 0) + Math.log(1 + n / df.get(w)!));
    return v;
  };
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((sum, x) => sum + x * x, 0)) || 1;
  const whole = vector(s.words.flat());
  const wholeNorm = norm(whole);
  return s.words.map((d) => {
    const v = vector(d);
    let dot = 0;
    for (const [w, x] of v) dot += x * whole.get(w)!;
    return dot / (norm(v) * wholeNorm);
  });
}

/** Greedy by score (ties: earlier first), each sentence costing its tokens + 1; output in original order. */
export function selectSentences(s: Sentences, scores: number[], budget: number): string {
  const order = s.texts.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const chosen = new Set<number>();
  let used = 0;
  for (const i of order) {
    if (used + s.costs[i]! <= budget) (chosen.add(i), (used += s.costs[i]!));
  }
  return s.texts.filter((_, i) => chosen.has(i)).join(' ');
}

export function bm25Sentences(text: string, question: string, budget: number): string {
  const s = sentencesOf(text);
  return selectSentences(s, bm25Scores(s, question), budget);
}
