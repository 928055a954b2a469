import { resolveBudget } from './budget';
import { now } from './clock';
import { resolveOptions, type OptimizeOptions } from './options';
import type { OptimizeResult } from './result';
import { tokenizerFor } from './tokenizer';

/**
 * Shortens `text` toward `budget` tokens. Deterministic: the same options give the same text.
 * Throws `OptimizeError` on invalid options, and nothing else on any string.
 */
export function optimize(options: OptimizeOptions): OptimizeResult {
  const started = now();
  const { text, budget, mode, model, encoding } = resolveOptions(options);
  const tokenizer = tokenizerFor(encoding);
  const originalTokens = tokenizer.count(text);
  const budgetTokens = resolveBudget(budget, originalTokens);
  // Provisional: the pass pipeline lands in the next commits.
  const output = text;
  const optimizedTokens = tokenizer.count(output);
  return {
    text: output,
    originalTokens,
    optimizedTokens,
    reductionPercent: originalTokens === 0 ? 0 : Math.round(((originalTokens - optimizedTokens) / originalTokens) * 10000) / 100,
    budgetTokens,
    softLimitEnforced: optimizedTokens > budgetTokens,
    latencyMs: Math.round((now() - started) * 100) / 100,
    mode,
    model,
    encoding,
    passes: [],
  };
}
