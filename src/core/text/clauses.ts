import type { Piece } from '../doc';
import { STOPWORDS } from './words';

/**
 * Clauses of an English sentence, so that selection can keep the part of a long sentence that matters
 * and drop the rest. Cuts fall only in free text, outside brackets, before a separator that opens a
 * clause: "; ", a spaced dash, or ", " followed by a conjunction, a relative or subordinating word, or
 * an -ing participle. Lists ("A, B, and C") and restrictions ("…, unless …") are never cut.
 */
export interface Clause {
  /** Where the clause starts (its separator included): piece index and offset in that piece. */
  readonly piece: number;
  readonly offset: number;
  /** Kept only with the clause before it (relative clauses, participles, a conjunction without subject). */
  readonly dependent: boolean;
  /** Characters of the clause, for sharing the sentence's cost among its clauses. */
  length: number;
}

// ", and the …" can stand alone once the conjunction goes; ", and charged …" needs its subject.
const COORDINATING = /^(?:and|but|yet|so|or)\s+(?:the|a|an|this|that|these|those|it|its|they|their|he|his|she|her|we|our|i|there|\p{Lu}|\p{N})/u;
const CONJUNCTION = /^(?:and|but|yet|so|or)\s/;
const DEPENDENT = /^(?:which|who|whom|whose|where|when|while|whereas|although|though|because|since|as|after|before|until|including|with|according)\s/;
const PARTICIPLE = /^\p{Ll}+ing\s/u;
// A comma splice: ", I will send a topic, you have to generate …" — a subject and its verb start a
// sentence of their own after the comma (a list of names or things has no "you have").
const SPLICE = /^(?:(?:[Ii]|you|we|they)(?:\s+(?:will|would|can|could|should|must|may|might|shall|have|need|want|are|am|do|don't|don’t)|['’](?:ll|re|m|d|ve))|(?:the|this|each|every|your)\s+(?:[\p{L}-]+\s+){1,2}(?:will|should|must|shall|may|can|cannot|has to|needs to))\s/u;
/** Words whose clause restricts what precedes it: dropping it would change the meaning. */
const RESTRICTIVE = /^(?:unless|except|only|if|not|but not|provided|without)\b/;
const MIN_WORDS = 3;
const SEPARATOR = /[,;—–]/;
const isSpace = (ch: string): boolean => ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\u00a0' || (ch > '\u007f' && /\s/.test(ch));

/** The clauses of a sentence in order; the first starts at piece 0, offset 0. One clause: no cut found. */
export function splitClauses(pieces: readonly Piece[]): Clause[] {
  const clauses: Clause[] = [{ piece: 0, offset: 0, dependent: false, length: 0 }];
  let bareCommas = 0; // commas inside the current clause that were not cuts: a list is running
  const parallel = parallelClause(pieces);
  // "Act as a prompt enhancer that takes …": the role is named before its relative clause, which
  // describes it and comes only with it.
  const role = pieces[0]!.locked ? null : ROLE_RELATIVE.exec(pieces[0]!.text);
  if (role) clauses.push({ piece: 0, offset: role[0].length, dependent: true, length: 0 });
  // Most sentences have no separator at all: one clause (or the role and its description), without the scan.
  if (!parallel && !pieces.some((piece) => !piece.locked && SEPARATOR.test(piece.text))) {
    measure(pieces, clauses);
    return clauses;
  }
  // "…, and — when they are interested — get them to …": a pair of dashes holds an aside inside its
  // clause; neither dash cuts.
  let pairedDash = false;
  scanFree(pieces, (text, i, index, scan) => {
    const ch = text[i]!;
    if (scan.depth > 0) return;
    if ((ch === '—' || ch === '–') && text[i - 1] === ' ' && (pairedDash || SPACED_DASH.test(text.slice(i + 1)))) {
      pairedDash = !pairedDash;
      return;
    }
    let cut = cutAt(text, i, bareCommas > 0, parallel);
    // "When I enter the keyword REVIEW, you will …": the clause before a splice must stand alone.
    if (cut === 'splice') cut = FRONTED.test(clauseOpening(pieces, clauses.at(-1)!)) ? null : 'independent';
    // "My first request – "Something light …"": a label and the quotation it introduces are one clause.
    if (cut !== null && (ch === '—' || ch === '–') && QUOTE_OPENS.test(text.slice(i + 1) + (pieces[index + 1]?.text ?? ''))) cut = null;
    if (cut === null || scan.wordsSince < MIN_WORDS || wordsAfter(pieces, index, i) < MIN_WORDS) {
      if (ch === ',') bareCommas++;
      return;
    }
    if (embeddedRelative(clauses, pieces, offsetOf(pieces, { piece: index, offset: i }))) clauses.pop();
    clauses.push({ piece: index, offset: i, dependent: cut === 'dependent', length: 0 });
    bareCommas = 0;
    scan.wordsSince = 0;
  });
  if (embeddedRelative(clauses, pieces, Infinity)) clauses.pop();
  measure(pieces, clauses);
  return clauses;
}

