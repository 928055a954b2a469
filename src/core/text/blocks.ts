import type { BlockKind } from '../doc';
import { BLOCK_RULES, PARAGRAPH_TERMINATORS, blockState, type StateBlock, type Token } from './markdown';

/**
 * Markdown-aware block scanner: splits a prompt into ranges of protected blocks (fenced or indented
 * code, JSON/YAML, tables, <keep>, headings, markup lines) and prose (paragraphs, list items, quotes).
 * Ranges never overlap; the text between two ranges is only line breaks and blank lines.
 *
 * The Markdown structure comes from markdown-it's CommonMark block parser (markdown.ts), stepped one
 * top-level block at a time. Around it, what CommonMark does not know about prompts:
 *
 * - `<keep>…</keep>` spanning whole lines is a 'keep' block; a prose paragraph never ends inside an
 *   open <keep> span.
 * - JSON and YAML starting a block are 'data' (CommonMark would call them paragraphs or lists).
 * - A tag alone on its line (`<rules>`, `</example>`) is a 'markup' block and always ends the block
 *   before it: CommonMark's HTML block would swallow the following lines up to a blank line, and a
 *   tag line cannot interrupt a paragraph. The lines after it are parsed again as Markdown.
 * - An unclosed code fence protects only up to a blank line after which the text stops looking like
 *   code, not the rest of the prompt.
 * - 4-space-indented text that is plainly prose (sentences, no code punctuation) is parsed as
 *   Markdown at that indentation, not taken as code: prompts often indent paragraphs.
 * - A table ends at the first row without a `|` (CommonMark would make a following sentence a row);
 *   two rows led by `|` are a table even without a delimiter row.
 * - A paragraph line starting with `•`, a Japanese `・` or `●`, `a)`/`b.`, or a number that CommonMark
 *   does not take as a list (`2.` after text) starts a new prose block; so does each `>` line of a quote,
 *   so that the quote markers stay in block prefixes, unless it goes on with a sentence the line before
 *   left open (a hard-wrapped quote: see wrapsQuote).
 */
export interface Range {
  kind: BlockKind;
  start: number;
  contentStart: number;
  end: number;
}

/**
 * `opens(start, end)`: whether a closed ```markdown fence over those offsets is read as Markdown inside
 * its two fence lines instead of as one code block (a template too long to keep whole, see segment).
 */
export type FenceOpener = (start: number, end: number) => boolean;

export function* scanBlocks(text: string, opens?: FenceOpener): Generator<Range> {
  yield* new Scanner(text, opens).scan();
}

/** A fence line that opens Markdown: "```markdown", "~~~md". */
export const MARKDOWN_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*(?:markdown|md)[ \t]*$/i;

