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

const PATTERNS: Record<AnswerType, RegExp> = {
  quantity: /\d/,
  time: /\b(1[5-9]\d{2}|20\d{2})\b|\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/,
  place: /\b(in|at|from|near) (the )?\p{Lu}\p{L}+/u,
  person: /(?<=\p{L}[^.!?]*\s)\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/u,
  name: /(?<=\p{L}[^.!?]*\s)\p{Lu}\p{L}+/u,
};

export function answerTypes(task: string): AnswerType[] {
  return CUES.filter(([cue]) => cue.test(task)).map(([, type]) => type);
}

/** 1 when the sentence holds a literal of the asked-for kind, else 0. */
export function answerTypeMatch(sentence: string, types: readonly AnswerType[]): number {
  return types.some((type) => PATTERNS[type].test(sentence)) ? 1 : 0;
}
