import { segment } from '../../src/core/passes/segment';
import type { PassContext } from '../../src/core/passes/context';
import { tokenizerFor } from '../../src/core/tokenizer';
import { render, type Doc } from '../../src/core/doc';

export const tokenizer = tokenizerFor('o200k_base');

export function parse(text: string, task = ''): Doc {
  return segment(text, task, tokenizer);
}

export function context(budget = 1_000_000, mode: PassContext['mode'] = 'relaxed'): PassContext {
  return { tokenizer, budget, mode };
}

/** Runs passes in order over `text` and renders the result. */
export function through(text: string, passes: { run(doc: Doc, c: PassContext): void }[], c = context(), task = ''): string {
  const doc = parse(text, task);
  for (const pass of passes) pass.run(doc, c);
  return render(doc);
}
