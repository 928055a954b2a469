import type { OptimizeError } from '../core/index';

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
