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

// Words to the prompt's reader about the prompt, not to the model: thanks, hopes, apologies, hedges
// about the writing itself ("I hope that's enough", "let me know if …", "sorry, it's long").
const META = new RegExp(
  '(?<![\\p{L}])(?:thanks?|thank you|i hope|hope (?:this|that)|let me know|sorry|apologi[sz]e|bear with me|i guess|i think that|' +
    'danke|vielen dank|ich hoffe|entschuldig|gracias|espero que|perdón|lo siento|merci|j\'espère|désolée?|obrigad[oa]|espero que)(?![\\p{L}])' +
    '|よろしくお願い|お世話になって|ありがとう|すみません|申し訳|谢谢|感谢|麻烦了|辛苦了|希望这',
  'iu',
);

/**
 * What makes a sentence of a prompt worth keeping beyond its words: a rule (a constraint or
 * condition) outranks description, a specific sentence (literals, codes, numbers, names) outranks a
 * vague one, and talk about the prompt itself ranks last.
 */
export function ruleValue(text: string, sentence: Sentence): number {
  const constraint = CONSTRAINT.test(text) ? 0.6 : 0;
  const literals = sentence.pieces.filter((p) => p.locked).length;
  const codes = text.match(SPECIFIC)?.length ?? 0;
  const names = (text.slice(1).match(/\s\p{Lu}\p{Ll}/gu) ?? []).length;
  const meta = META.test(text) ? 0.4 : 0;
  return constraint + 0.35 * Math.min(1, (literals + codes + 0.5 * names) / 2) - meta;
}
