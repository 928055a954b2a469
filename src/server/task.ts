import type { Mode, OptimizeErrorCode } from '../core/index';

/** What the server hands a worker: validated request fields plus the input-size limit. */
export interface OptimizeTask {
  text: string;
  budget?: number | string;
  mode?: Mode;
  task?: string;
  model?: string;
  maxInputTokens: number;
}

export interface TaskResult {
  text: string;
  originalTokens: number;
  optimizedTokens: number;
  reductionPercent: number;
  budgetTokens: number;
  softLimitEnforced: boolean;
  /** Compute time inside the worker. */
  latencyMs: number;
  model: string;
  encoding: string;
}

/** Expected refusals travel back as data (a class instance would lose its prototype crossing threads). */
export type TaskOutcome =
  | { ok: true; result: TaskResult }
  | { ok: false; error: { code: OptimizeErrorCode | 'text_too_long'; param: string; message: string } };
