const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 of each document (a list of term keys) for the query terms, over the given documents as
 * the corpus. Deterministic and linear in the total number of terms.
 */
export function bm25(documents: readonly (readonly string[])[], query: readonly string[]): number[] {
  return bm25Terms(documents, query).map((contributions) => {
    let score = 0;
    for (const value of contributions.values()) score += value;
    return score;
  });
}

/** BM25 split by query term: for each document, what each matched query term contributes. */
export function bm25Terms(documents: readonly (readonly string[])[], query: readonly string[]): Map<string, number>[] {
  const queryTerms = [...new Set(query)];
  if (queryTerms.length === 0 || documents.length === 0) return documents.map(() => new Map());
  const wanted = new Set(queryTerms);
  const documentFrequency = new Map<string, number>();
  let totalLength = 0;
  for (const doc of documents) {
    totalLength += doc.length;
    const seen = new Set<string>();
    for (const term of doc) if (wanted.has(term) && !seen.has(term)) {
      seen.add(term);
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const n = documents.length;
  const averageLength = totalLength / n || 1;
  const idf = new Map(queryTerms.map((t) => {
    const df = documentFrequency.get(t) ?? 0;
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
  }));
  return documents.map((doc) => {
    const tf = new Map<string, number>();
    for (const term of doc) if (wanted.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
    const contributions = new Map<string, number>();
    for (const [term, f] of tf) contributions.set(term, (idf.get(term)! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / averageLength)));
    return contributions;
  });
}