// A role and the relative clause that describes it: "I want you to act as a composer who …".
const ROLE_RELATIVE = /^[^\p{L}]*(?:i want you to |please )?act (?:as|like) (?:an? |the )?[^,;:.()"“]{2,60}?(?= (?:who|that|which) )/iu;

// A clause that opens on a condition, a time or an example needs the clause after it.
const FRONTED = /^[\s,;—–]*(?:if|when|whenever|once|after|before|as|because|since|while|although|though|unless|until|for example|for instance|e\.g\.)(?![\p{L}])/iu;

/** The first words of a clause (for FRONTED). */
function clauseOpening(pieces: readonly Piece[], clause: Clause): string {
  return pieces.slice(clause.piece).map((p, k) => (k === 0 ? p.text.slice(clause.offset) : p.text)).join('').slice(0, 20);
}

/** Where the scan of a sentence's free text is: bracket depth, inside quotation marks, words since the last cut. */
interface Scan {
  depth: number;
  quoted: boolean;
  wordsSince: number;
}

/** Calls `visit` at each character of free text, with the scan state updated for it; a locked piece counts as a word. */
function scanFree(pieces: readonly Piece[], visit: (text: string, i: number, piece: number, scan: Scan) => void): void {
  const scan: Scan = { depth: 0, quoted: false, wordsSince: 0 };
  pieces.forEach((piece, index) => {
    if (piece.locked) {
      scan.wordsSince += 1;
      return;
    }
    const text = piece.text;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '(' || ch === '[') scan.depth++;
      else if ((ch === ')' || ch === ']') && scan.depth > 0) scan.depth--;
      else if (ch === '"' || ch === '“' || ch === '”' || ch === '«' || ch === '»') scan.quoted = ch === '"' ? !scan.quoted : ch === '“' || ch === '«';
      if (isSpace(ch) && i > 0 && !isSpace(text[i - 1]!)) scan.wordsSince++;
      visit(text, i, index, scan);
    }
  });
}

