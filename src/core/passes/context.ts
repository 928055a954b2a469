import { sentenceText, type Doc, type Sentence } from '../doc';
import type { Mode } from '../options';
import type { Tokenizer } from '../tokenizer';

/** What a pass may read besides the document: configured once per optimize call. */
export interface PassContext {
  readonly tokenizer: Tokenizer;
  readonly budget: number;
  readonly mode: Mode;
}

/** A named step of the pipeline. Safe passes keep the meaning; lossy ones run only while over budget. */
export interface Pass {
  readonly name: string;
  readonly lossy: boolean;
  run(doc: Doc, context: PassContext): void;
}

/** Re-counts a sentence after an edit; a sentence left with no letters or digits is removed. */
export function remeasure(sentence: Sentence, tokenizer: Tokenizer): void {
  const text = sentenceText(sentence);
  if (!/[\p{L}\p{N}]/u.test(text)) {
    sentence.removed = true;
    sentence.tokens = 0;
    return;
  }
  sentence.tokens = tokenizer.count(text);
}
