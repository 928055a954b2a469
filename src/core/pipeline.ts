import { estimateTokens, isStructural, keptSentences, render, type Doc } from './doc';
import type { PassReport } from './result';
import { cleanup } from './passes/cleanup';
import type { Pass, PassContext } from './passes/context';
import type { CountedText } from './tokenizer';
import { dedupe } from './passes/dedupe';
import { elision } from './passes/elide';
import { prune } from './passes/prune';
import { rewrite } from './passes/rewrite';
import { segment } from './passes/segment';
import { select } from './passes/select';

/**
 * The compression pipeline after segmentation, cheapest and safest first. Safe passes always run;
 * lossy passes run only while the text is over budget.
 */
export const PASSES: readonly Pass[] = [cleanup, rewrite, elision, dedupe, select, prune];

export interface PipelineOutput {
  text: string;
  tokens: number;
  softLimitEnforced: boolean;
  passes: PassReport[];
}

const MAX_TIGHTENING = 6;

/** `original` is the prompt as the tokenizer counted it: sentence counts come from its chunks. */
export function runPipeline(original: CountedText, task: string, context: PassContext): PipelineOutput {
  const { tokenizer, budget, mode } = context;
  const doc = segment(original.text, task, tokenizer, original);
  const passes: PassReport[] = [{ name: 'segment', tokens: estimateTokens(doc) }];
  for (const pass of PASSES) {
    if (pass.lossy && estimateTokens(doc) <= budget) continue;
    pass.run(doc, context);
    passes.push({ name: pass.name, tokens: estimateTokens(doc) });
  }
  let output = render(doc);
  let tokens = tokenizer.count(output);
  // Per-unit counts can miss a few tokens where units join: tighten the target and run the lossy passes again.
  for (let attempt = 1; tokens > budget && attempt <= MAX_TIGHTENING; attempt++) {
    const before = tokens;
    const tighter: PassContext = { ...context, budget: Math.max(0, budget - (tokens - budget) - attempt * 2) };
    for (const pass of PASSES) if (pass.lossy) pass.run(doc, tighter);
    output = render(doc);
    tokens = tokenizer.count(output);
    if (tokens >= before && mode === 'relaxed') break; // only kept content is left
  }
  if (mode === 'strict' && tokens > budget) {
    output = dropUntilFits(doc, context);
    tokens = tokenizer.count(output);
  }
  passes.push({ name: 'render', tokens });
  const softLimitEnforced = mode === 'strict' ? doc.notes.protectedDropped : tokens > budget;
  return { text: output, tokens, softLimitEnforced, passes };
}

/** Strict mode's last resort: drop whole units from the end until the text fits. Never cuts inside one. */
function dropUntilFits(doc: Doc, { tokenizer, budget }: PassContext): string {
  const units: (() => void)[] = [];
  for (const sentence of keptSentences(doc)) units.push(() => (sentence.removed = true));
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose') continue;
    units.push(() => {
      block.removed = true;
      if (!isStructural(block)) doc.notes.protectedDropped = true;
    });
  }
  let output = render(doc);
  while (units.length > 0 && tokenizer.count(output) > budget) {
    units.pop()!();
    output = render(doc);
  }
  return output;
}
