import { STOPWORDS } from '../text/words';
import { remeasure, type Pass } from './context';
import { opensSentenceAt } from './rewrite';

// An article, a space and the lower-case word it introduces. Capitalised words are names ("the Beatles").
const ARTICLE = /(?<![\p{L}\p{N}'’_-])(a|an|the|A|An|The) (?=(\p{Ll}[\p{L}\p{N}'’-]*))/gu;

// Where "a"/"an" carries meaning or an idiom needs it: "a few" (some) is not "few" (hardly any); "a lot",
// "a number of", "take a look", "one at a time", "as a result".
const MEANINGFUL_AFTER_A = new Set(
  ('few little lot lots bit couple number dozen great good while half third quarter hundred thousand million ' +
    'billion total look try row time result whole moment glance matter').split(' '),
);

// "option a", "column a": a letter used as a label, not an article (nouns rarely used as verbs only).
const LABELS = new Set('option options choice appendix figure exhibit vitamin column row section version variant tier'.split(' '));

/** Whether the article at `index` of `text` can go without changing what the text asks for. */
function elidable(text: string, index: number, article: string, next: string): boolean {
  if (next !== next.toLowerCase()) return false; // "the iPhone": a name
  if (STOPWORDS.has(next)) return false; // "the same", "the other", "a or b"
  if (article !== 'the' && MEANINGFUL_AFTER_A.has(next)) return false;
  if (article === 'a') {
    const previous = /([\p{L}]+)\s+$/u.exec(text.slice(0, index))?.[1]?.toLowerCase();
    if (previous && LABELS.has(previous)) return false;
  }
  return true;
}

/** Drops the elidable articles of one free piece; a capitalised article only where it opens a sentence. */
export function elideArticles(text: string, opensSentence: boolean): string {
  let out = '';
  let cursor = 0;
  for (const match of text.matchAll(ARTICLE)) {
    const [whole, article, next] = match as unknown as [string, string, string];
    const index = match.index!;
    const capital = article !== article.toLowerCase();
    if (capital && !opensSentenceAt(text, index, opensSentence)) continue;
    if (!elidable(text, index, article.toLowerCase(), next)) continue;
    out += text.slice(cursor, index);
    cursor = index + whole.length;
    if (capital) {
      out += next.charAt(0).toUpperCase();
      cursor++;
    }
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

// The comma before "and"/"or" (serial or between clauses) is style, not meaning, and costs a token.
const COMMA_BEFORE_CONJUNCTION = /,(?= (?:and|or) )/g;

/** One free piece, tersely: elidable articles and commas before and/or removed. */
export function elide(text: string, opensSentence: boolean): string {
  return elideArticles(text, opensSentence).replace(COMMA_BEFORE_CONJUNCTION, '');
}

/**
 * Pass 3b: words and marks that cost tokens but tell a model reader nothing: articles ("Act as a
 * composer" → "Act as composer") and the comma before and/or. English only; only before lower-case words;
 * never where the article carries meaning ("a few").
 */
export const elision: Pass = {
  name: 'elide',
  lossy: false,
  run(doc, { tokenizer }) {
    if (!doc.english) return;
    for (const block of doc.blocks) {
      if (block.kind !== 'prose') continue;
      for (const sentence of block.sentences) {
        if (sentence.removed) continue;
        let changed = false;
        sentence.pieces.forEach((piece, i) => {
          if (piece.locked) return;
          const next = elide(piece.text, i === 0);
          if (next !== piece.text) {
            piece.text = next;
            changed = true;
          }
        });
        if (changed) remeasure(sentence, tokenizer);
      }
    }
  },
};
