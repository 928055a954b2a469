import { estimateTokens, keptSentences, type Doc, type Piece, type Sentence } from '../doc';
import { wordInformation } from '../scoring/information';
import type { Tokenizer } from '../tokenizer';
import { GUARD_PHRASES, GUARD_WORDS, STOPWORDS, terms } from '../text/words';
import { scanWords, type AsciiClasses } from '../text/scan';
import { remeasure, type Pass } from './context';

/** A word pruning may remove: a letter, then letters, apostrophes and hyphens. */
export const PRUNE_WORD = /\p{L}[\p{L}'’-]*/gu;
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
export const PRUNE_WORD_ASCII: AsciiClasses = { start: isAsciiLetter, part: (c) => isAsciiLetter(c) || c === 39 || c === 45 }; // ' -

interface Candidate {
  sentence: Sentence;
  piece: number;
  start: number;
  end: number;
  cost: number;
  saving: number;
}

/**
 * A word between two capitalised words belongs to a name or joins two: "Bank of America", "Tracy
 * Wolfson and Evan Washburn"; so do both words of "of the" there ("Out of the Shadows").
 */
function insideName(text: string, start: number, end: number): boolean {
  const word = text.slice(start, end);
  if (word === 'of') {
    const article = /^\s+(?:the|a|an)(?=\s)/.exec(text.slice(end, end + 5));
    if (article && insideName(text, start, end + article[0].length)) return true;
  } else if (/^(?:the|a|an)$/.test(word) && /\sof\s+$/.test(text.slice(Math.max(0, start - 4), start))) {
    if (insideName(text, text.lastIndexOf('of', start), end)) return true;
  }
  let next = end;
  while (text[next] === ' ') next++;
  if (text[next] === '(') next++;
  if (next === end || !/\p{Lu}/u.test(text[next] ?? '')) return false;
  return /(?:\p{Lu}[\p{L}\p{N}'’.-]*\)?|\))\s+$/u.test(text.slice(Math.max(0, start - 30), start));
}

/** Start and end offsets of the restriction phrases (GUARD_PHRASES) of `text`, in pairs. */
function restrictionSpans(text: string): number[] {
  const spans: number[] = [];
  GUARD_PHRASES.lastIndex = 0;
  for (let m = GUARD_PHRASES.exec(text); m; m = GUARD_PHRASES.exec(text)) spans.push(m.index, m.index + m[0].length);
  return spans;
}

function inSpans(spans: readonly number[], offset: number): boolean {
  for (let i = 0; i < spans.length; i += 2) if (offset >= spans[i]! && offset < spans[i + 1]!) return true;
  return false;
}

/**
 * Pass 6: word-level pruning inside kept sentences, lowest information first (function words before
 * content words), only until the text fits. Never removes protected spans, negations and
 * restrictions, capitalised names, words of the task, or content words of instructions. English only.
 */
export const prune: Pass = {
  name: 'prune',
  lossy: true,
  run(doc, { tokenizer, budget }) {
    if (!doc.english) return;
    let excess = estimateTokens(doc) - budget;
    if (excess <= 0) return;
    const candidates = pruneCandidates(doc, tokenizer);
    candidates.sort((a, b) => a.cost - b.cost);
    const chosen: Candidate[] = [];
    for (const candidate of candidates) {
      if (excess <= 0) break;
      chosen.push(candidate);
      excess -= candidate.saving;
    }
    applyRemovals(chosen, tokenizer);
  },
};

// Tokens a word saves when removed, per encoding: " don't" is one token in o200k_base, two in cl100k_base.
const savingsByEncoding = new Map<string, Map<string, number>>();

// Candidates depend only on a sentence's text, its flags and score, and the task: reuse them between
// select (which plans with them) and prune (which applies them).
const cache = new WeakMap<Sentence, { key: string; candidates: Candidate[] }>();

/** What pruning needs to know about one lower-cased word; the same for every occurrence in a call. */
interface WordFacts {
  /** A negation or restriction, or a word of the task: never pruned. */
  readonly kept: boolean;
  readonly stop: boolean;
  readonly information: number;
}

/** Words that pruning may remove, each with its information cost and token saving. */
export function pruneCandidates(doc: Doc, tokenizer: Tokenizer): Candidate[] {
  const task = new Set(terms(doc.task, true));
  const facts = new Map<string, WordFacts>();
  let savings = savingsByEncoding.get(tokenizer.encoding);
  if (!savings) savingsByEncoding.set(tokenizer.encoding, (savings = new Map()));
  const factsOf = (lower: string): WordFacts => {
    let known = facts.get(lower);
    if (known === undefined) {
      const kept = GUARD_WORDS.has(lower) || (task.size > 0 && terms(lower, true).some((t) => task.has(t)));
      known = { kept, stop: STOPWORDS.has(lower), information: kept ? 0 : wordInformation(lower) };
      facts.set(lower, known);
    }
    return known;
  };
  const candidates: Candidate[] = [];
  for (const sentence of keptSentences(doc)) {
    const key = `${sentence.score}\u0000${doc.task}\u0000${sentence.pieces.map((p) => p.text).join('\u0001')}`;
    const cached = cache.get(sentence);
    if (cached && cached.key === key) {
      for (const c of cached.candidates) candidates.push(c);
      continue;
    }
    const own: Candidate[] = [];
    cache.set(sentence, { key, candidates: own });
    sentence.pieces.forEach((piece, index) => {
      if (piece.locked) return;
      const text = piece.text;
      const restricted = restrictionSpans(text);
      let first = true;
      scanWords(text, PRUNE_WORD, PRUNE_WORD_ASCII, (start, end) => {
        // Only the first word can open the sentence: every later one has a letter before it.
        const sentenceStart = first && index === 0 && /^[\s\p{P}]*$/u.test(text.slice(0, start));
        first = false;
        const word = text.slice(start, end);
        const c = word.charCodeAt(0);
        if (!sentenceStart && (c < 128 ? c >= 65 && c <= 90 : /^\p{Lu}/u.test(word))) return; // a name
        if (inSpans(restricted, start) || insideName(text, start, end)) return; // "at most", "Gods of Egypt"
        const lower = word.toLowerCase();
        const { kept, stop, information } = factsOf(lower);
        if (kept) return;
        // Instructions lose at most their function words: "Never change the API" must not become "Never API".
        if (!stop && (sentence.instruction || sentence.userKept)) return;
        // The word and the boundary around it decide how the sentence reads without it.
        // Words of less important sentences go first (LongLLMLingua's dynamic compression ratio).
        const weight = 0.5 + Math.min(1, sentence.score);
        const cost = ((stop ? 0 : 0.5) + information + (sentenceStart ? 0.05 : 0)) * weight;
        let saving = savings.get(lower);
        if (saving === undefined) {
          saving = tokenizer.count(` ${lower}`);
          savings.set(lower, saving);
        }
        own.push({ sentence, piece: index, start, end, cost, saving });
      });
    });
    for (const c of own) candidates.push(c);
  }
  return candidates;
}

/** Tokens pruning could save in each sentence if it removed every word it may. */
export function prunableShare(candidates: readonly Candidate[]): Map<Sentence, number> {
  const share = new Map<Sentence, number>();
  for (const c of candidates) share.set(c.sentence, (share.get(c.sentence) ?? 0) + c.saving);
  return share;
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
        text = left + right;
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
