import type { Block, Doc, Piece, Sentence } from '../doc';
import { isInstruction } from '../scoring/structure';
import { scanBlocks } from '../text/blocks';
import { findProtectedSpans } from '../text/inline';
import { isEnglish } from '../text/language';
import { sentenceEnds } from '../text/sentences';
import type { CountedText, Tokenizer } from '../tokenizer';

/**
 * Pass 1: parse the prompt into protected blocks (code, data, tables, <keep>, headings, markup) and
 * prose blocks of sentences whose protected inline spans are locked pieces. Lossless: rendering the
 * result gives back the input, except that <keep> markers are dropped.
 */
export function segment(text: string, task: string, tokenizer: Tokenizer, counted: CountedText = tokenizer.countText(text)): Doc {
  const english = isEnglish(text);
  const blocks: Block[] = [];
  let previousEnd = 0;
  for (const range of scanBlocks(text)) {
    const sepBefore = text.slice(previousEnd, range.start);
    previousEnd = range.end;
    if (range.kind === 'prose') {
      const content = text.slice(range.contentStart, range.end);
      blocks.push({
        kind: 'prose', sepBefore, prefix: text.slice(range.start, range.contentStart), body: '',
        sentences: splitSentences(content, english, tokenizer, (from, to) => counted.countSlice(range.contentStart + from, range.contentStart + to)), removed: false, tokens: 0,
      });
    } else {
      const body = range.kind === 'keep' ? unwrapKeep(text.slice(range.start, range.end)) : text.slice(range.start, range.end);
      const tokens = range.kind === 'keep' ? tokenizer.count(body) : counted.countSlice(range.start, range.end);
      blocks.push({ kind: range.kind, sepBefore, prefix: '', body, sentences: [], removed: false, tokens });
    }
  }
  // Trailing line breaks and spaces after the last block are dropped: they carry no meaning.
  return { blocks, english, task, notes: { protectedDropped: false } };
}

function unwrapKeep(raw: string): string {
  return raw.replace(/^\s*<keep>(\r?\n)?/, '').replace(/(\r?\n)?<\/keep>\s*$/, '');
}

const WHITESPACE = /\s/;

/** `countContent(from, to)` counts content.slice(from, to), from the count of the whole text. */
function splitSentences(content: string, english: boolean, tokenizer: Tokenizer, countContent: (from: number, to: number) => number): Sentence[] {
  const spans = findProtectedSpans(content);
  const sentences: Sentence[] = [];
  let start = 0;
  for (const end of sentenceEnds(content, spans)) {
    // The sentence is the range without its surrounding whitespace (what trim() would remove).
    let from = start;
    while (from < end && WHITESPACE.test(content[from]!)) from++;
    let to = end;
    while (to > from && WHITESPACE.test(content[to - 1]!)) to--;
    if (to > from) {
      const pieces = toPieces(content, from, to, spans);
      const text = pieces.length === 1 ? pieces[0]!.text : pieces.map((piece) => piece.text).join('');
      if (sentences.length > 0) sentences[sentences.length - 1]!.sep += content.slice(start, from);
      sentences.push({ pieces, sep: content.slice(to, end), removed: false, tokens: text.length === to - from ? countContent(from, to) : tokenizer.count(text), instruction: english && isInstruction(text), userKept: pieces.some((p) => p.kept), score: 1 });
    } else if (sentences.length > 0) {
      sentences[sentences.length - 1]!.sep += content.slice(start, end);
    }
    start = end;
  }
  return sentences;
}

function toPieces(content: string, from: number, to: number, spans: readonly { start: number; end: number }[]): Piece[] {
  const pieces: Piece[] = [];
  let cursor = from;
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue;
    if (span.start > cursor) pieces.push({ text: content.slice(cursor, span.start), locked: false });
    const raw = content.slice(Math.max(span.start, from), Math.min(span.end, to));
    const kept = raw.startsWith('<keep>') && raw.endsWith('</keep>');
    pieces.push({ text: kept ? raw.slice(6, -7) : raw, locked: true, kept });
    cursor = Math.min(span.end, to);
  }
  if (cursor < to) pieces.push({ text: content.slice(cursor, to), locked: false });
  return pieces;
}
