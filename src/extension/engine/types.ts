import type { BudgetValue } from '../logic/budget';
import type { ProposalSummary } from '../logic/format';
import type { RemovedUnit } from '../logic/review';
import type { RemoteFailure } from '../logic/remote';
import type { Mode } from '../logic/settings';

export interface EngineRequest {
  readonly text: string;
  readonly budget: BudgetValue;
  readonly mode: Mode;
  readonly task: string;
  readonly model: string;
}

export interface EngineResult extends ProposalSummary {
  readonly text: string;
  readonly engine: 'local' | 'remote';
  readonly latencyMs: number;
  /** What the passes removed; only the local engine reports it (the wire formats carry no such list). */
  readonly removed?: readonly RemovedUnit[];
}

/** Why an engine produced no result. Carries only safe, user-facing text. */
export type EngineFailureInfo =
  | RemoteFailure
  | { readonly kind: 'invalid_options'; readonly code: string; readonly message: string; readonly fallbackSuggested: false };

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(readonly info: EngineFailureInfo) {
    super(info.message);
  }
}

export const cancelled = (): EngineError => new EngineError({ kind: 'cancelled', message: 'Optimization cancelled.', fallbackSuggested: false });

/**
 * Structural check: the remote client may come from the other bundle (see lazy.ts), where
 * `EngineError` is a different class object, so `instanceof` is not enough.
 */
export function isEngineError(error: unknown): error is EngineError {
  return error instanceof Error && error.name === 'EngineError' && typeof (error as { info?: unknown }).info === 'object';
}
