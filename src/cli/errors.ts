import type { OptimizeError } from '../core/index';

/**
 * A core `OptimizeError`, recognized by shape so that this module (and the dispatcher) need not load the
 * core eagerly; `instanceof` would force it.
 */
export function isOptimizeErrorLike(error: unknown): error is OptimizeError {
  return (
    error instanceof Error &&
    error.name === 'OptimizeError' &&
    typeof (error as Partial<OptimizeError>).code === 'string' &&
    typeof (error as Partial<OptimizeError>).param === 'string'
  );
}

/** The command-line flag (or input) a core error parameter corresponds to. */
export function flagForParam(param: string): string {
  switch (param) {
    case 'text':
      return 'input text';
    case 'budget':
    case 'mode':
    case 'task':
    case 'model':
      return `--${param}`;
    default:
      return param;
  }
}

/** One line for stderr that names the offending flag, e.g. `invalid --budget (budget_invalid): …`. */
export function describeOptimizeError(error: OptimizeError): string {
  return `invalid ${flagForParam(error.param)} (${error.code}): ${error.message}`;
}
