import { estimateTokens, wordEditable, type Doc, type Piece, type Sentence } from '../doc';
import type { Mode } from '../options';
import type { Tokenizer } from '../tokenizer';
import { MEANING_FREE, negatedBefore } from '../text/words';
import { remeasure, type Pass } from './context';
import { agreeArticle } from '../text/articles';

interface Candidate {
  sentence: Sentence;
  piece: number;
  start: number;
  end: number;
  cost: number;
  saving: number;
}

/**
 * Pass 6: removes meaning-free words — intensifiers, hedges and discourse fillers from a closed list
 * (MEANING_FREE) — from kept sentences, least important sentences first, only until the text fits.
 * Nothing else is ever cut inside a sentence: no preposition, conjunction, quantifier, modal, negation
 * or logic word, no name, nothing in a protected span or an example. English only.
 */
export const prune: Pass = {
  name: 'prune',
  lossy: true,
  run(doc, { tokenizer, budget, mode }) {
    if (!doc.english) return;
    let excess = estimateTokens(doc) - budget;
    if (excess <= 0) return;
    const candidates = pruneCandidates(doc, tokenizer, mode);
    candidates.sort((a, b) => a.cost - b.cost || a.start - b.start);
    const chosen: Candidate[] = [];
    for (const candidate of candidates) {
      if (excess <= 0) break;
      chosen.push(candidate);
      excess -= candidate.saving;
    }
    applyRemovals(chosen, tokenizer);
  },
};

// Tokens a phrase saves when removed, per encoding: " kind of" may be one token in one, two in another.
const savingsByEncoding = new Map<string, Map<string, number>>();

/** The meaning-free words and phrases of kept sentences, each with its cost (sentence score) and saving. */
export function pruneCandidates(doc: Doc, tokenizer: Tokenizer, mode: Mode = 'strict'): Candidate[] {
  let savings = savingsByEncoding.get(tokenizer.encoding);
  if (!savings) savingsByEncoding.set(tokenizer.encoding, (savings = new Map()));
  const candidates: Candidate[] = [];
  for (const sentence of wordEditable(doc, mode)) {
    sentence.pieces.forEach((piece, index) => {
      if (piece.locked) return;
      MEANING_FREE.lastIndex = 0;
      for (let m = MEANING_FREE.exec(piece.text); m; m = MEANING_FREE.exec(piece.text)) {
        if (negatedBefore(piece.text, m.index)) continue; // "not quite ready" is not "not ready"
        const lower = m[0].toLowerCase();
        let saving = savings!.get(lower);
        if (saving === undefined) savings!.set(lower, (saving = tokenizer.count(` ${lower}`)));
        candidates.push({ sentence, piece: index, start: m.index, end: m.index + m[0].length, cost: sentence.score, saving });
      }
    });
  }
  return candidates;
}

function applyRemovals(chosen: Candidate[], tokenizer: Tokenizer): void {
  const byPiece = new Map<Sentence, Map<number, Candidate[]>>();
  for (const c of chosen) {
    const pieces = byPiece.get(c.sentence) ?? new Map<number, Candidate[]>();
    const list = pieces.get(c.piece) ?? [];
    list.push(c);
    pieces.set(c.piece, list);
    byPiece.set(c.sentence, pieces);
  }
  for (const [sentence, pieces] of byPiece) {
    const capitalised = /^\p{Lu}/u.test(sentence.pieces.find((p) => p.text.trim())?.text.trimStart() ?? '');
    for (const [index, list] of pieces) {
      const piece = sentence.pieces[index]!;
      list.sort((a, b) => b.start - a.start);
      let text = piece.text;
      for (const c of list) {
        // Remove the word with one adjoining space, keeping punctuation where it was.
        let left = text.slice(0, c.start);
        let right = text.slice(c.end);
        if (/\s$/.test(left) && /^\p{P}/u.test(right)) left = closeUp(left, right);
        else right = right.replace(/^[ \t]+/, '');
        // "Talib (two interceptions)" without both words leaves no empty brackets.
        if (/\(\s*$/.test(left) && /^\s*\)/.test(right)) (left = left.replace(/\s*\(\s*$/, '')), (right = right.replace(/^\s*\)/, ''));
        text = agreeArticle(left, right) + right;
      }
      piece.text = text;
    }
    tidy(sentence.pieces, capitalised);
    remeasure(sentence, tokenizer);
  }
}

/**
 * The text before a gap, joined to punctuation after it: no space before the punctuation, and one comma
 * rather than two ("injured, however, leading" → "injured, leading").
 */
function closeUp(before: string, after: string): string {
  const trimmed = before.replace(/[ \t]+$/, '');
  return /[,;:]$/.test(trimmed) && /^[,;:]/.test(after) ? trimmed.slice(0, -1) : trimmed;
}

/**
 * Punctuation that removed words leave behind: a space or a second comma before the next piece's
 * punctuation ("Denver's defense|, which" → "Denver's, which"), and an opening comma or small letter
 * where the sentence's first words went ("However, on May 3" → "May 3").
 */
function tidy(pieces: Piece[], capitalised: boolean): void {
  pieces.forEach((piece, index) => {
    const next = pieces[index + 1];
    if (piece.locked) return;
    if (next && /^[,.;:!?)\]]/.test(next.text)) piece.text = closeUp(piece.text, next.text);
  });
  const first = pieces.find((p) => p.text.trim());
  if (!first || first.locked) return;
  first.text = first.text.replace(/^[,;:]+\s*/, '');
  if (capitalised) first.text = first.text.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}
