/**
 * Question-aware cue: what kind of literal the task asks for (a place, a date, a number, a person),
 * so that a sentence holding one ranks higher even when it shares no word with the question
 * ("Where did it take place?" → "…was played at Levi's Stadium in Santa Clara").
 */
export type AnswerType = 'person' | 'place' | 'time' | 'quantity' | 'name';

const CUES: readonly [RegExp, AnswerType][] = [
  [/\b(how (many|much|long|far|old|big|large|often)|what (percentage|percent|number|amount|score|age|price)|by how)\b/i, 'quantity'],
  [/\b(when|what (year|date|day|month|time|decade|century)|which (year|date|day|month))\b/i, 'time'],
  [/\b(where|what (city|state|country|place|stadium|venue|location|town|region)|which (city|state|country|stadium|venue))\b/i, 'place'],
  [/\b(who|whom|whose|what (person|player|coach|quarterback|team)|which (person|player|coach|quarterback|team))\b/i, 'person'],
  [/\b(what|which) [a-z]+\b/i, 'name'],
];

const PATTERNS: Record<AnswerType, (text: string) => boolean> = {
  quantity: (text) => /\d/.test(text),
  time: (text) => /\b(1[5-9]\d{2}|20\d{2})\b|\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/.test(text),
  place: (text) => /\b(in|at|from|near) (the )?\p{Lu}\p{L}+/u.test(text),
  // A capitalised word (two for a person) that does not open its sentence: one that follows white space
  // with a letter before it since the last ".", "!" or "?" (what `(?<=\p{L}[^.!?]*\s)` reads, without
  // a look-behind of any length at every capital).
  person: (text) => afterALetter(text, PERSON),
  name: (text) => afterALetter(text, NAME),
};
const PERSON = /\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/uy;
const NAME = /\p{Lu}\p{L}+/uy;

const LETTER = /\p{L}/u;
const UPPER = /^\p{Lu}/u;
const SPACE = /\s/u;

/**
 * Whether `word` (sticky) matches right after white space that has a letter before it since the last
 * sentence mark. One scan of the text: only after white space before a capital is the pattern tried.
 */
function afterALetter(text: string, word: RegExp): boolean {
  let letter = false; // a letter since the last ".", "!" or "?"
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 || c === 33 || c === 63) letter = false;
    else if (c < 128) {
      if ((c | 32) >= 97 && (c | 32) <= 122) letter = true;
      else if (letter && (c === 32 || (c >= 9 && c <= 13)) && capitalAt(text, i + 1)) {
        word.lastIndex = i + 1;
        if (word.test(text)) return true;
      }
    } else {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      if (LETTER.test(ch)) letter = true;
      else if (letter && SPACE.test(ch) && capitalAt(text, i + 1)) {
        word.lastIndex = i + 1;
        if (word.test(text)) return true;
      }
      i += ch.length - 1;
    }
  }
  return false;
}

function capitalAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 ? c >= 65 && c <= 90 : UPPER.test(text.slice(i, i + 2));
}

export function answerTypes(task: string): AnswerType[] {
  return CUES.filter(([cue]) => cue.test(task)).map(([, type]) => type);
}

/** 1 when the sentence holds a literal of the asked-for kind, else 0. */
export function answerTypeMatch(sentence: string, types: readonly AnswerType[]): number {
  return types.some((type) => PATTERNS[type](sentence)) ? 1 : 0;
}
