import { words } from './words';

// The most frequent English words; prose with few of them is not English (or not prose).
const COMMON = new Set('the of and to a in is you that it for are be with as on this your not or by at from have will an can if should'.split(' '));

/** True when the text reads as English, so English-only passes (rewrites, stopword pruning) may run. */
export function isEnglish(text: string): boolean {
  const sample = words(text.slice(0, 20_000));
  if (sample.length < 3) return /^[\x00-\x7f]*$/.test(text);
  let common = 0;
  for (const w of sample) if (COMMON.has(w)) common++;
  return common / sample.length >= 0.12;
}
