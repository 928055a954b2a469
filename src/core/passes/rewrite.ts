import { COURTESY } from '../data/rewrites';
import type { Piece } from '../doc';
import { findPhrases } from '../text/phrases';
import { remeasure, type Pass } from './context';

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
        if (isCourtesy(sentence.pieces)) {
          sentence.removed = true;
          continue;
        }
        let changed = false;
        sentence.pieces.forEach((piece, i) => {
          if (piece.locked) return;
          // Again until stable: removing "really" can complete "it would be great if you could".
          for (let round = 0; round < 3; round++) {
            const next = rewritePiece(piece, i === 0);
            if (next === piece.text) break;
            piece.text = next;
            changed = true;
          }
        });
        if (changed && isCourtesy(sentence.pieces)) sentence.removed = true;
        else if (changed) remeasure(sentence, tokenizer);
      }
    }
  },
};

/** Rewrites one free piece; `opensSentence` tells whether offset 0 is the start of its sentence. */
export function rewritePiece(piece: Piece, opensSentence: boolean): string {
  const text = piece.text;
  let out = '';
  let cursor = 0;
  for (const match of findPhrases(text)) {
    const start = match.index;
    const atStart = opensSentence && /^[\s*_"'“(\[-]*$/.test(text.slice(0, start)) || /[.!?:]\s+[*_"'“(\[]*$/.test(text.slice(0, start));
    const replacement = match.replacement;
    if (replacement.endsWith(':') && !atStart) continue;
    let end = start + match.text.length;
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
      out += matchCase(match.text, replacement);
      if (replacement.endsWith(':')) end = skipFollowingComma(text, end);
      if (replacement.endsWith(':') && !/^\s/.test(text.slice(end))) out += ' ';
    }
    cursor = end;
  }
  if (cursor === 0) return text;
  out += text.slice(cursor);
  return out.replace(/(?<=\S) {2,}/g, ' ').replace(/ +([,;.!?])/g, '$1').replace(/,\s*,/g, ',').replace(/,(\s*[.;:!?])/g, '$1');
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

function isCourtesy(pieces: readonly Piece[]): boolean {
  return pieces.length === 1 && !pieces[0]!.locked && COURTESY.test(pieces[0]!.text.trim());
}
