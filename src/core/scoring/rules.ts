import type { Sentence } from '../doc';

// A constraint: a negation, a limit, a condition or an exact requirement, in the languages the product
// ships. Latin-script words need word boundaries; Chinese and Japanese have none.
const CONSTRAINT = new RegExp(
  '(?<![\\p{L}\'’])(?:' +
    [
      "not|no|never|none|nor|cannot|can't|don't|doesn't|won't|mustn't|shouldn't|without|except|unless|only|must|always|avoid",
      'required?|forbidden|prohibited|maximum|minimum|exactly|at (?:most|least)|no (?:more|less|later) than|nothing (?:else|but)|if',
      'nicht|nie|niemals|kein(?:e|en|em|er)?|nur|immer|muss|müssen|darf|dürfen|ohne|außer|genau', // de
      'nunca|jamás|solo|sólo|solamente|siempre|debe|deben|sin|excepto|salvo', // es (no: above)
      "ne|n'|jamais|seulement|uniquement|toujours|doit|doivent|sans|sauf", // fr
      'não|apenas|somente|sempre|deve|devem|sem|exceto', // pt
    ].join('|') +
    ')(?![\\p{L}\'’])|必ず|絶対|ないで|ません|禁止|のみ|だけ|しないこと|不要|不得|必须|务必|仅|不能|切勿|请勿|只能',
  'iu',
);

// What a reader cannot guess: a code or identifier (E-4021, HTTP, snake_case, camelCase), a number.
const SPECIFIC = /(?<![\p{L}\p{N}])(?:[\p{L}_-]*\d[\p{L}\p{N}._-]*|\p{Lu}{2,}[\p{Lu}\d_-]*|\p{Ll}+\p{Lu}[\p{L}\d]*|\w+_\w+)(?![\p{L}\p{N}])/gu;

// Words to the prompt's reader about the prompt, not to the model: greetings, thanks, hopes, apologies,
// hedges about the writer's own knowledge ("I hope that's enough", "let me know if …", "honestly I'm
// not sure …"). Such a sentence is never a rule, even with a "not" in it.
const META = new RegExp(
  '^[^\\p{L}]*(?:hi|hello|hey|hallo|hola|bonjour|salut|olá|oi)(?![\\p{L}])|' +
    '(?<![\\p{L}])(?:thanks?|thank you|i hope|hope (?:this|that)|let me know|sorry|apologi[sz]e|bear with me|i guess|i think that|' +
    "feel free|please let|if (?:anything|something) is unclear|honestly|to be honest|i'?m not (?:sure|great|good|an expert)|not (?:quite )?sure|i don'?t know|" +
    'danke|vielen dank|ich hoffe|entschuldig|ehrlich gesagt|nicht (?:ganz )?sicher|weiß nicht|' +
    'gracias|espero que|perdón|perdona|lo siento|no (?:sé|estoy segur[oa])|' +
    "merci|j'espère|désolée?|pas sûre?|je ne sais pas|" +
    'obrigad[oa]|desculp[ae]|não sei|não tenho certeza)(?![\\p{L}])' +
    '|こんにちは|よろしくお願い|お世話になって|お疲れ様|ありがとう|すみません|申し訳|わかりません|' +
    '你好|您好|谢谢|感谢|麻烦了|辛苦了|希望这|不确定|不太清楚|请你喝',
  'iu',
);

/** Holds a negation, limit or condition: cut into clauses, it could lose it. */
export const hasConstraint = (text: string): boolean => CONSTRAINT.test(text);

/** Talk about the prompt itself, not to the model. */
export const isMeta = (text: string): boolean => META.test(text);

/**
 * What makes a sentence of a prompt worth keeping beyond its words (`sentence`: the sentence, or how
 * many protected literals the text holds): a rule (a constraint or
 * condition) outranks description, and a specific sentence (literals, codes, numbers, names) outranks
 * a vague one. Talk about the prompt itself is no rule (see metaPenalty).
 */
export function ruleValue(text: string, sentence: Sentence | number): number {
  if (isMeta(text)) return 0;
  const constraint = CONSTRAINT.test(text) ? 0.6 : 0;
  const literals = typeof sentence === 'number' ? sentence : sentence.pieces.filter((p) => p.locked).length;
  const codes = text.match(SPECIFIC)?.length ?? 0;
  const names = (text.slice(1).match(/\s\p{Lu}\p{Ll}/gu) ?? []).length;
  return constraint + 0.35 * Math.min(1, (literals + codes + 0.5 * names) / 2);
}

/** Talk about the prompt ranks below everything that says something, with or without a task. */
export const metaPenalty = (text: string): number => (isMeta(text) ? 0.6 : 0);
