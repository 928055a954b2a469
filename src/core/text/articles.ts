/**
 * "a very explicit prompt" without "very" is "an explicit prompt": where a removal leaves an English
 * article before another word, the article agrees with that word's sound. Only an article that ends
 * `before` changes; the writer's own text elsewhere stays as written.
 */
export function agreeArticle(before: string, after: string): string {
  const article = TRAILING_ARTICLE.exec(before);
  if (!article) return before;
  const word = NEXT_WORD.exec(after)?.[1];
  if (!word) return before;
  const an = takesAn(word);
  const written = article[1] ?? article[2]!;
  if (an === (written.length === 2)) return before;
  const agreed = written[0] === 'A' ? (an ? 'An' : 'A') : an ? 'an' : 'a';
  return before.slice(0, article.index) + agreed + article[3];
}

// A capital "A" is an article only where a sentence opens: "Plan A is …" names a plan.
const TRAILING_ARTICLE = /(?:(?<![\p{L}\p{N}'’])(an?)|(?<=^|[.!?:]\s+|[\n>*-]\s*)(An?))([ \t]+)$/u;
const NEXT_WORD = /^[ \t]*[*_"“'‘(]*([\p{L}\p{N}]+)/u;

/** Whether a word is said with a vowel first: "an hour", "an SQL query"; "a user", "a one-off", "a European". */
function takesAn(word: string): boolean {
  // An acronym is read letter by letter: "an API", "an SLA", "a URL".
  if (word.length > 1 && word === word.toUpperCase() && /^\p{Lu}/u.test(word)) return /^[AEFHILMNORSX]/.test(word);
  const lower = word.toLowerCase();
  if (SILENT_H.test(lower)) return true;
  if (SAID_YOU.test(lower)) return false;
  return /^[aeiou]/.test(lower);
}
const SILENT_H = /^(?:hour|honest|honou?r|heir)/;
const SAID_YOU = /^(?:uni(?!nt|mp|nf|nd|ns|nh|nl|nv|nc|nb|nr|ns)|use|usu|uti|ura|uro|eu|one|once|ewe|ubiq)/;
