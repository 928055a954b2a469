/**
 * Prompts kept in code: the string literal around the cursor in TypeScript/JavaScript (quotes and template
 * literals) and Python (quotes and triple quotes, any prefix), its value, and the way back from an
 * optimized value to source text that keeps the literal's quoting and its style of escapes.
 *
 * The scanners know comments, strings and `${…}` nesting; not regular-expression literals (a quote inside
 * one can mislead them), which is rare in files that hold prompts.
 */
export type LiteralFamily = 'js' | 'python';
export type LiteralKind = 'single' | 'double' | 'template' | 'triple-single' | 'triple-double';

export interface StringLiteral {
  readonly family: LiteralFamily;
  readonly kind: LiteralKind;
  /** Python r-prefix: backslashes are text. */
  readonly raw: boolean;
  /** Offsets of the content, between the quotes. */
  readonly start: number;
  readonly end: number;
}

const JS_LANGUAGES = new Set(['javascript', 'typescript', 'javascriptreact', 'typescriptreact']);

export function literalFamily(languageId: string): LiteralFamily | undefined {
  if (JS_LANGUAGES.has(languageId)) return 'js';
  return languageId === 'python' ? 'python' : undefined;
}

/** The innermost string literal whose content holds `offset` (its edges included). */
export function findStringLiteral(text: string, offset: number, family: LiteralFamily): StringLiteral | undefined {
  let found: StringLiteral | undefined;
  for (const literal of family === 'js' ? scanJs(text) : scanPython(text)) {
    if (literal.start <= offset && offset <= literal.end && (!found || literal.start >= found.start)) found = literal;
  }
  return found;
}

function lineEnd(text: string, i: number): number {
  const end = text.indexOf('\n', i);
  return end < 0 ? text.length : end;
}

function scanJs(text: string): StringLiteral[] {
  const found: StringLiteral[] = [];
  const literal = (kind: LiteralKind, start: number, end: number) => found.push({ family: 'js', kind, raw: false, start, end });
  // Code up to the end, or (in a template's `${…}`) up to its closing brace; returns the index after it.
  const code = (from: number, inExpression: boolean): number => {
    let depth = 0;
    for (let i = from; i < text.length; ) {
      const c = text[i]!;
      if (c === '/' && text[i + 1] === '/') i = lineEnd(text, i);
      else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
      else if (c === '"' || c === "'") i = quoted(i, c);
      else if (c === '`') i = template(i);
      else {
        if (inExpression && c === '{') depth++;
        if (inExpression && c === '}' && depth-- === 0) return i + 1;
        i++;
      }
    }
    return text.length;
  };
  const quoted = (open: number, quote: string): number => {
    let i = open + 1;
    while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    if (text[i] === quote) literal(quote === '"' ? 'double' : 'single', open + 1, i);
    return i + 1;
  };
  const template = (open: number): number => {
    let i = open + 1;
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '$' && text[i + 1] === '{') i = code(i + 2, true);
      else i++;
    }
    if (i < text.length) literal('template', open + 1, i);
    return i + 1;
  };
  code(0, false);
  return found;
}

function scanPython(text: string): StringLiteral[] {
  const found: StringLiteral[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '#') {
      i = lineEnd(text, i);
      continue;
    }
    if (c !== '"' && c !== "'") {
      i++;
      continue;
    }
    let p = i;
    while (p > 0 && i - p < 2 && /[rRbBuUfF]/.test(text[p - 1]!)) p--;
    const raw = !(p > 0 && /\w/.test(text[p - 1]!)) && /r/i.test(text.slice(p, i));
    const triple = text.startsWith(c.repeat(3), i);
    const open = i + (triple ? 3 : 1);
    let j = open;
    // Even in a raw string a backslash keeps the next quote from closing it.
    while (j < text.length && !(triple ? text.startsWith(c.repeat(3), j) : text[j] === c || text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
    const closed = triple ? text.startsWith(c.repeat(3), j) : text[j] === c;
    if (closed) found.push({ family: 'python', kind: triple ? (c === '"' ? 'triple-double' : 'triple-single') : c === '"' ? 'double' : 'single', raw, start: open, end: j });
    i = j + (closed ? (triple ? 3 : 1) : 0);
  }
  return found;
}
