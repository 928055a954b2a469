import { CONTRACTIONS, COURTESY, OPENERS, REWRITES } from '../data/rewrites';
import type { Piece } from '../doc';
import { remeasure, type Pass } from './context';

const fold = (word: string): string => word.toLowerCase().replace(/’/g, "'");

interface Phrase {
  readonly words: readonly string[];
  readonly length: number;
  readonly replacement: string;
  /** Where else the phrase must stand: before another word (contractions), or opening a sentence. */
  readonly only?: 'beforeWord' | 'opening';
}

// After an opener these words are not the verb of an instruction: "You should have received…".
const NOT_A_VERB = new Set(['have', 'had', 'has', 'not']);

type Dictionary = ReadonlyMap<string, readonly Phrase[]>;

// Phrases indexed by their first word, longest first, so "in order to make sure that" wins over
// "in order to" — one map lookup per word instead of a 270-branch regex at every position.
function indexByFirstWord(entries: readonly (readonly [string, string, Phrase['only']])[]): Dictionary {
  const index = new Map<string, Phrase[]>();
  for (const [from, to, only] of entries) {
    const words = from.replace(/,$/, '').split(' ').map(fold);
    const list = index.get(words[0]!) ?? [];
    list.push({ words, length: from.length, replacement: to, only });
    index.set(words[0]!, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.length - a.length);
  return index;
}

// Hedges go first so they cannot hide a longer phrase: "it would be really great if you could" must
// not lose "if you could please" before "really" is gone. Requests ("please", "kindly") are phrases.
const HEDGES = indexByFirstWord(REWRITES.filter(([from, to]) => to === '' && !/\s|please|kindly/.test(from)).map(([from, to]) => [from, to, undefined] as const));
const PHRASES = indexByFirstWord([
  ...REWRITES.map(([from, to]) => [from, to, undefined] as const),
  ...OPENERS.map(([from, to]) => [from, to, 'opening'] as const),
]);
// Contractions run last, once the phrases are stable: "I would" must not become "I'd" before
// "what I would like you to do" has had its chance.
const CONTRACTED = indexByFirstWord(CONTRACTIONS.map(([from, to]) => [from, to, 'beforeWord'] as const));

const WORD = /[\p{L}\p{N}'’-]+/gu;

interface Match {
  readonly index: number;
  readonly text: string;
  readonly replacement: string;
  readonly opening: boolean;
}

/** Dictionary phrases in `text`, left to right, as whole words separated by whitespace. */
function findPhrases(text: string, dictionary: Dictionary): Match[] {
  const words = [...text.matchAll(WORD)];
  const matches: Match[] = [];
  for (let i = 0; i < words.length; i++) {
    const candidates = dictionary.get(fold(words[i]![0]));
    if (!candidates) continue;
    const phrase = candidates.find((candidate) => phraseAt(text, words, i, candidate));
    if (!phrase) continue;
    const last = words[i + phrase.words.length - 1]!;
    const index = words[i]!.index;
    matches.push({ index, text: text.slice(index, last.index + last[0].length), replacement: phrase.replacement, opening: phrase.only === 'opening' });
    i += phrase.words.length - 1;
  }
  return matches;
}

/** Whether `phrase` starts at word `i`: its words in order, separated by whitespace only. */
function phraseAt(text: string, words: RegExpMatchArray[], i: number, phrase: Phrase): boolean {
  const n = phrase.words.length;
  for (let k = 0; k < n; k++) {
    const word = words[i + k];
    if (!word || fold(word[0]) !== phrase.words[k]) return false;
    if (k > 0 && !spaceBetween(text, words[i + k - 1]!, word)) return false;
  }
  if (!phrase.only) return true;
  const next = words[i + n];
  if (next === undefined || !spaceBetween(text, words[i + n - 1]!, next)) return false;
  return phrase.only === 'beforeWord' || !NOT_A_VERB.has(fold(next[0]));
}

const spaceBetween = (text: string, previous: RegExpMatchArray, next: RegExpMatchArray): boolean =>
  /^\s+$/.test(text.slice(previous.index! + previous[0].length, next.index));

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
          const before = piece.text;
          piece.text = rewritePiece(piece.text, i === 0, HEDGES);
          for (let round = 0; round < 3; round++) {
            const next = rewritePiece(piece.text, i === 0, PHRASES);
            if (next === piece.text) break;
            piece.text = next;
          }
          piece.text = rewritePiece(piece.text, i === 0, CONTRACTED);
          if (piece.text !== before) changed = true;
        });
        if (changed && isCourtesy(sentence.pieces)) sentence.removed = true;
        else if (changed) remeasure(sentence, tokenizer);
      }
    }
  },
};

/** Rewrites the text of one free piece; `opensSentence` tells whether offset 0 starts its sentence. */
function rewritePiece(text: string, opensSentence: boolean, dictionary: Dictionary): string {
  let out = '';
  let cursor = 0;
  // After removing a sentence's opening words, the next letter written opens it: "please take" → "Take".
  let capitalize = false;
  const emit = (chunk: string) => {
    if (capitalize && chunk !== '') {
      chunk = chunk.charAt(0).toUpperCase() + chunk.slice(1);
      capitalize = false;
    }
    out += chunk;
  };
  for (const match of findPhrases(text, dictionary)) {
    const start = match.index;
    const atStart = opensSentenceAt(text, start, opensSentence) || (capitalize && text.slice(cursor, start).trim() === '');
    const replacement = match.replacement;
    if ((replacement.endsWith(':') || match.opening) && !atStart) continue;
    let end = start + match.text.length;
    emit(text.slice(cursor, start));
    if (replacement === '') {
      end = skipFollowingComma(text, end);
      if (!atStart) out = out.replace(/[ \t]+$/, end < text.length && /[,.;:!?)]/.test(text[end]!) ? '' : ' ');
      else out = out.replace(/[ \t]+$/, /[.!?:;,][ \t]+$/.test(out) ? ' ' : ''); // "Note: please do" → "Note: Do"
      if (atStart) capitalize = true;
    } else {
      emit(matchCase(match.text, replacement));
      if (replacement.endsWith(':')) end = skipFollowingComma(text, end);
      if (replacement.endsWith(':') && !/^\s/.test(text.slice(end))) out += ' ';
    }
    cursor = end;
  }
  if (cursor === 0) return text;
  emit(text.slice(cursor));
  return out.replace(/(?<=\S) {2,}/g, ' ').replace(/ +([,;.!?])/g, '$1').replace(/,\s*,/g, ',').replace(/,(\s*[.;:!?])/g, '$1');
}

/** Whether offset `index` of a piece starts a sentence (or follows a colon), past opening marks. */
export function opensSentenceAt(text: string, index: number, pieceOpensSentence: boolean): boolean {
  const before = text.slice(0, index);
  return (pieceOpensSentence && /^[\s*_"'“(\[-]*$/.test(before)) || /[.!?:]\s+[*_"'“(\[]*$/.test(before);
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
