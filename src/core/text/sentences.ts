import type { Span } from './inline';

// Words that end with a period without ending the sentence.
const ABBREVIATIONS = new Set(
  ('mr mrs ms dr prof sr jr st mt ft vs etc e.g i.e eg ie cf al approx ca fig figs no nos vol vols ed eds inc ltd co corp ' +
    'dept univ jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k u.n a.m p.m d.c ph.d b.a m.a est op pp z.b bzw usw ggf ca sr sra ' +
    // Spanish, Portuguese, German, French: "Ferretería Hnos. Villalba", "Av. Paulista", "vgl. Abschnitt 3".
    'hnos hno sres srta dña dra ud uds pág págs núm aprox av avda cía nr str hr vgl inkl evtl mme mlle cie ' +
    // "162 Mio. EUR", "EE. UU." (the United States in Spanish), "Jh." (century).
    'mio mrd tsd jh ee uu')
    .split(' '),
);

// Latin, CJK full-width, Devanagari danda and double danda, Arabic question mark.
const isTerminator = (ch: string) => '.!?…。！？।॥؟'.includes(ch);
const isCloser = (ch: string) => `"'”’»)]`.includes(ch);
/** Where a boundary can be: a line break or a terminator (see isTerminator); the scan skips the rest. */
const isCandidate = (c: number) =>
  c === 10 || c === 58 || c === 46 || c === 33 || c === 63 || c === 32 || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0x0964 || c === 0x0965 || c === 0x061f;
// A run-in numbered list starts at 1: "Hiroshi (CTO): 24. Twenty-five was …" is a speaker's number, not an item.
const INLINE_LIST = /^ (?:[-*•]|1[.)]) /;
// The number of an item run into its paragraph: "… we can proceed: 1. **Request**: … 2. **Reference**: …".
const INLINE_NUMBER = /(?:^|[.!?:)]\s+|\*\*\s+)\d{1,2}$/;
const isThai = (c: number) => c >= 0x0e00 && c <= 0x0e7f;
/** Thai spaces also part words within a sentence: a sentence is at least this many characters. */
const MIN_THAI_SENTENCE = 80;

/**
 * Sentence boundaries of `text` as end offsets (exclusive), never inside a protected span.
 * A boundary is a terminator run (plus closing quotes) followed by whitespace and a sentence start,
 * or a line break that does not continue a hard-wrapped sentence.
 */
export function sentenceEnds(text: string, spans: readonly Span[]): number[] {
  const ends: number[] = [];
  let spanIndex = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    while (i < n && !isCandidate(text.charCodeAt(i))) i++;
    if (i === n) break;
    while (spanIndex < spans.length && spans[spanIndex]!.end <= i) spanIndex++;
    const span = spans[spanIndex];
    if (span && span.start <= i && i < span.end) {
      i = span.end - 1;
      // A quotation that ends its sentence: 'My first request is "Can you help?" Thanks!'.
      if (span.end < n && /[.!?。！？]["”»'’)\]]$/u.test(text.slice(span.end - 2, span.end)) && /\s/.test(text[span.end]!)) {
        const next = nextNonSpace(text, span.end);
        if (next !== -1 && startsSentence(text[next]!) && !isCodeTail(text, next)) ends.push(span.end);
      }
      continue;
    }
    const ch = text[i]!;
    // Thai writes no sentence punctuation: a space between Thai words ends a sentence or clause, once the
    // sentence has some length.
    if (ch === ' ') {
      const last = ends.length > 0 ? ends[ends.length - 1]! : 0;
      if (i - last >= MIN_THAI_SENTENCE && i > 0 && isThai(text.charCodeAt(i - 1)) && i + 1 < n && isThai(text.charCodeAt(i + 1))) ends.push(i);
      continue;
    }
    // A list run into one paragraph ("… include: - **Basics**: Start with … - **Insights**: …"): its
    // lead-in is a sentence of its own, as each item is.
    if (ch === ':') {
      if (INLINE_LIST.test(text.slice(i + 1, i + 6))) ends.push(i + 1);
      continue;
    }
    if (ch === '\n') {
      if (isHardWrap(text, i)) continue;
      ends.push(i);
      continue;
    }
    let end = i + 1;
    while (end < n && (isTerminator(text[end]!) || isCloser(text[end]!))) end++;
    if (/[。！？]/.test(ch)) {
      ends.push(end);
      i = end - 1;
      continue;
    }
    if (end < n && !/\s/.test(text[end]!)) continue; // 3.5, e.g.x, file.ts
    // An item's number opens the item: the sentence before ended ahead of it.
    if (ch === '.' && end === i + 1 && INLINE_NUMBER.test(text.slice(Math.max(0, i - 8), i))) continue;
    const next = nextNonSpace(text, end);
    // "etc." closes a list, and often the sentence: before a capital it ends it ("… better etc. My first request is …").
    if (ch === '.' && isAbbreviation(text, i) && !(next !== -1 && /\p{Lu}/u.test(text[next]!) && /(?<![\p{L}])etc$/iu.test(text.slice(Math.max(0, i - 4), i)))) continue;
    if (next === -1 || ((startsSentence(text[next]!) || (ch === '.' && opensLowerCase(text, i, next))) && !isCodeTail(text, next))) {
      ends.push(end);
      i = end - 1;
    }
  }
  if (ends[ends.length - 1] !== n) ends.push(n);
  return ends;
}

