import { FENCE_CLOSE, MARKDOWN_FENCE, scanBlocks, type FenceOpener, type Range } from '../text/blocks';
import { findExamples, isExampleLabel, type LineItem, type Span } from './examples';
import { frontMatterEnd } from './frontmatter';
import { edgeTags, pairTags, tagOf, type TagInfo } from './tags';

/** A block range of the prompt, with what the prompt layer found on top of the Markdown scan. */
export interface PromptRange extends Range {
  /** Markup ranges that are one tag. */
  tag?: TagInfo;
  /** Part of the prompt's final input: kept in relaxed mode. */
  pinned?: boolean;
}

// Tag sections that hold a few-shot example, and those that hold the prompt's final input.
const EXAMPLE_TAG = /^(?:example|sample|shot|beispiel|ejemplo|exemple|exemplo|esempio)[_-]?\d*$/;
const FINAL_TAG = /^(?:question|query|input|request|ask|task|ticket|email|message|document|text|problem|user[_-]?(?:input|query|request|question|message))$/;

/**
 * The prompt's block structure: front matter, the Markdown blocks (with tags at the edges of a prose
 * line split off as tag ranges of their own), few-shot examples as single `example` ranges, and the
 * final input marked `pinned`. Ranges are in order and never overlap.
 */
export function promptRanges(text: string, opens?: FenceOpener): PromptRange[] {
  const bodyStart = frontMatterEnd(text);
  let ranges: PromptRange[] = bodyStart > 0 ? [{ kind: 'frontmatter', start: 0, contentStart: 0, end: bodyStart }] : [];
  const body = bodyStart > 0 ? text.slice(bodyStart) : text;
  for (const range of scanBlocks(body, opens && ((start, end) => opens(start + bodyStart, end + bodyStart)))) {
    const shifted = { ...range, start: range.start + bodyStart, contentStart: range.contentStart + bodyStart, end: range.end + bodyStart };
    for (const part of splitTaggedLines(shifted, text)) splitEdgeTags(part, text, ranges);
  }
  const quoted = tripleQuoted(text);
  ranges = splitQuoteLines(ranges, quoted, text);
  for (const range of ranges) {
    // The lines of triple quotes come tagged from splitQuoteLines.
    if (range.kind === 'markup') range.tag ??= tagOf(text.slice(range.start, range.end)) ?? fenceTag(text.slice(range.start, range.end));
    // "User: Hi\nAssistant: Hello" reads as YAML to the block scan: a dialogue of labels is prose.
    if (range.kind === 'data' && isLabelled(text.slice(range.start, range.end))) (range.kind = 'prose'), (range.contentStart = range.start);
  }
  let partner = pairTags(ranges.map((r) => r.tag ?? null));
  // Tagged examples first: what a label-based example search then sees inside is already one unit.
  const tagged: Span[] = [];
  partner.forEach((j, i) => {
    if (j > i + 1 && EXAMPLE_TAG.test(ranges[i]!.tag!.name) && !ranges.slice(i + 1, j).some((r) => r.tag && EXAMPLE_TAG.test(r.tag.name))) {
      tagged.push({ start: ranges[i + 1]!.start, end: ranges[j - 1]!.end });
    }
  });
  ranges = carve(ranges, tagged, text, true);
  const { examples, finalInput } = findExamples(lineItems(ranges, text));
  // Text between lines of triple quotes is one input to work on ("Razão Social: …" lines are an invoice's, not examples).
  const outside = (span: Span) => !quoted.some((q) => span.start < q.end && span.end > q.start);
  ranges = carve(ranges, examples.filter(outside), text, true);
  ranges = carve(ranges, sectionExamples(ranges, text).filter(outside), text, true);
  if (finalInput) ranges = carve(ranges, [finalInput], text, false);
  else {
    partner = pairTags(ranges.map((r) => r.tag ?? null));
    let last = -1;
    partner.forEach((j, i) => {
      if (j > i && FINAL_TAG.test(ranges[i]!.tag!.name) && (last < 0 || j > partner[last]!)) last = i;
    });
    if (last >= 0 && !askedAfter(ranges, last, partner[last]!, text)) for (let k = last + 1; k < partner[last]!; k++) ranges[k]!.pinned = true;
  }
  return ranges;
}

