import type { OptimizeResult } from '../core/index';

/** The JSON a result is printed as (`optimize --json`, each `batch` line): snake_case fields. */
export interface WireResult {
  text: string;
  original_tokens: number;
  optimized_tokens: number;
  reduction_percent: number;
  budget_tokens: number;
  soft_limit_enforced: boolean;
  latency_ms: number;
  mode: string;
  model: string;
  encoding: string;
}

/** The JSON an error is printed as. `param` is null when no single field is at fault (e.g. bad JSON). */
export interface WireError {
  error: { code: string; message: string; param: string | null; line?: number };
}

/** camelCase core result → snake_case wire object. Pure; the only place the mapping lives. */
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

export function toWireError(code: string, message: string, param: string | null, line?: number): WireError {
  return { error: line === undefined ? { code, message, param } : { code, message, param, line } };
}
