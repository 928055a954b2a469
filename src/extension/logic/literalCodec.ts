/**
 * From a string literal's source to its value and back. The way back writes a character the way the source
 * did: a character the source only ever wrote as an escape (`\n` in a template literal, `\u00e9`) is written
 * with that escape again, and what must be escaped in this kind of literal (its quote, a backslash, a line
 * break in a one-line string) always is. So an optimized prompt goes back with the literal's quoting and
 * escapes as they were, and `decode(encode(value)) === value`.
 */
import type { StringLiteral } from './stringLiterals';

// Escapes that stand for no character of their own get one from the private use area (never in prompts).
const ESCAPED_DOLLAR = '\uE000'; // `\$` in a template literal
const LINE_CONTINUATION = '\uE001'; // backslash + line break: no character at all
const KEPT_BACKSLASH = '\uE002'; // Python keeps the backslash of an unknown escape (`\d`)

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '`': '`' };
const QUOTE: Record<StringLiteral['kind'], string> = { single: "'", double: '"', template: '`', 'triple-single': "'", 'triple-double': '"' };

export interface LiteralCodec {
  /** The value the source stands for (in a template literal, `${…}` stays as written). */
  readonly value: string;
  encode(value: string): string;
}

export function literalCodec(literal: StringLiteral, source: string): LiteralCodec {
  if (literal.raw) return { value: source, encode: (value) => value };
  const template = literal.kind === 'template';
  const spelled = new Map<string, string>();
  const written = new Set<string>();
  let value = '';
  for (let i = 0; i < source.length; ) {
    if (template && source.startsWith('${', i)) {
      const end = expressionEnd(source, i + 2);
      value += source.slice(i, end);
      i = end;
      continue;
    }
    const c = String.fromCodePoint(source.codePointAt(i)!);
    if (c !== '\\') {
      written.add(c);
      value += c;
      i += c.length;
      continue;
    }
    const [decoded, length] = escape(source, i, literal);
    if (!spelled.has(decoded)) spelled.set(decoded, source.slice(i, i + length));
    value += decoded;
    i += length;
  }
  for (const c of written) spelled.delete(c);
  return { value, encode: (text) => encode(text, literal, spelled) };
}

/** The character an escape at `i` stands for, and the escape's length. */
function escape(source: string, i: number, literal: StringLiteral): [string, number] {
  const next = source[i + 1] ?? '';
  if (next === '\r' || next === '\n') return [LINE_CONTINUATION, next === '\r' && source[i + 2] === '\n' ? 3 : 2];
  if (literal.kind === 'template' && next === '$') return [ESCAPED_DOLLAR, 2];
  const hex = (digits: number) => (new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(source.slice(i + 2, i + 2 + digits)) ? parseInt(source.slice(i + 2, i + 2 + digits), 16) : undefined);
  if (next === 'x' && hex(2) !== undefined) return [String.fromCharCode(hex(2)!), 4];
  if (next === 'u' && hex(4) !== undefined) return [String.fromCharCode(hex(4)!), 6];
  if (next === 'u' && literal.family === 'js' && source[i + 2] === '{') {
    const close = source.indexOf('}', i + 3);
    const code = parseInt(source.slice(i + 3, close), 16);
    if (close > 0 && code <= 0x10ffff) return [String.fromCodePoint(code), close - i + 1];
  }
  if (next === '0' && !/\d/.test(source[i + 2] ?? '')) return ['\0', 2];
  if (next in SIMPLE) return [SIMPLE[next]!, 2];
  // An unknown escape: JavaScript drops the backslash, Python keeps it.
  return literal.family === 'python' ? [KEPT_BACKSLASH, 1] : [next, 2];
}

function encode(value: string, literal: StringLiteral, spelled: ReadonlyMap<string, string>): string {
  const quote = QUOTE[literal.kind];
  const triple = literal.kind.startsWith('triple');
  const oneLine = literal.kind === 'single' || literal.kind === 'double';
  let out = '';
  for (let i = 0; i < value.length; ) {
    if (literal.kind === 'template' && value.startsWith('${', i)) {
      const end = expressionEnd(value, i + 2);
      out += value.slice(i, end);
      i = end;
      continue;
    }
    const c = String.fromCodePoint(value.codePointAt(i)!);
    const spelling = spelled.get(c);
    // A quote in triple quotes needs a backslash only where it would end the literal.
    const endsLiteral = c === quote && (!triple || value.startsWith(quote.repeat(3), i) || i === value.length - 1);
    if (spelling !== undefined) out += spelling;
    else if (c === KEPT_BACKSLASH) out += '\\';
    else if (c === '\\' || endsLiteral) out += `\\${c}`;
    else if (oneLine && c === '\n') out += '\\n';
    else if (oneLine && c === '\r') out += '\\r';
    else out += c;
    i += c.length;
  }
  return out;
}

/** Index after the `}` that closes a `${` whose body starts at `from`. */
function expressionEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && depth-- === 0) return i + 1;
  }
  return text.length;
}

/**
 * The part of a literal's source worth optimizing: without the line breaks, indentation and line
 * continuations that frame a multi-line prompt (`"""\` + newline … newline + indentation `"""`).
 */
export function literalBody(source: string): { start: number; end: number } {
  const start = /^(?:\\\r?\n|\s)*/.exec(source)![0].length;
  let end = start + /(?:\\\r?\n|\s)*$/.exec(source.slice(start))!.index;
  // Never strip a space that a backslash escapes.
  if (end > start && end < source.length && source[end - 1] === '\\') end++;
  return { start, end };
}