const BLANK = /^\s*$/;
const TAG_LINE = /^\s*<\/?\p{L}[\p{L}\p{N}_-]*(\s[^<>]*)?>\s*$/u;
// A tag alone on its line, at the start of it: (closing slash)(name).
const LONE_TAG = /^<(\/?)(\p{L}[\p{L}\p{N}_-]*)(?:\s[^<>]*)?>\s*$/u;
const KEEP_OPEN = /^\s*<keep>/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)+\|?\s*$/;
const YAML_LINE = /^(\s*)(?:-\s+)?["']?[\w.\/-]+["']?:(?:\s+(.*))?$/;
/**
 * Quote and list markers in front of a paragraph's first line: the prose block's prefix. After a list
 * marker, `>` needs a space to count (`- >100K users` reads "more than").
 */
const PREFIX = /^(?:[ \t]*>)*(?:[ \t]*(?:>(?=[ \t]|$)|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*(?:(?:•|[a-zA-Z][.)])[ \t]+|[・●][ \t]*)?/;
/** A line inside a paragraph that starts a new prose block (see the module comment). */
const SPLIT = /^[ \t]*(?:>|[・●]\S|(?:•|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+\S)/;
/** A quoted line that opens in lower case, and a line that ends a sentence (see wrapsQuote). */
const QUOTE_WRAP = /^[ \t]*(?:>[ \t]?)+\p{Ll}/u;
const SENTENCE_END = /[.!?:;。！？：；]["'”’»)]*[ \t]*$/u;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})/;
/** A line that can close a fence: backticks or tildes alone. */
export const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** A line that may open a block running past a tag line: a fence or an HTML block of types 1-5, maybe in a list or quote. */
const SPANNER = /^[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*(?:`{3}|~{3}|<[!?]|<(?:pre|script|style|textarea)(?:[\s>]|$))/i;
/** The start of a Markdown structure that ends an unclosed fence's protection after a blank line. */
const STRUCTURE = /^ {0,3}(?:#{1,6}[ \t]|`{3}|~{3}|>|[-*+][ \t]|\d{1,9}[.)][ \t])/;
/** HTML blocks that end at a closing sequence rather than a blank line (CommonMark types 1-5). */
const HTML_CLOSED_BY: readonly (readonly [RegExp, RegExp, BlockKind])[] = [
  [/^<(script|pre|style|textarea)(?=(\s|>|$))/i, /<\/(script|pre|style|textarea)>/i, 'code'],
  [/^<!--/, /-->/, 'markup'],
  [/^<\?/, /\?>/, 'markup'],
  [/^<![A-Za-z]/, />/, 'markup'],
  [/^<!\[CDATA\[/, /\]\]>/, 'markup'],
];
const PYTHON_TRACE = /^[ \t]*Traceback \(most recent call last\):[ \t]*$/;
/** "TypeError: …", "java.lang.NullPointerException: …", "Error: connect ECONNREFUSED": an exception thrown. */
const EXCEPTION_LINE = /^[ \t]*(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Warning)\b:?(?: .*)?$|^[ \t]*Error: /;
/** A frame of a JVM, .NET or JavaScript stack: "    at com.acme.Foo.bar(Foo.java:12)", "    at run (/app/x.js:3:9)". */
const STACK_FRAME = /^[ \t]+at [\w$.<>\[\]`]+.*[(:)\d][ \t]*$/;
/** Tag names of sections that hold code, a diff, a log or a trace, not prose. */
const CODE_TAG = /^(?:diff|patch|code|source_?code|snippet|log|logs|stack_?trace|traceback|terminal|console|shell|bash|sql|json|yaml|html|css)$/;
/** A closing tag alone on its line: "</diff>". */
const CLOSING_TAG_LINE = /^\s*<\/(\p{L}[\p{L}\p{N}_-]*)\s*>\s*$/u;

/** The first of the ascending `lines` after `line`, or -1. */
function firstAfter(lines: readonly number[], line: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (lines[mid]! <= line) low = mid + 1;
    else high = mid;
  }
  return low < lines.length ? lines[low]! : -1;
}
/** A unified diff's header lines: "--- a/file", "+++ b/file", "@@ -40,7 +40,9 @@". */
const DIFF_LINE = /^(?:--- a\/|\+\+\+ b\/|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|diff --git )/;
/** Punctuation and shapes of code, not of English prose. */
const CODE_SIGNAL =
  /[{}[\]<>\\`|=]|;[ \t]*$|->|::|&&|\/\/|\/\*|\$[A-Za-z_{(]|\w\(|\w_\w|^[ \t]*(?:#|@\w|\$ |>>>|(?:def|fn|func|function|class|import|from|return|const|let|var|public|private|static|void|package|using|SELECT|INSERT|UPDATE|DELETE|CREATE|sudo|npm|npx|pip|git|cd|ls|echo|curl|docker)\b)/m;
/** Three or more words ending a sentence. */
const SENTENCE = /[A-Za-z][A-Za-z'’-]*(?:,?[ \t]+["'“(]?[A-Za-z][A-Za-z'’-]*){2,}["'”)]?[.!?](?=["'”)]?(?:\s|$))/;
/** A capital (or digit) first, after a list marker if any. */
const PROSE_START = /^(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?["'“(]?[A-Z0-9]/;

class Scanner {
  private readonly out: Range[] = [];
  private readonly state: StateBlock;
  /** Offsets in `text` where each line starts and ends (without its line break). */
  private readonly starts: readonly number[];
  private readonly ends: readonly number[];
  private readonly hasKeep: boolean;
  private readonly lastKeepClose: number;
  /** "</keep>" lines that close a span opened inside a line of text ("1. item <keep>"): no boundary. */
  private inlineKeepCloses: ReadonlySet<number> = new Set();
  /**
   * Per line, the first line at or after it that ends any block before it (a tag line, <keep>, a
   * table led by `|`), and the first that may open a block running past such a line (see SPANNER).
   * They let a step of markdown-it stop at the next tag line instead of parsing to the end of a long
   * paragraph or list again and again (quadratic on tagged few-shot examples without blank lines).
   */
  private readonly boundaries: Int32Array;
  private readonly spanners: Int32Array;
  /** Last line that could close a fence of backticks / tildes (-1: none), so an unclosed fence is not parsed to the end twice. */
  private readonly lastCloser: { '`': number; '~': number } = { '`': -1, '~': -1 };
  /** First line not yet inside a range. */
  private next = 0;
  /** Thematic breaks since the last heading: an odd count means a `---` opened a quoted text still open. */
  private breaks = 0;
  /**
   * Built on the first tag line: the lines of each closing tag by name, and how many unified-diff lines
   * stand before each line, so that finding a tag pair that holds code costs no scan of the text per tag.
   */
  private tagLines?: { closers: Map<string, number[]>; diffBefore: Int32Array };

  constructor(private readonly text: string, private readonly opens?: FenceOpener) {
    if (text.includes('\r')) {
      // markdown-it splits lines at \n only: it reads a copy with \n breaks (same lines, same line
      // contents), and the offsets of the ranges come from the original text.
      this.state = blockState(text.replace(/\r\n?/g, '\n'));
      const starts = [0];
      const ends: number[] = [];
      const pattern = /\r\n|\n|\r/g;
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        ends.push(m.index);
        starts.push(m.index + m[0].length);
      }
      ends.push(text.length);
      this.starts = starts;
      this.ends = ends;
    } else {
      // markdown-it's own line tables (one more entry, at the end of the text, for the last line break).
      this.state = blockState(text);
      this.starts = this.state.bMarks;
      this.ends = this.state.eMarks;
    }
    this.hasKeep = text.includes('keep>');
    this.lastKeepClose = this.hasKeep ? text.lastIndexOf('</keep>') : -1;
    if (this.hasKeep) this.inlineKeepCloses = inlineKeepCloses(this.state.lineMax, (k) => this.line(k));
    const count = this.state.lineMax + 1;
    this.boundaries = new Int32Array(count + 1).fill(count);
    this.spanners = new Int32Array(count + 1).fill(count);
    for (let k = count - 1; k >= 0; k--) {
      this.boundaries[k] = this.isBoundary(k) ? k : this.boundaries[k + 1]!;
      const c = this.firstChar(k);
      const mayOpen = c === 0x60 || c === 0x7e || c === 0x3c || c === 0x3e || c === 0x2d || c === 0x2a || c === 0x2b || (c >= 0x30 && c <= 0x39);
      this.spanners[k] = mayOpen && SPANNER.test(this.line(k)) ? k : this.spanners[k + 1]!;
      if ((c === 0x60 || c === 0x7e) && this.lastCloser[c === 0x60 ? '`' : '~'] < 0 && FENCE_CLOSE.test(this.line(k))) this.lastCloser[c === 0x60 ? '`' : '~'] = k;
    }
  }

  scan(): Range[] {
    this.run(0, this.state.lineMax);
    this.fill(this.starts.length);
    return this.out;
  }

  /** Line k of the text, without its line break. */
  private readonly line = (k: number): string => this.text.slice(this.starts[k], this.ends[k]);

  /** Top-level blocks of lines [from, to), at the current block indent. */
  private run(from: number, to: number): void {
    for (let i = from; i < to; ) {
      if (i < this.next || this.blank(i)) i++;
      else i = Math.max(i + 1, this.block(i, to));
    }
  }

  /** Scans the block starting at line i; returns the line after it. */
  private block(i: number, to: number): number {
    const t = this.line(i);
    if (KEEP_OPEN.test(t)) {
      const last = this.keepEnd(i);
      if (last >= 0) return this.emit('keep', i, last + 1);
      // Text after </keep> on its line: the span stays inline in a prose paragraph, locked there.
      return this.prose(i, this.paragraphEnd(i, to), to);
    }
    if (TAG_LINE.test(t)) {
      // A tag pair that holds code, a diff or a log ("<diff>", then "--- a/login.go", "-\trow := …") is
      // one block of code between its tag lines: read as Markdown, its "-" and "+" lines were list items.
      const end = this.codeSectionEnd(i, to);
      if (end < 0) return this.emit('markup', i, i + 1);
      this.emit('markup', i, i + 1);
      this.emit('code', i + 1, end);
      return this.emit('markup', end, end + 1);
    }
    // A stack trace pasted without a fence ("Traceback (most recent call last):", "    at com.acme.Foo(Foo.java:12)")
    // is one block of code: read as Markdown, its frames were sentences that selection took apart.
    const trace = this.traceEnd(i, to);
    if (trace >= 0) return this.emit('code', i, trace + 1);
    // A template expression left open at the line's end ("${FOCUS == "All" ?" … ": ""}") is one block to
    // the line that closes it: cut apart, it breaks.
    const expression = t.includes('${') ? this.expressionEnd(i, to) : -1;
    if (expression > i) return this.emit('code', i, expression + 1);
    // A table as the rules before CommonMark saw it (a delimiter row, or rows led by `|`): much faster
    // than markdown-it's table rule, which makes tokens of every cell.
    const table = t.includes('|') ? matchTable(this.line, i, to) : -1;
    if (table >= 0) return this.emit('table', i, table + 1);
    const data = matchJson(this.line, i, to) ?? matchYaml(this.line, i, to) ?? matchProperties(this.line, i, to);
    if (data !== null) return this.emit('data', i, data + 1);
    return this.markdown(i, to);
  }

  /**
   * The line of the closing tag when line i opens a tag pair that holds code: its name says so ("<diff>",
   * "<code>", "<log>", "<traceback>") or its lines are a unified diff. Else -1.
   */
  private codeSectionEnd(i: number, to: number): number {
    const open = LONE_TAG.exec(this.line(i).trim());
    if (!open || open[1] === '/') return -1;
    const name = open[2]!.toLowerCase();
    const { closers, diffBefore } = (this.tagLines ??= this.indexTagLines());
    const end = firstAfter(closers.get(name) ?? [], i);
    if (end < 0 || end >= to || end === i + 1) return -1;
    return CODE_TAG.test(name) || diffBefore[end]! > diffBefore[i + 1]! ? end : -1;
  }

  private indexTagLines(): { closers: Map<string, number[]>; diffBefore: Int32Array } {
    const closers = new Map<string, number[]>();
    const count = this.state.lineMax;
    const diffBefore = new Int32Array(count + 1);
    for (let k = 0; k < count; k++) {
      const line = this.line(k);
      const close = CLOSING_TAG_LINE.exec(line);
      if (close) {
        const name = close[1]!.toLowerCase();
        const lines = closers.get(name);
        if (lines) lines.push(k);
        else closers.set(name, [k]);
      }
      diffBefore[k + 1] = diffBefore[k]! + (DIFF_LINE.test(line) ? 1 : 0);
    }
    return { closers, diffBefore };
  }

  /** The last line of a stack trace that starts at line i, or -1. */
  private traceEnd(i: number, to: number): number {
    const first = this.line(i);
    if (PYTHON_TRACE.test(first)) {
      let k = i + 1;
      while (k < to && /^[ \t]+\S/.test(this.line(k))) k++;
      // The exception that ends it: "TypeError: unsupported format string …".
      return k < to && EXCEPTION_LINE.test(this.line(k)) ? k : k - 1;
    }
    if (!EXCEPTION_LINE.test(first) && !/^Exception in thread /.test(first)) return -1;
    let k = i + 1;
    let frames = 0;
    for (; k < to; k++) {
      const t = this.line(k);
      if (STACK_FRAME.test(t)) frames++;
      else if (!/^(?:Caused by: |\s+\.\.\. \d+ more)/.test(t)) break;
    }
    return frames >= 2 ? k - 1 : -1;
  }

  /** The line that closes the `${…}` expression line i leaves open, or -1 (none open, or none closes it in reach). */
  private expressionEnd(i: number, to: number): number {
    const first = this.line(i);
    let depth = braceDepth(first.slice(first.indexOf('${')));
    if (depth <= 0) return -1;
    for (let k = i + 1; k < Math.min(to, i + MAX_EXPRESSION_LINES); k++) {
      depth += braceDepth(this.line(k));
      if (depth <= 0) return k;
    }
    return -1;
  }

  private markdown(i: number, to: number): number {
    const fence = FENCE_OPEN.exec(this.line(i))?.[1];
    if (fence && this.lastCloser[fence[0] as '`' | '~'] <= i && this.state.sCount[i]! - this.state.blkIndent < 4) return this.fence(i, to, to);
    // Up to the next tag line, unless a fence or a comment before it may run past it.
    const next = this.boundaries[i + 1]!;
    const bounded = next < to && this.spanners[i]! >= next && this.state.sCount[i]! - this.state.blkIndent < 4;
    let tokens = this.step(i, bounded ? next : to);
    let end = this.state.line;
    const first = tokens[0];
    if (!first || end <= i) return this.prose(i, i + 1, to);
    switch (first.type) {
      case 'fence':
        return this.fence(i, end, to);
      case 'code_block':
        return this.indented(i, end, true);
      case 'html_block':
        return this.html(i, end, to);
      case 'hr':
        this.breaks++;
        return this.emit('markup', i, end);
      case 'heading_open':
        return this.heading(first, i, end);
      case 'table_open':
        return this.table(i, end);
      case 'paragraph_open': {
        const cut = this.boundary(i + 1, end);
        return this.prose(i, cut >= 0 ? cut : end, to);
      }
      default: {
        // A list or a blockquote: it ends before a tag line in one of its paragraphs.
        let cut = end;
        for (const token of tokens) {
          if ((token.type === 'paragraph_open' || token.type === 'html_block') && token.map) {
            const k = this.boundary(Math.max(token.map[0], i + 1), Math.min(token.map[1], cut));
            if (k >= 0) cut = k;
          }
        }
        if (cut < end) {
          tokens = this.step(i, cut);
          end = this.state.line;
        }
        this.container(tokens);
        return end;
      }
    }
  }

  /** One markdown-it block from line i: its tokens; `state.line` is the line after it. */
  private step(i: number, to: number): Token[] {
    const state = this.state;
    state.tokens = [];
    state.line = i;
    for (const rule of BLOCK_RULES) if (rule(state, i, to, false)) break;
    return state.tokens;
  }

  /** The leaf blocks inside a list or blockquote. */
  private container(tokens: readonly Token[]): void {
    for (const token of tokens) {
      const map = token.map;
      if (!map) continue;
      const [a, b] = map;
      switch (token.type) {
        case 'paragraph_open':
          this.paragraph(a, b);
          break;
        case 'heading_open':
          this.heading(token, a, b);
          break;
        case 'fence':
          this.emit('code', a, b);
          break;
        case 'code_block':
          this.indented(a, b, false);
          break;
        case 'hr':
          this.emit('markup', a, b);
          break;
        case 'table_open':
          this.table(a, b);
          break;
        case 'html_block': {
          const type = this.htmlType(a);
          if (type) this.emit(type[2], a, b);
          else for (let k = a; k < b; k++) if (TAG_LINE.test(this.line(k).slice(PREFIX.exec(this.line(k))![0].length))) this.emit('markup', k, k + 1);
          // Other lines of the HTML block are text: fill() makes them prose.
          break;
        }
      }
    }
  }

  private heading(token: Token, a: number, b: number): number {
    // A setext underline below several lines is a separator under a paragraph, not a title.
    // So is a `---` under a line after a `---` that opened a quoted text ("---", the letter, "Daniela", "---"):
    // it closes the quote, its last line the signature.
    if ((token.markup === '=' || token.markup === '-') && (b - a > 2 || (token.markup === '-' && this.breaks % 2 === 1))) {
      this.paragraph(a, b - 1);
      this.breaks++;
      return this.emit('markup', b - 1, b);
    }
    this.breaks = 0;
    return this.emit('heading', a, b);
  }

  private table(a: number, b: number): number {
    let end = a + 2;
    while (end < b && this.line(end).includes('|')) end++;
    return this.emit('table', a, end);
  }

  private fence(i: number, end: number, to: number): number {
    if (end < to || this.closesFence(i, end - 1)) {
      if (end - i > 2 && this.opens && MARKDOWN_FENCE.test(this.line(i)) && this.opens(this.starts[i]!, this.ends[end - 1]!)) {
        // A template in Markdown, read as the prompt text it is: its fence lines frame it like a tag pair.
        this.emit('markup', i, i + 1);
        this.run(i + 1, end - 1);
        return this.emit('markup', end - 1, end);
      }
      return this.emit('code', i, end);
    }
    // Unclosed: a prompt is not a document. Protect up to a blank line after which the text does not
    // look like code any more, and parse the rest.
    const closer = this.sectionCloser(i, end);
    if (closer >= 0) end = closer;
    for (let k = i + 1; k < end; k++) {
      if (!this.blank(k)) continue;
      let m = k;
      while (m < end && this.blank(m)) m++;
      if (m < end && !this.looksLikeCode(m, end)) {
        this.emit('code', i, k);
        return k;
      }
      k = m;
    }
    return this.emit('code', i, end);
  }

  /**
   * The line in (i, end) of an unclosed fence that closes a tag section the fence opened in ("</rules>"
   * after "<rules>" above the fence), or -1: the fence was left open by mistake, and the section ends
   * there, not in the code.
   */
  private sectionCloser(i: number, end: number): number {
    const open = new Map<string, number>();
    for (let k = 0; k < i; k++) {
      const tag = LONE_TAG.exec(this.line(k));
      if (tag) open.set(tag[2]!, (open.get(tag[2]!) ?? 0) + (tag[1] ? -1 : 1));
    }
    for (let k = i + 1; k < end; k++) {
      const tag = LONE_TAG.exec(this.line(k));
      if (tag?.[1] && (open.get(tag[2]!) ?? 0) > 0) return k;
    }
    return -1;
  }

  private closesFence(open: number, close: number): boolean {
    if (close <= open) return false;
    const opener = FENCE_OPEN.exec(this.line(open))?.[1];
    const closer = FENCE_CLOSE.exec(this.line(close))?.[1];
    return !!opener && !!closer && closer[0] === opener[0] && closer.length >= opener.length;
  }

  /** Whether the lines from m up to a blank line continue code after a blank line in an unclosed fence. */
  private looksLikeCode(m: number, end: number): boolean {
    const first = this.line(m);
    if (STRUCTURE.test(first) || TAG_LINE.test(first)) return false;
    return /^[ \t]/.test(first) || CODE_SIGNAL.test(this.chunkText(m, this.chunkEnd(m, end)));
  }

  /**
   * Indented code [a, b), by runs of lines between blank lines: a run that is plainly prose is text.
   * At top level it is parsed again as Markdown at its indentation (it may be a list); inside a
   * container it becomes prose blocks.
   */
  private indented(a: number, b: number, topLevel: boolean): number {
    let codeStart = -1;
    let codeEnd = -1;
    for (let k = a; k < b; ) {
      if (this.blank(k)) {
        k++;
        continue;
      }
      const chunkEnd = this.chunkEnd(k, b);
      if (this.isPlainProse(k, chunkEnd)) {
        if (codeStart >= 0) this.emit('code', codeStart, codeEnd);
        codeStart = -1;
        if (topLevel) {
          const state = this.state;
          const saved = state.blkIndent;
          let indent = Infinity;
          for (let j = k; j < chunkEnd; j++) indent = Math.min(indent, state.sCount[j]!);
          state.blkIndent = indent;
          this.run(k, chunkEnd);
          state.blkIndent = saved;
        } else {
          this.paragraph(k, chunkEnd);
        }
      } else {
        if (codeStart < 0) codeStart = k;
        codeEnd = chunkEnd;
      }
      k = chunkEnd;
    }
    if (codeStart >= 0) this.emit('code', codeStart, codeEnd);
    return b;
  }

  private isPlainProse(a: number, b: number): boolean {
    const text = this.chunkText(a, b);
    return PROSE_START.test(text) && !CODE_SIGNAL.test(text) && SENTENCE.test(text);
  }

  /** Lines [a, b) without indentation or container markers. */
  private chunkText(a: number, b: number): string {
    let text = '';
    for (let k = a; k < b; k++) text += (k > a ? '\n' : '') + this.line(k).replace(/^[ \t>]*/, '');
    return text;
  }

  private chunkEnd(k: number, b: number): number {
    while (k < b && !this.blank(k)) k++;
    return k;
  }

  /** A top-level HTML block whose first line is not a tag line alone. */
  private html(i: number, end: number, to: number): number {
    const type = this.htmlType(i);
    if (!type) return this.prose(i, this.paragraphEnd(i, to), to); // `<p>Some text</p>`: text
    const [, close, kind] = type;
    if (end < to || close.test(this.line(end - 1))) return this.emit(kind, i, end);
    // Unclosed comment or <pre>: like an unclosed fence, it does not swallow the rest of the prompt.
    const blank = this.chunkEnd(i, end);
    this.emit(kind, i, blank);
    return blank;
  }

  private htmlType(line: number): (typeof HTML_CLOSED_BY)[number] | undefined {
    const t = this.line(line);
    return HTML_CLOSED_BY.find(([open]) => open.test(t.slice(PREFIX.exec(t)![0].length)));
  }

  /** Where a paragraph starting at line i ends, when markdown-it did not start it (a <keep> or HTML line). */
  private paragraphEnd(i: number, to: number): number {
    const state = this.state;
    const saved = state.parentType;
    state.parentType = 'paragraph';
    let k = i + 1;
    for (; k < to; k++) {
      if (this.blank(k) || this.isBoundary(k) || state.sCount[k]! < state.blkIndent) break;
      if (state.sCount[k]! - state.blkIndent > 3) continue;
      if (PARAGRAPH_TERMINATORS.some((rule) => rule(state, k, to, true))) break;
    }
    state.parentType = saved;
    return k;
  }

  /** The first line in [from, to) that ends any block before it (a tag line, <keep>, a `|` table), or -1. */
  private boundary(from: number, to: number): number {
    const k = this.boundaries[from]!;
    return k < to ? k : -1;
  }

  private isBoundary(k: number): boolean {
    const c = this.firstChar(k);
    if (c === 0x3c) {
      const t = this.line(k);
      return (TAG_LINE.test(t) && !this.inlineKeepCloses.has(k)) || KEEP_OPEN.test(t);
    }
    return c === 0x7c && startsTable(this.line, k, this.state.lineMax);
  }

  /** A top-level paragraph [a, b): it does not end inside an open <keep> span. */
  private prose(a: number, b: number, to: number): number {
    let end = b;
    if (this.hasKeep) {
      let open = 0;
      for (let k = a; k < b; k++) open += keepBalance(this.line(k));
      while (open > 0 && end < to && this.lastKeepClose >= this.starts[end]!) open += keepBalance(this.line(end++));
    }
    this.paragraph(a, end);
    return end;
  }

  /** Prose blocks of paragraph lines [a, b), split where a line starts a new item or quote line. */
  private paragraph(a: number, b: number): void {
    let start = a;
    let open = this.hasKeep ? keepBalance(this.line(a)) : 0;
    for (let k = a + 1; k < b; k++) {
      if (open <= 0 && this.maySplit(k) && SPLIT.test(this.line(k)) && !this.wrapsQuote(k)) {
        this.emit('prose', start, k);
        start = k;
      }
      if (this.hasKeep) open += keepBalance(this.line(k));
    }
    this.emit('prose', start, b);
  }

  private keepEnd(i: number): number {
    const close = this.text.indexOf('</keep>', this.starts[i]);
    if (close < 0) return -1;
    for (let j = i; j < this.starts.length; j++) {
      if (close >= this.starts[j]! && close <= this.ends[j]!) return BLANK.test(this.text.slice(close + 7, this.ends[j])) ? j : -1;
    }
    return -1;
  }

  private blank(k: number): boolean {
    const state = this.state;
    const pos = state.bMarks[k]! + state.tShift[k]!;
    if (pos >= state.eMarks[k]!) return true; // spaces and tabs only
    const c = state.src.charCodeAt(pos);
    return c <= 32 || c === 0xa0 || c >= 0x1680 ? BLANK.test(this.line(k)) : false;
  }

  /** Code of the first character after spaces and tabs on line k (NaN on an empty line). */
  private firstChar(k: number): number {
    const state = this.state;
    return state.src.charCodeAt(state.bMarks[k]! + state.tShift[k]!);
  }

  /**
   * A quoted line that goes on with the sentence the line before left open ("> The outage lasted 2 hours and
   * was", "> caused by a failed failover."): a hard-wrapped paragraph of the quote, not a line of its own.
   */
  private wrapsQuote(k: number): boolean {
    return QUOTE_WRAP.test(this.line(k)) && !SENTENCE_END.test(this.line(k - 1));
  }

  /** Cheap test before SPLIT: `>`, `•`, a Japanese `・` or `●`, or a one-character marker before `.`/`)`, or digits. */
  private maySplit(k: number): boolean {
    const c = this.firstChar(k);
    if (c === 0x3e || c === 0x2022 || c === 0x30fb || c === 0x25cf || (c >= 0x30 && c <= 0x39)) return true;
    const d = this.state.src.charCodeAt(this.state.bMarks[k]! + this.state.tShift[k]! + 1);
    return d === 0x2e || d === 0x29;
  }

  /** Adds a range for lines [a, b) (blank lines at its ends left out) and returns b. */
  private emit(kind: BlockKind, a: number, b: number): number {
    if (a < this.next) a = this.next;
    this.fill(a);
    while (a < b && this.blank(a)) a++;
    let last = b - 1;
    while (last >= a && this.blank(last)) last--;
    if (last < a) return b;
    this.push(kind, a, last + 1);
    return b;
  }

  /** Lines before `upTo` that no block took (an empty list item `-`, text in an HTML block): prose or markup. */
  private fill(upTo: number): void {
    for (let k = this.next; k < upTo; k++) if (!this.blank(k)) this.push('prose', k, k + 1);
  }

  private push(kind: BlockKind, a: number, b: number): void {
    const start = this.starts[a]!;
    let contentStart = start;
    if (kind === 'prose') {
      const first = this.line(a);
      const prefix = PREFIX.exec(first)![0].length;
      if (b - a === 1 && prefix === first.trimEnd().length) kind = 'markup'; // a marker alone: `-`, `>`
      else contentStart += prefix;
    }
    this.out.push({ kind, start, contentStart, end: this.ends[b - 1]! });
    this.next = b;
  }
}

/** The lines "</keep>" alone that close a <keep> opened inside a line of text, not at its start. */
function inlineKeepCloses(lines: number, line: LineAt): Set<number> {
  const closes = new Set<number>();
  let open = 0;
  for (let k = 0; k < lines; k++) {
    const t = line(k);
    if (!t.includes('keep>')) continue;
    if (open > 0 && TAG_LINE.test(t) && /<\/keep>/.test(t)) {
      closes.add(k);
      open--;
      continue;
    }
    if (KEEP_OPEN.test(t) || /^\s*\|/.test(t)) continue; // a <keep> block of its own lines; a table row
    open = Math.max(0, open + keepBalance(t));
  }
  return closes;
}

function keepBalance(line: string): number {
  if (!line.includes('keep>')) return 0;
  return (line.match(/<keep>/g)?.length ?? 0) - (line.match(/<\/keep>/g)?.length ?? 0);
}

/** Rows led by `|`, or any row with a `|` above a delimiter row: a table up to the last row with a `|`. */
type LineAt = (k: number) => string;

function startsTable(line: LineAt, i: number, to: number): boolean {
  const t = line(i);
  if (!t.includes('|') || i + 1 >= to) return false;
  const next = line(i + 1);
  return TABLE_SEPARATOR.test(next) || (t.trimStart().startsWith('|') && next.trimStart().startsWith('|'));
}

function matchTable(line: LineAt, i: number, to: number): number {
  if (!startsTable(line, i, to)) return -1;
  let j = i + 1;
  while (j + 1 < to && line(j + 1).includes('|') && !BLANK.test(line(j + 1))) j++;
  return j;
}

function matchJson(lineAt: LineAt, i: number, to: number): number | null {
  const first = lineAt(i).trim();
  if (!/^[[{]/.test(first)) return null;
  let depth = 0;
  let inString = false;
  let text = '';
  for (let j = i; j < to && j < i + 5000; j++) {
    const line = lineAt(j);
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

/** "invoice.create.button = Create invoice", "API_URL=https://…": a key and its value on each line (.properties, .env, INI). */
const PROPERTY_LINE = /^\s*[A-Za-z_][\w.-]*\s*=(?!=)\s*\S/;

/** Lines of `key = value` pairs from line i (three or more): one block of data, never cut inside a value. */
function matchProperties(line: LineAt, i: number, to: number): number | null {
  let j = i;
  while (j < to && PROPERTY_LINE.test(line(j))) j++;
  return j - i >= 3 ? j - 1 : null;
}

function matchYaml(line: LineAt, i: number, to: number): number | null {
  if (!YAML_LINE.test(line(i))) return null;
  let j = i;
  let nested = false;
  let shortValues = true;
  for (; j < to; j++) {
    const t = line(j);
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

/** How far a `${…}` expression may run before it is taken for no expression at all. */
const MAX_EXPRESSION_LINES = 200;

/** Opening minus closing braces of a line. */
function braceDepth(line: string): number {
  let depth = 0;
  for (let k = 0; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === 0x7b) depth++;
    else if (c === 0x7d) depth--;
  }
  return depth;
}
