import { remeasure, type Pass } from './context';

/**
 * Pass 2: lossless whitespace cleanup of prose and of the gaps between blocks: runs of spaces become
 * one, trailing spaces go, more than one blank line becomes one. Protected text and quoted material
 * (a <document>, a draft in quotation marks) are untouched.
 */
export const cleanup: Pass = {
  name: 'cleanup',
  lossy: false,
  run(doc, { tokenizer }) {
    for (const block of doc.blocks) {
      block.sepBefore = tidyGap(block.sepBefore);
      // Quoted material keeps its spacing: "Invoice No: CF-2024-08817          Invoice Date" lines up
      // columns of an OCR'd invoice.
      if (block.verbatim) continue;
      for (const sentence of block.sentences) {
        let changed = false;
        sentence.pieces.forEach((piece, i) => {
          if (piece.locked) return;
          const tidy = tidyProse(piece.text, i === 0, i === sentence.pieces.length - 1);
          if (tidy !== piece.text) {
            piece.text = tidy;
            changed = true;
          }
        });
        sentence.sep = tidyGap(sentence.sep);
        if (changed) remeasure(sentence, tokenizer);
      }
    }
  },
};

/** Whitespace between units: keeps its line breaks (at most one blank line), drops spaces around them. */
export function tidyGap(gap: string): string {
  if (!/[\r\n]/.test(gap)) return gap === '' ? '' : ' ';
  const eol = gap.includes('\r\n') ? '\r\n' : gap.includes('\n') ? '\n' : '\r';
  const breaks = Math.min(2, gap.split(/\r\n|\n|\r/).length - 1);
  const indent = /[ \t]*$/.exec(gap)?.[0] ?? '';
  return eol.repeat(breaks) + indent;
}

// Every change below needs a space or tab before a space, tab or line break, or at an end: most
// pieces have none and are returned as they are.
const UNTIDY_INSIDE = /[ \t][ \t\r\n]/;
const isSpaceOrTab = (ch: string | undefined) => ch === ' ' || ch === '\t';

function tidyProse(text: string, first: boolean, last: boolean): string {
  if (!UNTIDY_INSIDE.test(text) && !(first && isSpaceOrTab(text[0])) && !(last && isSpaceOrTab(text[text.length - 1]))) return text;
  // Spaces a quotation opens or closes with are part of it: '"  1D "' is a test input, not a typo.
  let tidy = text.replace(/[ \t]+(?=\r?\n)/g, '').replace(/(?<=[^\s"'“”‘’«»])[ \t]{2,}(?![\s"'“”‘’«»])/g, ' ');
  if (first) tidy = tidy.replace(/^[ \t]+/, '');
  if (last) tidy = tidy.replace(/[ \t]+$/, '');
  return tidy;
}