// Triple quotes, the delimiter prompt guides recommend for input: a line of them opens or closes a text.
const TRIPLE_QUOTES = `(?:"""|''')`;
/** A sentence or line that is triple quotes alone (see segment's splitDelimited). */
export const TRIPLE_QUOTE_LINE = new RegExp(`^${TRIPLE_QUOTES}$`);
/** The tag name the lines of triple quotes around several paragraphs pair by. */
export const TRIPLE_QUOTE_TAG = '"""';

const TRIPLE_QUOTE_LINES = new RegExp(`^[ \\t]*${TRIPLE_QUOTES}[ \\t]*$`, 'gm');

/** Spans from a line of triple quotes to the next such line. */
function tripleQuoted(text: string): Span[] {
  const spans: Span[] = [];
  const delimiter = TRIPLE_QUOTE_LINES;
  delimiter.lastIndex = 0;
  for (let open = delimiter.exec(text); open; open = delimiter.exec(text)) {
    const close = delimiter.exec(text);
    if (!close) break;
    spans.push({ start: open.index, end: close.index + close[0].length });
  }
  return spans;
}

/**
 * The lines of triple quotes around text of several paragraphs, as tag lines of their own: the text
 * between is quoted material, kept or dropped with them (in one paragraph, segment's splitDelimited).
 */
function splitQuoteLines(ranges: PromptRange[], quoted: readonly Span[], text: string): PromptRange[] {
  const lines = quoted.flatMap((span) => {
    const openEnd = text.indexOf('\n', span.start);
    const closeStart = text.lastIndexOf('\n', span.end - 1) + 1;
    const within = ranges.find((r) => r.start <= span.start && span.end <= r.end);
    return within ? [] : [{ start: span.start, end: openEnd, closing: false }, { start: closeStart, end: span.end, closing: true }];
  });
  if (lines.length === 0) return ranges;
  const out: PromptRange[] = [];
  for (const range of ranges) {
    const cuts = lines.filter((line) => range.kind === 'prose' && line.start >= range.start && line.end <= range.end);
    let from = range.start;
    for (const line of cuts) {
      const end = trimEnd(text, from, line.start);
      if (end > from) out.push({ ...range, start: from, contentStart: from === range.start ? range.contentStart : from, end });
      out.push({ kind: 'markup', start: line.start, contentStart: line.start, end: trimEnd(text, line.start, line.end), tag: { name: TRIPLE_QUOTE_TAG, closing: line.closing } });
      from = skipSpace(text, line.end, range.end);
    }
    if (from === range.start) out.push(range);
    else if (from < range.end) out.push({ ...range, start: from, contentStart: from, end: range.end });
  }
  return out;
}

