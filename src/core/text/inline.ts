/**
 * Inline spans that must never be altered: they are kept byte-for-byte or dropped with their whole
 * sentence. Each pattern is one kind of literal a prompt depends on; order does not matter because
 * overlaps resolve to the earliest, then longest, match.
 */
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const NUMBER = '\\d+(?:,\\d{3})*(?:\\.\\d+)?';
const UNIT =
  '(?:ms|µs|ns|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|yrs?|' +
  '[kKMGT]i?B|[kKMGT]b|bytes?|bits?|px|em|rem|pt|dpi|fps|Hz|kHz|MHz|GHz|mm|cm|km|m|mi|miles?|ft|feet|inch(?:es)?|in|' +
  'kg|g|mg|lbs?|oz|l|ml|L|mL|°[CF]?|[kKmMbB]|x|tokens?|words?|characters?|chars|lines?|sentences?|paragraphs?|items?|' +
  'steps?|points?|pages?|rows?|columns?|yards?|times|people|users|requests?|calls?|retries|attempts|[ap]\\.?m\\.?)';

const FILE_EXTENSION = '\\.(?:ts|tsx|js|jsx|mjs|cjs|json|ya?ml|toml|md|py|rb|go|rs|java|kt|cs|cpp|c|h|hpp|sh|sql|html|css|scss|txt|csv|xml|ini|env|lock|png|jpe?g|gif|svg|pdf)\\b';

