import type { BlockKind } from '../doc';

/**
 * Markdown-aware block scanner: splits a prompt into ranges of protected blocks (fenced or indented
 * code, JSON/YAML, tables, <keep>, headings, markup lines) and prose (paragraphs, list items, quotes).
 * Ranges never overlap; the text between two ranges is only line breaks and blank lines.
 */
export interface Range {
  kind: BlockKind;
  start: number;
  contentStart: number;
  end: number;
}

interface Line {
  start: number;
  end: number;
  text: string;
}

function toLines(text: string): Line[] {
  const lines: Line[] = [];
  const pattern = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    lines.push({ start, end: m.index, text: text.slice(start, m.index) });
    start = m.index + m[0].length;
  }
  lines.push({ start, end: text.length, text: text.slice(start) });
  return lines;
}

const BLANK = /^\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const TAG_LINE = /^\s*<\/?[A-Za-z][\w-]*(\s[^<>]*)?>\s*$/;
const KEEP_OPEN = /^\s*<keep>/;
const LIST_ITEM = /^(\s*)([-*+•]|\d{1,3}[.)]|[a-zA-Z][.)])\s+(?=\S)/;
const QUOTE = /^\s*>\s?/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)+\|?\s*$/;
const YAML_LINE = /^(\s*)(?:-\s+)?["']?[\w.\/-]+["']?:(?:\s+(.*))?$/;

function isBlockStart(lines: Line[], i: number): boolean {
  const t = lines[i]!.text;
  return FENCE.test(t) || HEADING.test(t) || RULE.test(t) || TAG_LINE.test(t) || KEEP_OPEN.test(t) || LIST_ITEM.test(t) || QUOTE.test(t) || t.trimStart().startsWith('|');
}

export function* scanBlocks(text: string): Generator<Range> {
  const lines = toLines(text);
  let previousKind: BlockKind | 'list' | null = null;
  let afterBlank = true;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (BLANK.test(line.text)) {
      afterBlank = true;
      i++;
      continue;
    }
    const found = matchBlock(text, lines, i, afterBlank && previousKind !== 'list');
    const last = lines[found.lastLine]!;
    yield { kind: found.kind, start: line.start, contentStart: line.start + found.contentOffset, end: last.end };
    previousKind = found.list ? 'list' : found.kind;
    afterBlank = false;
    i = found.lastLine + 1;
  }
}

interface Match {
  kind: BlockKind;
  lastLine: number;
  contentOffset: number;
  list?: boolean;
}

function matchBlock(text: string, lines: Line[], i: number, mayBeIndentedCode: boolean): Match {
  const t = lines[i]!.text;
  const whole = (kind: BlockKind, lastLine: number): Match => ({ kind, lastLine, contentOffset: 0 });
  const fence = FENCE.exec(t);
  if (fence) {
    const marker = fence[1]!;
    const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    for (let j = i + 1; j < lines.length; j++) if (close.test(lines[j]!.text)) return whole('code', j);
    return whole('code', lines.length - 1); // unbalanced fence: protect to the end
  }
  const keepOpen = KEEP_OPEN.test(t);
  if (keepOpen) {
    const close = text.indexOf('</keep>', lines[i]!.start);
    for (let j = i; close >= 0 && j < lines.length; j++) {
      const l = lines[j]!;
      if (close >= l.start && close <= l.end) {
        if (BLANK.test(text.slice(close + 7, l.end))) return whole('keep', j);
        break;
      }
    }
    // Text after </keep> on its line: the span stays inline in a prose paragraph, locked there.
  }
  if (HEADING.test(t)) return whole('heading', i);
  if (RULE.test(t) || (TAG_LINE.test(t) && !keepOpen)) return whole('markup', i);
  const table = matchTable(lines, i);
  if (table >= 0) return whole('table', table);
  const data = matchJson(lines, i) ?? matchYaml(lines, i);
  if (data !== null) return whole('data', data);
  if (mayBeIndentedCode && /^( {4}|\t)/.test(t)) {
    let j = i;
    while (j + 1 < lines.length && (/^( {4}|\t)/.test(lines[j + 1]!.text) || (BLANK.test(lines[j + 1]!.text) && j + 2 < lines.length && /^( {4}|\t)/.test(lines[j + 2]!.text)))) j++;
    return whole('code', j);
  }
  const marker = LIST_ITEM.exec(t) ?? QUOTE.exec(t);
  const prefixLength = marker ? marker[0].length : 0;
  let j = i;
  let openKeeps = keepBalance(t);
  // A paragraph ends at a blank line or a block start, but never inside an open <keep> span.
  while (j + 1 < lines.length && ((openKeeps > 0 && text.includes('</keep>', lines[j + 1]!.start)) || (!BLANK.test(lines[j + 1]!.text) && !isBlockStart(lines, j + 1)))) {
    j++;
    openKeeps += keepBalance(lines[j]!.text);
  }
  return { kind: 'prose', lastLine: j, contentOffset: prefixLength, list: LIST_ITEM.test(t) };
}

function keepBalance(line: string): number {
  return (line.match(/<keep>/g)?.length ?? 0) - (line.match(/<\/keep>/g)?.length ?? 0);
}

function matchTable(lines: Line[], i: number): number {
  const t = lines[i]!.text;
  if (!t.includes('|')) return -1;
  const next = lines[i + 1]?.text ?? '';
  if (!(TABLE_SEPARATOR.test(next) || (t.trimStart().startsWith('|') && next.trimStart().startsWith('|')))) return -1;
  let j = i + 1;
  while (j + 1 < lines.length && lines[j + 1]!.text.includes('|') && !BLANK.test(lines[j + 1]!.text)) j++;
  return j;
}

function matchJson(lines: Line[], i: number): number | null {
  const first = lines[i]!.text.trim();
  if (!/^[[{]/.test(first)) return null;
  let depth = 0;
  let inString = false;
  let text = '';
  for (let j = i; j < lines.length && j < i + 5000; j++) {
    const line = lines[j]!.text;
    text += (j > i ? '\n' : '') + line;
    for (let k = 0; k < line.length; k++) {
      const ch = line[k];
      if (inString) {
        if (ch === '\\') k++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
    }
    if (depth <= 0) {
      if (isJson(text) || (j > i && /^[[{]$/.test(first))) return j;
      return null;
    }
  }
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return /[:,]/.test(text) || text.length > 2;
  } catch {
    return false;
  }
}

function matchYaml(lines: Line[], i: number): number | null {
  if (!YAML_LINE.test(lines[i]!.text)) return null;
  let j = i;
  let nested = false;
  let shortValues = true;
  for (; j < lines.length; j++) {
    const t = lines[j]!.text;
    if (BLANK.test(t)) break;
    const m = YAML_LINE.exec(t);
    if (m) {
      if ((m[1] ?? '').length > 0 || !m[2]) nested = true;
      if ((m[2] ?? '').length > 40) shortValues = false;
    } else if (/^\s{2,}\S/.test(t)) nested = true;
    else break;
  }
  const last = j - 1;
  const count = last - i + 1;
  return count >= 2 && (nested || (count >= 3 && shortValues)) ? last : null;
}