function isHardWrap(text: string, newline: number): boolean {
  const before = text.slice(Math.max(0, newline - 1), newline);
  // A quoted line's marks ("> caused by …", a wrapped line of a blockquote) are not what it says.
  const after = /\S/.exec(text.slice(newline + 1, newline + 40).replace(QUOTE_MARKS, ''));
  // The next line goes on in lower case or with an inline code span or a bracket ("…the corresponding
  // module's\n`variables.tf`. Any …"), after a word or a code span ("Use `PASS WITH CAVEATS`\nonly
  // for …").
  if (after === null || text.startsWith('\n', newline + 1)) return false;
  if (/[\p{Ll},;`]/u.test(before) && /[\p{Ll}`(]/u.test(after[0])) return true;
  // A line that stops on a word no sentence ends with ("… each selected module's\nREADME and …") goes on
  // into the next line whatever its case, unless that line opens an item.
  return /[\p{L}`]/u.test(after[0]) && OPEN_ENDED.test(text.slice(Math.max(0, newline - 16), newline)) && !LIST_LINE.test(text.slice(newline + 1, newline + 8));
}
const QUOTE_MARKS = /^[ \t]*(?:>[ \t]?)+/;
const OPEN_ENDED = /(?:\p{L}['’]s|(?<![\p{L}])(?:the|a|an|and|or|of|to|in|on|for|with|by|from|at|each|every|your|our|their|its|der|die|das|und|le|la|les|et|de|el|los|las|y|o|e|os|as))$/iu;
const LIST_LINE = /^\s*(?:[-*+•]|\d{1,3}[.)])\s/;

// A German ordinal: "am 7. Januar 1943", "zum 31. August", "im 19. Jahrhundert", "meine 2. Mahnung" (words
// of German only: "Divide it in 2. Then …" ends its sentence).
const ORDINAL = /(?:^|\s)(?:am|im|zum|vom|beim|bis|seit|ab|der|die|das|dem|den|des|zur|um|vor|nach|einem|einer|eines|ins|ans|aufs|fürs|für|über|unter|durch|mit|von|bei|zu|auf|(?:mein|dein|sein|ihr|unser|eur|jed|dies|kein)e[mnrs]?|unser|euer|ihr|kein)\s+\d{1,3}$/iu;
// What a German ordinal counts, after a comma as much as after an article: "Karl-Liebknecht-Straße 14,
// 3. OG", "2. Stock", "3. Quartal", "4. Auflage".
// A day before its month is one too: "Donnerstag, 27. Februar 2025", "3. März".
const ORDINAL_NOUN = /^\s+(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|OG|EG|UG|DG|Stock|Etage|Obergeschoss|Untergeschoss|Dachgeschoss|Jahrhunderts?|Jahrtausends?|Quartals?|Halbjahr(?:es)?|Semesters?|Klasse|Auflage|Liga|Spieltag|Kapitel|Absatz|Mahnung|Lehrjahr|Schuljahr)(?![\p{L}])/u;

const SPACED_PART = /^ \p{L}{1,2}\./u;
const SPACED_FIRST = /(?:^|[\s(])\p{Ll}\. $/u;

function isAbbreviation(text: string, period: number): boolean {
  const previous = text.charCodeAt(period - 1);
  // Only a number can be an ordinal; only a letter or a period end an abbreviation.
  if (previous >= 48 && previous <= 57) return ORDINAL.test(text.slice(Math.max(0, period - 16), period)) || (/(?<!\d)\d{1,2}$/.test(text.slice(Math.max(0, period - 3), period)) && ORDINAL_NOUN.test(text.slice(period + 1, period + 20)));
  let start = period;
  while (start > period - 12 && start > 0 && isWordOrDot(text, start - 1)) start--;
  const word = text.slice(start, period);
  // Initials: "J. R. R. Tolkien", not a key after a "+" ("Ctrl+C.").
  if (word.length === 1 && /\p{Lu}/u.test(word) && (start === 0 || /[\s(.]/.test(text[start - 1]!))) return true;
  // The first part of a spaced abbreviation: "z. B.", "d. h.", "u. a.", "p. ex.", "p. ej.".
  if (word.length === 1 && (start === 0 || /[\s(]/.test(text[start - 1]!)) && SPACED_PART.test(text.slice(period + 1, period + 5))) return true;
  // And its later part, after a first one: the "B." of "z. B.", the "ex." of "p. ex.".
  if (word.length <= 2 && SPACED_FIRST.test(text.slice(Math.max(0, start - 4), start))) return true;
  if (word.length > 0 && ABBREVIATIONS.has(word.toLowerCase())) return true;
  // Before a number, what numbers things: "art. 4º da Lei 8.245", "Art. 5 GG", "cap. 3", "par. 2", "Tel. 0957…"; and a
  // German street before its house number: "Hauptstr. 12", "Goethestr. 5".
  // So is a short label that opens its line: "MwSt. 7 %: 5,35 €", "Pos. 3" (a sentence of one word, which
  // dedupe would take for a repeated one).
  return (NUMBERING.has(word.toLowerCase()) || /\p{L}str$/u.test(word) || (word.length <= 4 && /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, start - 8), start)))) && /^\s+\d/.test(text.slice(period + 1, period + 4));
}
// ("no.", "nr.", "núm." end no sentence anywhere: see ABBREVIATIONS.)
const NUMBERING = new Set(['art', 'arts', 'cap', 'caps', 'par', 'sec', 'secs', 'ch', 'chap', 'abs', 'lit', 'p', 'n', 'num', 'tel', 'tél', 'fax', 'mob', 'ref', 'zzgl', 'exkl', 'pos']);

const LETTER = /\p{L}/u;
const isWordOrDot = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 46 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return LETTER.test(text[i]!);
};

/**
 * What follows is one token to the end of its line, and a token of code: a redirect, a path or an
 * option ('grep -v "\\.test\\." 2>/dev/null'). It ends the command before it, no sentence of its own.
 */
function isCodeTail(text: string, from: number): boolean {
  // Most sentences go on past a space within a few characters: only a lone token is sliced.
  let end = from;
  while (end < text.length && end - from <= MAX_CODE_TAIL && !/\s/.test(text[end]!)) end++;
  if (end - from > MAX_CODE_TAIL || (end < text.length && !/^[^\S\n]*(?:\n|$)/.test(text.slice(end, end + 8)))) return false;
  return CODE_TAIL.test(text.slice(from, end));
}
const CODE_TAIL = /[<>/|&=\\]/;
const MAX_CODE_TAIL = 80;

function nextNonSpace(text: string, from: number): number {
  for (let j = from; j < text.length; j++) if (!/\s/.test(text[j]!)) return j;
  return -1;
}

// Prompts typed without capitals ("… and nothing else. do not write explanations. when i need …"): after
// a word's period, these open a sentence in lower case too.
const LOWER_OPENER = /^(?:do|don't|never|always|only|when|if|my|i|you|please|also|then|use|make|write|reply|answer|keep|give|tell|avoid)\s/;

function opensLowerCase(text: string, period: number, next: number): boolean {
  return LOWER_OPENER.test(text.slice(next, next + 8)) && /(?:\p{Ll}{2,}|[)}\]"'”’])$/u.test(text.slice(Math.max(0, period - 8), period));
}

function startsSentence(ch: string): boolean {
  return /[\p{Lu}\p{N}"'“‘«(\[¿¡*_`<{$#>-]/u.test(ch) || /[\p{L}]/u.test(ch) && !/[\p{Ll}]/u.test(ch);
}

/** Whether offset `index` of a piece starts a sentence (or follows a colon), past opening marks. */
export function opensSentenceAt(text: string, index: number, pieceOpensSentence: boolean): boolean {
  // A bounded look back: what decides is the few characters before the index.
  const before = text.slice(Math.max(0, index - LOOK_BACK), index);
  return (pieceOpensSentence && index <= LOOK_BACK && /^[\s*_"'“(\[-]*$/.test(before)) || /[.!?:]\s+[*_"'“(\[]*$/.test(before);
}

const LOOK_BACK = 32;
