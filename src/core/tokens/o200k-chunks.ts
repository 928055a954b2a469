import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/**
 * The o200k pre-tokenizer (the regex that splits text into chunks before byte-pair encoding), with a
 * hand-written fast path for ASCII. Alternatives of the regex, in order:
 *   1. [^\r\n\p{L}\p{N}]? [\p{Lu}…]* [\p{Ll}…]+ contraction?     optional lead char, Capitalised word
 *   2. [^\r\n\p{L}\p{N}]? [\p{Lu}…]+ [\p{Ll}…]* contraction?     optional lead char, UPPERCASE word
 *   3. \p{N}{1,3}                                                up to three digits
 *   4. " "? [^\s\p{L}\p{N}]+ [\r\n/]*                            punctuation run
 *   5. \s* [\r\n]+                                               whitespace up to its last line break
 *   6. \s+ (?!\S)                                                whitespace but the last char before text
 *   7. \s+
 * Wherever the decision depends on a non-ASCII character, the library's own regex decides instead
 * (it has no lookbehind, so matching it from a chunk boundary gives the library's chunk).
 */
const STICKY = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
const SLOW = -1;
const NONE = -2;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
/** ASCII that is neither whitespace, letter nor digit (control characters included). */
const isPunct = (c: number) => c < 128 && !isSpace(c) && !isDigit(c) && !isUpper(c) && !isLower(c);
/** Past the end of the text charCodeAt gives NaN, which is none of the above and not ≥ 128. */
const nonAscii = (c: number) => c >= 128;

/** End of the chunk that starts at `start` (a chunk boundary) in `text`. */
export function o200kChunkEnd(text: string, start: number): number {
  const end = fastChunkEnd(text, start);
  if (end !== SLOW) return end;
  return slowChunkEnd(text, start);
}

/**
 * The chunk end when the ASCII fast path can decide it, else -1. The fast path reads no further than
 * two characters past the end it returns, except over whitespace, which it reads to the first
 * non-whitespace character: so text that goes on differently after that gives the same chunk.
 */
export function o200kLocalChunkEnd(text: string, start: number): number {
  const end = fastChunkEnd(text, start);
  return end === SLOW ? -1 : end;
}

function slowChunkEnd(text: string, start: number): number {
  STICKY.lastIndex = start;
  const match = STICKY.exec(text);
  // Every character matches some alternative, so this never stays put; guard against it anyway.
  return match && match[0].length > 0 ? start + match[0].length : start + 1;
}

function fastChunkEnd(text: string, p: number): number {
  const c = text.charCodeAt(p);
  if (nonAscii(c)) return SLOW;
  if (isUpper(c) || isLower(c)) return wordEnd(text, p); // a letter cannot be the lead char
  if (isDigit(c)) return digitsEnd(text, p);
  // Alternatives 1–2 with a lead char: anything but a line break, letter or digit.
  if (c !== 10 && c !== 13) {
    const word = wordEnd(text, p + 1);
    if (word !== NONE) return word;
  }
  // Alternative 4.
  const punctStart = c === 32 ? p + 1 : p;
  const first = text.charCodeAt(punctStart);
  if (nonAscii(first)) return SLOW;
  if (isPunct(first)) return punctuationEnd(text, punctStart);
  return isSpace(c) ? whitespaceEnd(text, p) : SLOW;
}

/** Alternatives 1–2 from `q`, after the optional lead char: NONE when no letter starts there. */
function wordEnd(text: string, q: number): number {
  let i = q;
  while (isUpper(text.charCodeAt(i))) i++;
  let j = i;
  while (isLower(text.charCodeAt(j))) j++;
  // A non-ASCII letter or mark could continue either run.
  if (nonAscii(text.charCodeAt(j))) return SLOW;
  if (j === q) return NONE;
  // With lower-case letters the whole run matches (1); without, the upper-case run alone (2).
  return contractionEnd(text, j);
}

function contractionEnd(text: string, j: number): number {
  if (text.charCodeAt(j) !== 39) return j; // '
  const a = text.charCodeAt(j + 1) | 32; // lower-cased when a letter
  if (a === 115 || a === 100 || a === 109 || a === 116) return j + 2; // 's 'd 'm 't
  const b = text.charCodeAt(j + 2) | 32;
  if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) return j + 3; // 'll 've 're
  return j;
}

function digitsEnd(text: string, p: number): number {
  let i = p + 1;
  while (i < p + 3 && isDigit(text.charCodeAt(i))) i++;
  return i < p + 3 && nonAscii(text.charCodeAt(i)) ? SLOW : i;
}

function punctuationEnd(text: string, q: number): number {
  let i = q;
  while (isPunct(text.charCodeAt(i))) i++;
  if (nonAscii(text.charCodeAt(i))) return SLOW;
  for (let c = text.charCodeAt(i); c === 10 || c === 13 || c === 47; c = text.charCodeAt(++i));
  return i;
}

/** Alternatives 5–7 on the whitespace run at `p`. */
function whitespaceEnd(text: string, p: number): number {
  let i = p;
  let lastBreak = -1;
  for (let c = text.charCodeAt(i); isSpace(c); c = text.charCodeAt(++i)) if (c === 10 || c === 13) lastBreak = i;
  // A non-ASCII character after the run may be Unicode whitespace that extends it.
  if (nonAscii(text.charCodeAt(i))) return SLOW;
  if (lastBreak >= 0) return lastBreak + 1;
  if (i === text.length) return i;
  return i - p >= 2 ? i - 1 : i;
}