// Sections that hold material the prompt is about, not what it asks: a question after the last of them
// ("</document>\n\nCustomer question: … ?") is the final input instead.
const MATERIAL_TAG = /^(?:document|text|email|message|ticket)$/;
const ASKED = /[?？][\s\u00a0\u202f]*[」』"”“»']?\s*$|^[^\p{L}]*(?:[\p{L}]+\s+)?(?:question|inquiry|query|frage|anfrage|pregunta|consulta|pergunta|question du client|问题|咨询|質問|問い合わせ)\s*[:：]/imu;

/** Whether prose after the material section `open`…`close` asks a question of its own. */
function askedAfter(ranges: readonly PromptRange[], open: number, close: number, text: string): boolean {
  if (!MATERIAL_TAG.test(ranges[open]!.tag!.name)) return false;
  return ranges.slice(close + 1).some((r) => r.kind === 'prose' && ASKED.test(text.slice(r.start, r.end)));
}

// "## Examples", "### Few-shot examples", "## Beispiele", "## 示例": a section of few-shot examples.
const EXAMPLES_HEADING = /^#{1,6}[ \t]+(?:\*\*)?(?:few[- ]shot |worked )?(?:examples?|samples?|beispiele?|ejemplos?|exemples?|exemplos?|例|示例|例子|样例|入出力例)(?![\p{L}])/iu;
// Each line of an example ends as a unit does (a quote, a sentence, a JSON line); a hard-wrapped
// paragraph's lines end mid-sentence.
const LINE_END = /[.!?:;"”»)}\]>`。！？：」』]\s*$/u;

/**
 * Under an examples heading, each paragraph of two or more lines that each end a unit ("Review id
 * r-101: "…"" then its JSON answer) is one example: the input never goes without its answer; so is a
 * paragraph that is one quotation.
 */
function sectionExamples(ranges: readonly PromptRange[], text: string): Span[] {
  const spans: Span[] = [];
  let level = 0;
  for (const range of ranges) {
    if (range.kind === 'heading') {
      const heading = text.slice(range.start, range.end);
      const depth = /^#{1,6}/.exec(heading)?.[0].length ?? 7;
      if (EXAMPLES_HEADING.test(heading)) level = depth;
      else if (depth <= level) level = 0;
      continue;
    }
    if (level === 0 || range.kind !== 'prose' || range.contentStart !== range.start) continue;
    const paragraph = text.slice(range.start, range.end);
    const lines = paragraph.split(/\r?\n/);
    // A paragraph that opens a quotation closed in a later one is part of that quotation, not an example.
    const example = lines.length >= 2 ? lines.slice(0, -1).every((line) => LINE_END.test(line)) && !opensQuotation(paragraph) : QUOTED.test(paragraph.trim());
    if (example) spans.push({ start: range.start, end: range.end });
  }
  return spans;
}

// A paragraph that is one quotation ("Variable names like 'data'? What is this, a first-year assignment?"):
// under an examples heading, an example of what to write, whole.
const QUOTED = /^(?:"[^"\n]+"|“[^“”\n]+”|«[^«»\n]+»|„[^„“\n]+“)$/u;

const opensQuotation = (paragraph: string): boolean => {
  // German quotes close on the mark English opens with: „Umzug melden“ is closed.
  const rest = paragraph.replace(/„[^„“”\n]*[“”]/g, '');
  return (rest.match(/"/g) ?? []).length % 2 === 1 || (rest.match(/[“«„]/g) ?? []).length > (rest.match(/[”»]/g) ?? []).length;
};

// A line that one tag pair wraps whole: `<step n="2">Identify the passages …</step>`.
const TAGGED_LINE = /^<(\p{L}[\p{L}\p{N}_.-]*)(?:\s[^<>\n]*)?>.*<\/\1>\s*$/u;

/**
 * A paragraph of lines that tags wrap one by one (`<step n="1">…</step>`, `<page n="3">…</page>`) is
 * that many sections: each line is a range of its own, so that its tags go with its own sentences.
 */
function splitTaggedLines(range: PromptRange, text: string): PromptRange[] {
  if (range.kind !== 'prose') return [range];
  const lines = text.slice(range.start, range.end).split(/(?<=\n)/);
  if (lines.length < 2 || !lines.some((line) => TAGGED_LINE.test(line))) return [range];
  const parts: PromptRange[] = [];
  let start = range.start;
  let from = range.start; // where the current run of untagged lines began
  const flush = (to: number) => {
    const end = trimEnd(text, from, to);
    if (end > from) parts.push({ ...range, start: from, contentStart: from === range.start ? range.contentStart : from, end });
  };
  for (const line of lines) {
    if (TAGGED_LINE.test(line)) {
      flush(start);
      from = start;
      flush(start + line.length);
      from = start + line.length;
    }
    start += line.length;
  }
  flush(range.end);
  return parts;
}

/** Pushes `range`, with an opening tag at its start and a closing tag at its end split off. */
function splitEdgeTags(range: PromptRange, text: string, out: PromptRange[]): void {
  const opensWithTag = range.contentStart === range.start && text[range.start] === '<';
  if (range.kind !== 'prose' || !(opensWithTag || text[range.end - 1] === '>')) return void out.push(range);
  const { open, close } = edgeTags(text.slice(range.start, range.end), text);
  if (open === 0 && close === 0) return void out.push(range);
  const innerStart = range.start + open;
  const innerEnd = range.end - close;
  if (open > 0) out.push({ kind: 'markup', start: range.start, contentStart: range.start, end: innerStart });
  const contentFrom = skipSpace(text, innerStart, innerEnd);
  if (contentFrom < innerEnd) {
    const prefixEnd = open > 0 ? contentFrom : range.contentStart;
    out.push({ kind: 'prose', start: open > 0 ? contentFrom : range.start, contentStart: prefixEnd, end: trimEnd(text, contentFrom, innerEnd) });
  }
  if (close > 0) out.push({ kind: 'markup', start: innerEnd, contentStart: innerEnd, end: range.end });
}

const skipSpace = (text: string, from: number, to: number): number => {
  while (from < to && /\s/.test(text[from]!)) from++;
  return from;
};
const trimEnd = (text: string, from: number, to: number): number => {
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  return to;
};

/** What the example search reads: prose lines, blocks that may sit inside an example, and breaks. */
function lineItems(ranges: readonly PromptRange[], text: string): LineItem[] {
  const items: LineItem[] = [];
  let previous: PromptRange | undefined;
  for (const range of ranges) {
    if (range.kind === 'code' || range.kind === 'data' || range.kind === 'table' || range.kind === 'keep') items.push({ kind: 'block', start: range.start, end: range.end });
    else if (range.kind !== 'prose') items.push({ kind: 'break' });
    else {
      // A list item on the line right under a paragraph or item: an answer's next line (see findExamples).
      const goesOn = previous?.kind === 'prose' && !/\n[ \t]*\r?\n/.test(text.slice(previous.end, range.start));
      let start = range.start;
      const lines = text.slice(range.start, range.end).split(/(?<=\n)/);
      lines.forEach((line, i) => {
        const end = start + line.replace(/\r?\n$/, '').length;
        if (end > start) items.push({ kind: 'line', start, end, text: text.slice(start === range.start ? range.start : start, end).trimStart(), newParagraph: i === 0, underPrevious: i === 0 && goesOn });
        start += line.length;
      });
    }
    previous = range;
  }
  return items;
}

/** Every line opens with a few-shot label. */
const isLabelled = (block: string): boolean =>
  block.split(/\r?\n/).every((line) => isExampleLabel(line.trim()) || /^\p{Lu}[\p{L} ]{0,24}[:：](?:\s|$)/u.test(line.trim()));

/**
 * Cuts prose ranges at the spans' edges (spans are line-aligned and start and end in prose). With
 * `example`, each span becomes one example range that swallows the ranges inside it; otherwise the
 * ranges inside a span are marked pinned.
 */
function carve(ranges: PromptRange[], spans: readonly Span[], text: string, example: boolean): PromptRange[] {
  if (spans.length === 0) return ranges;
  const out: PromptRange[] = [];
  const inside = (from: number, to: number) => spans.some((span) => from >= span.start && to <= span.end);
  const emit = (range: PromptRange, from: number, to: number) => {
    const part = from === range.start && to === range.end ? range : trimmedPart(range, from, to, text);
    if (!part) return;
    if (!inside(part.start, part.end)) out.push(part);
    else if (!example) out.push({ ...part, pinned: true });
  };
  let s = 0;
  for (const range of ranges) {
    let cursor = range.start;
    while (s < spans.length && spans[s]!.end <= range.start) s++;
    for (let k = s; k < spans.length && spans[k]!.start < range.end; k++) {
      const span = spans[k]!;
      if (span.start > cursor) emit(range, cursor, span.start);
      if (example && span.start >= range.start) out.push({ kind: 'example', start: span.start, contentStart: span.start, end: span.end });
      if (!example) emit(range, Math.max(cursor, span.start), Math.min(range.end, span.end));
      cursor = Math.max(cursor, Math.min(range.end, span.end));
    }
    if (cursor < range.end) emit(range, cursor, range.end);
  }
  return out;
}

/** The part [from, to) of a prose range, trimmed; only its first part keeps the list marker. */
function trimmedPart(range: PromptRange, from: number, to: number, text: string): PromptRange | null {
  if (range.kind !== 'prose') return range;
  const start = from === range.start ? range.start : skipSpace(text, from, to);
  const end = trimEnd(text, Math.max(start, from === range.start ? range.contentStart : start), to);
  if (end <= start || end <= (from === range.start ? range.contentStart : start)) return null;
  return { ...range, start, contentStart: from === range.start ? range.contentStart : start, end };
}

/** The fence lines of an opened Markdown template pair like tags ("```markdown" … "```"). */
function fenceTag(line: string): TagInfo | undefined {
  if (MARKDOWN_FENCE.test(line)) return { name: '```', closing: false };
  return FENCE_CLOSE.test(line) ? { name: '```', closing: true } : undefined;
}
