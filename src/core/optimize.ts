import { resolveBudget } from './budget';
import { now } from './clock';
import { resolveOptions, type OptimizeOptions } from './options';
import { runPipeline } from './pipeline';
import type { OptimizeResult } from './result';
import { tokenizerFor } from './tokenizer';

/**
 * Shortens `text` toward `budget` tokens. Deterministic: the same options give the same text.
 * Throws `OptimizeError` on invalid options, and nothing else on any string.
 */
export function optimize(options: OptimizeOptions): OptimizeResult {
  const started = now();
  const { text, budget, mode, task, model, encoding } = resolveOptions(options);
  const tokenizer = tokenizerFor(encoding);
  const original = tokenizer.countText(text);
  const originalTokens = original.tokens;
  const budgetTokens = resolveBudget(budget, originalTokens);
  let result = runPipeline(original, task, { tokenizer, budget: budgetTokens, mode });
  // Never grow: if joining units cost more than the input (rare: odd whitespace), keep the input.
  if (result.tokens > originalTokens && (mode === 'relaxed' || originalTokens <= budgetTokens)) {
    result = { ...result, text, tokens: originalTokens, softLimitEnforced: mode === 'relaxed' && originalTokens > budgetTokens };
  }
  // Never nothing for a prompt that fits: if the passes left no words ("Please." is all request), keep the input.
  if (originalTokens <= budgetTokens && result.text.trim() === '' && text.trim() !== '') {
    result = { ...result, text, tokens: originalTokens, softLimitEnforced: false };
  }
  return {
    text: result.text,
    originalTokens,
    optimizedTokens: result.tokens,
    reductionPercent: originalTokens === 0 ? 0 : Math.round(((originalTokens - result.tokens) / originalTokens) * 10000) / 100,
    budgetTokens,
    softLimitEnforced: result.softLimitEnforced,
    latencyMs: Math.round((now() - started) * 100) / 100,
    mode,
    model,
    encoding,
    passes: result.passes,
    removed: result.removed,
  };
}
