import { REWRITES } from '../data/rewrites';
import type { Piece } from '../doc';
import { remeasure, type Pass } from './context';

const key = (phrase: string): string => phrase.toLowerCase().replace(/\s+/g, ' ').replace(/[’]/g, "'").replace(/,$/, '');

const REPLACEMENTS = new Map(REWRITES.map(([from, to]) => [key(from), to]));

// One alternation, longest phrase first, so "in order to make sure that" wins over "in order to".
const PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}'’-])(?:${[...REWRITES]
    .map(([from]) => from)
    .sort((a, b) => b.length - a.length)
    .map((from) => from.replace(/,$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]").replace(/ /g, '\\s+'))
    .join('|')})(?![\\p{L}\\p{N}'’-])`,
  'giu',
);

/**
 * Pass 3: rewrites wordy phrases with the curated dictionary, in free (unprotected) text of English
 * prose only. Keeps the case of the first letter and the punctuation around each phrase.
 */
export const rewrite: Pass = {
  name: 'rewrite',
  lossy: false,
  run(doc, { tokenizer }) {
    if (!doc.english) return;
    for (const block of doc.blocks) {
      if (block.kind !== 'prose') continue;
      for (const sentence of block.sentences) {
        let changed = false;
        sentence.pieces.forEach((piece, i) => {
          if (piece.locked) return;
          const next = rewritePiece(piece, i === 0);
          if (next !== piece.text) {
            piece.text = next;
            changed = true;
          }
        });
        if (changed) remeasure(sentence, tokenizer);
      }
    }
  },
};

/** Rewrites one free piece; `opensSentence` tells whether offset 0 is the start of its sentence. */
export function rewritePiece(piece: Piece, opensSentence: boolean): string {
  const text = piece.text;
  let out = '';
  let cursor = 0;
  PATTERN.lastIndex = 0;
  for (const match of text.matchAll(PATTERN)) {
    const start = match.index;
    const atStart = opensSentence && /^[\s*_"'“(\[-]*$/.test(text.slice(0, start)) || /[.!?:]\s+[*_"'“(\[]*$/.test(text.slice(0, start));
    const replacement = REPLACEMENTS.get(key(match[0]));
    if (replacement === undefined) continue;
    if (replacement.endsWith(':') && !atStart) continue;
    let end = start + match[0].length;
    out += text.slice(cursor, start);
    if (replacement === '') {
      end = skipFollowingComma(text, end);
      if (!atStart) out = out.replace(/[ \t]+$/, end < text.length && /[,.;:!?)]/.test(text[end]!) ? '' : ' ');
      else out = out.replace(/[ \t]+$/, /[.!?:;,][ \t]+$/.test(out) ? ' ' : ''); // "Note: please do" → "Note: Do"
      if (atStart && end < text.length) {
        out += text[end]!.toUpperCase();
        end++;
      }
    } else {
      out += matchCase(match[0], replacement);
      if (replacement.endsWith(':')) end = skipFollowingComma(text, end);
      if (replacement.endsWith(':') && !/^\s/.test(text.slice(end))) out += ' ';
    }
    cursor = end;
  }
  if (cursor === 0) return text;
  out += text.slice(cursor);
  return out.replace(/(?<=\S) {2,}/g, ' ').replace(/ +([,;.!?])/g, '$1').replace(/,\s*,/g, ',');
}

function skipFollowingComma(text: string, end: number): number {
  const after = /^,?[ \t]*/.exec(text.slice(end))![0];
  return end + after.length;
}

function matchCase(source: string, replacement: string): string {
  if (source.length > 1 && source === source.toUpperCase() && /\p{L}/u.test(source)) return replacement.toUpperCase();
  if (/^\p{Lu}/u.test(source)) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}
