/**
 * Where the proposal goes back into the document. The core returns trimmed text; the selection's own
 * leading and trailing white space (a file's final newline, the blank line before the next heading)
 * belongs to the document, not to the prompt, so Accept must keep it. Pure.
 */

/** `optimized` with the white space that surrounds `original` put back around it. */
export function keepOriginalEdges(original: string, optimized: string): string {
  const body = optimized.trim();
  if (body === '') return optimized;
  const lead = /^\s*/.exec(original)?.[0] ?? '';
  const trail = /\s*$/.exec(original)?.[0] ?? '';
  return lead + body + trail;
}

/** Nothing to shorten: the proposal would be the original, character for character. */
export function isUnchanged(original: string, proposal: string): boolean {
  return original === proposal;
}

/**
 * The engine's result as it will be placed: edges restored, and the proposal's tokens recounted
 * (`count`, the engine's tokenizer) when that changed the text, so the counts match what Accept writes.
 */
export function placeResult<R extends { readonly text: string; readonly optimizedTokens: number }>(result: R, original: string, count: (text: string) => number): R {
  const text = keepOriginalEdges(original, result.text);
  return text === result.text ? result : { ...result, text, optimizedTokens: count(text) };
}
