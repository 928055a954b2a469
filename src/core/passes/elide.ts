import { estimateTokens, wordEditable } from '../doc';
import { opensSentenceAt } from '../text/sentences';
import { STOPWORDS } from '../text/words';
import type { Pass } from './context';

// An article, a space and the lower-case word it introduces. Capitalised words are names ("the Beatles").
const ARTICLE = /(?<![\p{L}\p{N}'’_-])(a|an|the|A|An|The) (?=(\p{Ll}[\p{L}\p{N}'’-]*))/gu;

// Where "a"/"an" carries meaning or an idiom needs it: "a few" (some) is not "few" (hardly any); "a lot",
// "a number of", "take a look", "one at a time", "as a result".
const MEANINGFUL_AFTER_A = new Set(
  ('few little lot lots bit couple number dozen great good while half third quarter hundred thousand million ' +
    'billion total look try row time result whole moment glance matter').split(' '),
);

// Idioms that need their "the": "to the point", "by the way", "in the end", "at the moment"; and "the
// two" (those two, not any two).
const IDIOMS_AFTER_THE = new Set(['point', 'way', 'end', 'moment', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']);

// "once a year", "twice a day", "three times a week", "$5 a month": "a" means "per".
const RATE_BEFORE_A = /(?:\b(?:once|twice|thrice|times)|\d[\d.,]*\s*(?:[%€$£]|\p{L}+)?)\s+$/u;

// "option a", "column a": a letter used as a label, not an article (nouns rarely used as verbs only).
const LABELS = new Set('option options choice appendix figure exhibit vitamin column row section version variant tier'.split(' '));

// The comma before "and"/"or" (serial or between clauses) is style, not meaning, and costs a token.
const COMMA_BEFORE_CONJUNCTION = /,(?= (?:and|or) )/g;

/** Whether the article at `index` of `text` can go without changing what the text asks for. */
function elidable(text: string, index: number, article: string, next: string, preceding: string): boolean {
  if (next !== next.toLowerCase()) return false; // "the iPhone": a name
  if (STOPWORDS.has(next)) return false; // "the same", "the other", "a or b"
  if (article === 'the' ? IDIOMS_AFTER_THE.has(next) : MEANINGFUL_AFTER_A.has(next)) return false;
  if (article === 'a' || article === 'an') {
    const before = (index < 16 ? preceding : '') + text.slice(Math.max(0, index - 16), index);
    const previous = /(\p{L}+)\s+$/u.exec(before)?.[1]?.toLowerCase();
    if (article === 'a' && previous && LABELS.has(previous)) return false;
    if (RATE_BEFORE_A.test(before)) return false;
  }
  return true;
}

/**
 * One free piece, tersely: elidable articles and the comma before and/or removed. `saved` is the exact
 * token saving when every removal was one whole pre-tokenizer chunk (" the", " a", " an" or ","), each a
 * single token in every encoding; otherwise undefined and the sentence must be counted again.
 */
export function elide(text: string, opensSentence: boolean, preceding = ''): { text: string; saved: number | undefined } {
  let out = '';
  let cursor = 0;
  let saved: number | undefined = 0;
  // An exec loop on the shared pattern: matchAll would clone the regex on every call.
  ARTICLE.lastIndex = 0;
  for (let match = ARTICLE.exec(text); match; match = ARTICLE.exec(text)) {
    const [whole, article, next] = match as unknown as [string, string, string];
    const index = match.index;
    const capital = article !== article.toLowerCase();
    if (capital && !opensSentenceAt(text, index, opensSentence)) continue;
    if (!elidable(text, index, article.toLowerCase(), next, preceding)) continue;
    out += text.slice(cursor, index);
    cursor = index + whole.length;
    if (capital) {
      out += next.charAt(0).toUpperCase();
      cursor++;
    }
    // " of the house" → " of house" loses the chunk " the"; "The user" → "User" changes a chunk.
    saved = !capital && text[index - 1] === ' ' && saved !== undefined ? saved + 1 : undefined;
  }
  if (cursor > 0) text = out + text.slice(cursor);
  return {
    text: text.replace(COMMA_BEFORE_CONJUNCTION, (comma, index: number) => {
      // After a letter or digit the comma is a chunk of its own; after ")" it would share one.
      saved = saved !== undefined && /[\p{L}\p{N}]/u.test(text[index - 1] ?? '') ? saved + 1 : undefined;
      return '';
    }),
    saved,
  };
}

/**
 * The last lossy pass: articles ("Act as a composer" → "Act as composer") and the comma before
 * and/or, which cost tokens but change no instruction. Runs only when the text is still over budget,
 * sentence by sentence from the least important, until it fits. English only; only before lower-case
 * words; never where the article carries meaning ("a few").
 */
export const elision: Pass = {
  name: 'elide',
  lossy: true,
  run(doc, { tokenizer, budget, mode }) {
    if (!doc.english) return;
    let excess = estimateTokens(doc) - budget;
    if (excess <= 0) return;
    const edits = wordEditable(doc, mode)
      .sort((a, b) => a.score - b.score)
      .map((sentence) => {
        // The piece before ("$5" in "$5 a month") is read too: it may make "a" mean "per".
        const pieces = sentence.pieces.map((piece, i) => (piece.locked ? null : elide(piece.text, i === 0, sentence.pieces[i - 1]?.text.slice(-16))));
        const changed = pieces.some((e, i) => e !== null && e.text !== sentence.pieces[i]!.text);
        const exact = pieces.every((e) => e === null || e.saved !== undefined);
        const texts = sentence.pieces.map((piece, i) => pieces[i]?.text ?? piece.text);
        const saved = !changed ? 0 : exact ? pieces.reduce((n, e) => n + (e?.saved ?? 0), 0) : sentence.tokens - tokenizer.count(texts.join(''));
        return { sentence, texts, saved };
      })
      .filter((edit) => edit.saved > 0);
    // Terse text for nothing is a loss: when every elision together cannot make the text fit (relaxed
    // mode over budget on its code, strict mode that must drop a unit anyway), the sentences stay as written.
    if (edits.reduce((n, edit) => n + edit.saved, 0) < excess) return;
    for (const { sentence, texts, saved } of edits) {
      if (excess <= 0) return;
      sentence.pieces.forEach((piece, i) => (piece.text = texts[i]!));
      sentence.tokens -= saved;
      excess -= saved;
    }
  },
};