const DIGIT = /\d/;
const BRACE = /\{/;
const SLASH = /\//;

/**
 * Each pattern with a test it cannot match without, so most patterns skip most prose cheaply.
 * Patterns that share a test are adjacent: the test runs once for them.
 */
const PATTERNS: readonly (readonly [RegExp, RegExp])[] = [
  [/`[^`\n]+`/g, /`/], // inline code
  [/<keep>[\s\S]*?<\/keep>/g, /<keep>/], // user-marked span
  [/\b(?:https?|ftp|file):\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]}]/g, /:\/\//], // URL
  [/\bwww\.[^\s<>"'`]*[^\s<>"'`.,;:!?)\]}]/g, /www\./],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, /@/], // e-mail
  [/\{\{[^{}\n]{1,100}\}\}/g, BRACE], // {{placeholder}}
  [/\{[^{}\n]{1,200}\}/g, BRACE], // {placeholder}, { fill in your text here }
  [/<\/?[A-Za-z_][\w .:-]{0,60}>/g, /</], // <placeholder>, <tag>, </tag>
  [/\$\{?[A-Z_][A-Z0-9_]*\}?/g, /\$/], // $NAME, ${NAME}
  [/\[[A-Z][A-Z0-9 _-]{1,40}\]/g, /\[/], // [PLACEHOLDER]
  [/(?:~|\.{1,2})?(?:\/[\w@+-]+(?:\.[\w@+-]+)*){2,}\/?/g, SLASH], // /unix/path, ./rel/path
  [/\b[A-Za-z]:\\[^\s"'<>|]+/g, /:\\/], // C:\windows\path
  [/\b[\w.-]+\/[\w./-]*\.[A-Za-z]\w{0,7}\b/g, SLASH], // src/file.ts
  [new RegExp(`\\b[\\w-]+${FILE_EXTENSION}`, 'g'), new RegExp(FILE_EXTENSION)], // file.ts
  // A straight quote opens before a non-space and closes after one: '"." (You should …' is no quote.
  [/"(?=\S)[^"\n]{1,200}(?<=\S)"/g, /"/], // quoted literals
  // A long quote is often sample input, kept as written; straight quotes nest ambiguously, so a long one
  // must open before a non-space and close after one, not before a letter.
  [/"(?=\S)[^"\n]{199,1000}(?<=\S)"(?![\p{L}\p{N}])/gu, /"/],
  [/“[^”\n]{1,1000}”/g, /“/],
  [/«[^»\n]{1,1000}»/g, /«/],
  [/„[^“”\n]{1,1000}[“”]/g, /„/],
  [/(?<![\p{L}\p{N}])'[^'\n]{1,120}'(?![\p{L}\p{N}])/gu, /'/],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, DIGIT], // ISO date
  [/\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g, DIGIT], // 05/01/2024
  [new RegExp(`\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?(?:, \\d{4})?\\b`, 'g'), DIGIT], // February 7, 2016
  [new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? ${MONTH}\\.?(?: \\d{4})?\\b`, 'g'), DIGIT], // 7 February 2016
  [/\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?/g, DIGIT], // times
  [/\bv?\d+(?:\.\d+){2,}(?:-[\w.]+)?(?:\+[\w.]+)?\b/g, DIGIT], // 1.2.3 version
  [/\bv\d+(?:\.\d+)?\b/g, DIGIT], // v2, v2.1
  [/[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:[kKmMbB]n?|thousand|million|billion|trillion)\b)?/g, DIGIT], // money
  [new RegExp(`(?<![\\w.\\-/:])[-+−]?${NUMBER}\\s?(?:%|percent\\b|per cent\\b)`, 'g'), DIGIT], // percentages
  [new RegExp(`(?<![\\w.\\-/:])[-+−]?${NUMBER}(?:st|nd|rd|th)?(?:[ -]?${UNIT}\\b)?`, 'g'), DIGIT], // numbers with units
];

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Protected spans of `text`, sorted and non-overlapping. */
export function findProtectedSpans(text: string): Span[] {
  const found: Span[] = [];
  let lastNeed: RegExp | undefined;
  let present = false;
  for (const [pattern, need] of PATTERNS) {
    if (need !== lastNeed) present = need.test(text);
    lastNeed = need;
    if (!present) continue;
    // An exec loop on the shared pattern: matchAll would clone the regex on every call.
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match[0].length > 0) found.push({ start: match.index, end: match.index + match[0].length });
      else pattern.lastIndex++; // never happens with these patterns; guards against a loop
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: Span[] = [];
  let reach = -1;
  for (const span of found) {
    if (span.start >= reach) {
      spans.push(span);
      reach = span.end;
    } else if (span.end > reach) {
      // Partial overlap: merge, so that no protected text is ever split.
      const last = spans[spans.length - 1]!;
      spans[spans.length - 1] = { start: last.start, end: span.end };
      reach = span.end;
    }
  }
  return spans;
}

// Bold or underscore emphasis on one line: "**You read everything. You fix nothing.**".
const EMPHASIS = /\*\*(?=\S)[^*\n]+?\*\*|__(?=\S)[^_\n]+?__/g;
const SPLITS = /[.!?。！？]\s+\S/;
/** How far a bracket may close and still hold its sentences: an unclosed "(" runs to no end. */
const MAX_BRACKETED = 1200;
const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '「': '」', '『': '』', '（': '）' };
const WIDE_SPLITS = /[.!?。！？]/u;
/** A quotation in full-width brackets longer than this is a text of its own sentences (a passage to translate). */
const MAX_WIDE_BRACKETED = 200;

/**
 * `spans` with the emphasis runs and brackets of `text` that hold more than one sentence added, merged
 * and sorted: a sentence never ends inside emphasis or brackets, or dropping its first sentence would
 * leave a lone "**" or "]" ("[Caveat: … Be careful … paste the last few lines].").
 */
export function withUnsplit(text: string, spans: readonly Span[]): Span[] {
  const runs: Span[] = [];
  if (text.includes('**') || text.includes('__')) for (const m of text.matchAll(EMPHASIS)) if (SPLITS.test(m[0])) runs.push({ start: m.index!, end: m.index! + m[0].length });
  // Each bracket from where the last closed one ends: what is nested inside is already held.
  const opening = /[([「『（]/g;
  for (let m = opening.exec(text); m !== null; m = opening.exec(text)) {
    const close = closingBracket(text, m.index);
    if (close === -1) continue;
    // A full-width bracket holds what ends a sentence with no space after it: 「ローマで何を見るべきですか？」です。
    const wide = m[0] !== '(' && m[0] !== '[';
    if (wide ? WIDE_SPLITS.test(text.slice(m.index, close)) && close - m.index <= MAX_WIDE_BRACKETED : SPLITS.test(text.slice(m.index, close))) runs.push({ start: m.index, end: close + 1 });
    opening.lastIndex = close + 1;
  }
  if (runs.length === 0) return [...spans];
  const all = [...spans, ...runs].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of all) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  return merged;
}

/** Where the bracket opened at `open` closes, on the same paragraph and not too far; -1 if it does not. */
function closingBracket(text: string, open: number): number {
  const opener = text[open]!;
  const closer = CLOSERS[opener]!;
  let depth = 0;
  const end = Math.min(text.length, open + MAX_BRACKETED);
  for (let i = open; i < end; i++) {
    const ch = text[i]!;
    if (ch === opener) depth++;
    else if (ch === closer && --depth === 0) return i;
    else if (ch === '\n' && text[i + 1] === '\n') return -1;
  }
  return -1;
}
