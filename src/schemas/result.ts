import type { OptimizeResult } from '../core/result';

/** The JSON a result is printed as (`optimize --json`, each `batch` line): snake_case fields. */
export interface WireResult {
  text: string;
  original_tokens: number;
  optimized_tokens: number;
  reduction_percent: number;
  budget_tokens: number;
  soft_limit_enforced: boolean;
  latency_ms: number;
  mode: OptimizeResult['mode'];
  model: string;
  encoding: string;
}

/** camelCase core result → snake_case wire object. Pure; the only place the mapping lives (CLI output, the agent tools). */
export function toWireResult(result: OptimizeResult): WireResult {
  return {
    text: result.text,
    original_tokens: result.originalTokens,
    optimized_tokens: result.optimizedTokens,
    reduction_percent: result.reductionPercent,
    budget_tokens: result.budgetTokens,
    soft_limit_enforced: result.softLimitEnforced,
    latency_ms: result.latencyMs,
    mode: result.mode,
    model: result.model,
    encoding: result.encoding,
  };
}
