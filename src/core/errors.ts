/** Machine-readable reasons an optimize or count call is refused. Adapters map these to their own errors. */
export type OptimizeErrorCode = 'text_invalid' | 'budget_invalid' | 'mode_invalid' | 'model_unsupported' | 'task_invalid';

/** A typed, expected error: bad input, never a bug. `param` names the offending field. */
export class OptimizeError extends Error {
  override readonly name = 'OptimizeError';
  constructor(
    readonly code: OptimizeErrorCode,
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export function isOptimizeError(value: unknown): value is OptimizeError {
  return value instanceof OptimizeError;
}
