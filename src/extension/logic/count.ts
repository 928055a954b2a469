/** Counting strategy for the status bar: exact below a size limit, a sampled estimate above it. Pure. */

export interface CountResult {
  readonly tokens: number;
  readonly estimated: boolean;
}

const SAMPLE_CHARS = 65_536;

/**
 * Exact count when `text` is at most `limit` characters; otherwise the token density of three samples
 * (start, middle, end) extrapolated to the whole length, so a 5 MB document costs about 200 KB of
 * tokenizing and the editor never freezes.
 */
export function countOrEstimate(text: string, limit: number, count: (text: string) => number): CountResult {
  if (text.length <= limit) return { tokens: count(text), estimated: false };
  const third = Math.floor(SAMPLE_CHARS / 3);
  const middle = Math.floor(text.length / 2) - Math.floor(third / 2);
  const samples = [text.slice(0, third), text.slice(middle, middle + third), text.slice(text.length - third)];
  const sampledChars = samples.reduce((sum, s) => sum + s.length, 0);
  const sampledTokens = samples.reduce((sum, s) => sum + count(s), 0);
  return { tokens: Math.round((sampledTokens / sampledChars) * text.length), estimated: true };
}