const QUOTE_OPENS = /^\s*["“«„'‘]/;
const SPACED_DASH = /\s[—–]\s/;

const RELATIVE = /^[\s,—–]*(?:which|who|whom|whose|where)\s[^,]*,\s*\S/;

/**
 * "The media day, which was held on Tuesday, was moved to Monday": a relative clause followed by a
 * comma and more text is embedded in its sentence (its verb comes after), so it is no clause of its own.
 */
function embeddedRelative(clauses: readonly Clause[], pieces: readonly Piece[], end: number): boolean {
  const last = clauses.length - 1;
  if (last < 1) return false;
  const text = pieces.map((p) => p.text).join('');
  return RELATIVE.test(text.slice(offsetOf(pieces, clauses[last]!), end));
}

function offsetOf(pieces: readonly Piece[], clause: { piece: number; offset: number }): number {
  let offset = clause.offset;
  for (let p = 0; p < clause.piece; p++) offset += pieces[p]!.text.length;
  return offset;
}

/**
 * "Fox paid for A, B and C, Lionsgate paid for D and Disney paid for E": when the sentence opens with a
 * name and a verb, the same verb after another name starts a parallel clause of its own, even where
 * the commas look like a list.
 */
function parallelClause(pieces: readonly Piece[]): RegExp | null {
  if (pieces[0]?.locked) return null;
  const verb = /^\s*(?:\p{Lu}[\p{L}'’.-]*\s+){1,3}(\p{Ll}{3,})\s/u.exec(pieces[0]?.text ?? '')?.[1];
  if (!verb || STOPWORDS.has(verb)) return null;
  return new RegExp(`^,?(?:\\s+and)?\\s+(?:\\p{Lu}[\\p{L}'’.-]*\\s+){1,3}${verb}\\s`, 'u');
}

function cutAt(text: string, i: number, inList: boolean, parallel: RegExp | null): 'independent' | 'dependent' | 'splice' | null {
  const ch = text[i]!;
  // Called for every character: only these can open a clause, and only they pay for the slice below.
  if (ch !== ',' && ch !== ';' && ch !== '—' && ch !== '–' && !(parallel && ch === ' ')) return null;
  const rest = text.slice(i + 1);
  if (parallel && (ch === ',' || (ch === ' ' && rest.startsWith('and '))) && parallel.test(text.slice(i))) return 'independent';
  if (ch === ';' && /^\s/.test(rest)) return 'independent';
  if ((ch === '—' || ch === '–') && i > 0 && text[i - 1] === ' ' && /^\s/.test(rest)) return 'dependent';
  if (ch !== ',' || !/^\s/.test(rest)) return null;
  const next = rest.trimStart();
  if (RESTRICTIVE.test(next)) return null;
  if (CONJUNCTION.test(next)) {
    if (inList) return null; // "A, B, and C"
    return COORDINATING.test(next) ? 'independent' : 'dependent';
  }
  if (DEPENDENT.test(next) || PARTICIPLE.test(next)) return 'dependent';
  return SPLICE.test(next) ? 'splice' : null;
}

function wordsAfter(pieces: readonly Piece[], index: number, offset: number): number {
  let text = pieces[index]!.text.slice(offset + 1);
  for (let j = index + 1; j < pieces.length; j++) text += pieces[j]!.text;
  return (text.match(/\S+/g) ?? []).length;
}

function measure(pieces: readonly Piece[], clauses: Clause[]): void {
  clauses.forEach((clause, c) => {
    const next = clauses[c + 1];
    let length = 0;
    for (let p = clause.piece; p < pieces.length && (!next || p <= next.piece); p++) {
      const text = pieces[p]!.text;
      const from = p === clause.piece ? clause.offset : 0;
      const to = next && p === next.piece ? next.offset : text.length;
      length += Math.max(0, to - from);
    }
    clause.length = length;
  });
}

/** The text of one clause, separator included. */
export function clauseText(pieces: readonly Piece[], clauses: readonly Clause[], c: number): string {
  return clausePieces(pieces, clauses, c).map((p) => p.text).join('');
}

function clausePieces(pieces: readonly Piece[], clauses: readonly Clause[], c: number): Piece[] {
  const clause = clauses[c]!;
  const next = clauses[c + 1];
  const out: Piece[] = [];
  for (let p = clause.piece; p < pieces.length && (!next || p <= next.piece); p++) {
    const piece = pieces[p]!;
    const from = p === clause.piece ? clause.offset : 0;
    const to = next && p === next.piece ? next.offset : piece.text.length;
    if (to <= from) continue;
    // Cuts are only ever made in free text, so a locked piece is always taken whole.
    out.push(from === 0 && to === piece.text.length ? piece : { ...piece, text: piece.text.slice(from, to) });
  }
  return out;
}

/**
 * The pieces of the sentence with only the kept clauses, repaired to read as a sentence: a clause that
 * now opens the sentence loses its separator and conjunction and gets a capital; when the last clause
 * goes, the sentence keeps its closing punctuation.
 */
export function keepClauses(pieces: readonly Piece[], clauses: readonly Clause[], kept: readonly boolean[]): Piece[] {
  const chosen = clauses.map((_, c) => c).filter((c) => kept[c]);
  if (chosen.length === 0) return [];
  const out: Piece[] = [];
  for (const c of chosen) out.push(...clausePieces(pieces, clauses, c));
  const first = out[0]!;
  if (chosen[0] !== 0 && !first.locked) {
    const text = first.text.replace(/^[\s,;:—–-]+/, '').replace(CONJUNCTION, '').replace(/^\s+/, '');
    out[0] = { ...first, text: text.charAt(0).toUpperCase() + text.slice(1) };
  }
  const lastChosen = chosen[chosen.length - 1]!;
  if (lastChosen !== clauses.length - 1) {
    let ending = /([.!?…]+)["'”’»)\]]*\s*$/.exec(clauseText(pieces, clauses, clauses.length - 1))?.[1] ?? '';
    const last = out[out.length - 1]!;
    if (/[.!?…]$/.test(last.text.trimEnd())) ending = ''; // "in the U.S." already ends with a period
    if (last.locked) out.push({ text: ending, locked: false });
    else out[out.length - 1] = { ...last, text: last.text.replace(/[\s,;:—–-]+$/, '') + ending };
  }
  return out.filter((p) => p.text.length > 0);
}

// What opens the reason for a rule, in the languages the product ships: ", because its build is fragile",
// ", weil unser Frontend das so rendert", ", parce que …", ", porque …", ", pois …".
// Matched in place (sticky) after the comma: slicing the rest of a long sentence at every comma would cost more.
const CAUSAL = /\s+(?:because|since|as (?:we|it|they|this|that|the|our|you|i|there|its|their)|given that|weil|denn|zumal|da (?:wir|es|sie|er|die|der|das|man|unser)|parce que|parce qu['’]|car|puisque|porque|ya que|pues|puesto que|pois|já que|visto que|uma vez que)(?![\p{L}])/iuy;

/**
 * Where a trailing aside may start: a reason after a comma (", because …"), a clause after "; " or a
 * spaced dash (" — they've caused circular imports before"). Outside brackets and quotation marks, in
 * free text, with words on both sides. The caller decides whether the text from there on says anything
 * (a dash may open "— always create a new migration", which is a rule of its own).
 */
export function asideStarts(pieces: readonly Piece[]): Clause[] {
  const starts: Clause[] = [];
  if (!pieces.some((piece) => !piece.locked && SEPARATOR.test(piece.text))) return starts;
  scanFree(pieces, (text, i, index, scan) => {
    const ch = text[i]!;
    if (scan.depth > 0 || scan.quoted || scan.wordsSince < MIN_WORDS) return;
    if ((ch !== ',' && ch !== ';' && ch !== '—' && ch !== '–') || i + 1 >= text.length || !isSpace(text[i + 1]!)) return;
    CAUSAL.lastIndex = i + 1;
    const opens =
      (ch === ',' && CAUSAL.test(text)) || ch === ';' || ((ch === '—' || ch === '–') && text[i - 1] === ' ' && !QUOTE_OPENS.test(text.slice(i + 1, i + 4)));
    if (opens && wordsAfter(pieces, index, i) >= MIN_WORDS) starts.push({ piece: index, offset: i, dependent: true, length: 0 });
  });
  return starts;
}

/** The sentence cut in two at `start`: what it says, and the aside from `start` to its end. */
export function twoClauses(pieces: readonly Piece[], start: Clause): Clause[] {
  const clauses: Clause[] = [{ piece: 0, offset: 0, dependent: false, length: 0 }, { ...start }];
  measure(pieces, clauses);
  return clauses;
}
