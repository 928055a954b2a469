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
  person: (text) => afterALetter(text, /\s(?=\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+)/gu),
  name: (text) => afterALetter(text, /\s(?=\p{Lu}\p{L}+)/gu),
};

const LETTER = /\p{L}/u;

/** Whether a match of `space` (white space before a word) has a letter before it since the last sentence mark. */
function afterALetter(text: string, space: RegExp): boolean {
  space.lastIndex = 0;
  for (let m = space.exec(text); m !== null; m = space.exec(text)) {
    for (let j = m.index - 1; j >= 0; j--) {
      const c = text[j]!;
      if (c === '.' || c === '!' || c === '?') break;
      if (LETTER.test(c)) return true;
    }
  }
  return false;
}

export function answerTypes(task: string): AnswerType[] {
  return CUES.filter(([cue]) => cue.test(task)).map(([, type]) => type);
}

/** 1 when the sentence holds a literal of the asked-for kind, else 0. */
export function answerTypeMatch(sentence: string, types: readonly AnswerType[]): number {
  return types.some((type) => PATTERNS[type](sentence)) ? 1 : 0;
}
