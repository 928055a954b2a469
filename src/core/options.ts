import { DEFAULT_BUDGET, validateBudget, type BudgetInput } from './budget';
import { OptimizeError } from './errors';
import { DEFAULT_MODEL, encodingForModel, type EncodingName } from './models';

export type Mode = 'strict' | 'relaxed';
export const MODES: readonly Mode[] = ['relaxed', 'strict'];
export const DEFAULT_MODE: Mode = 'relaxed';

export interface OptimizeOptions {
  /** The prompt to shorten. */
  text: string;
  /** Tokens (`500`, `"500"`) or a share of the original (`"40%"`). Default 1000. */
  budget?: BudgetInput;
  /** `relaxed` (default): the budget is a target. `strict`: the budget is a ceiling. */
  mode?: Mode;
  /** What the prompt is for or what will be asked of it; ranking prefers content relevant to it. */
  task?: string;
  /** Target model; decides the tokenizer. Default `gpt-4o`. */
  model?: string;
}

export interface ResolvedOptions {
  text: string;
  budget: BudgetInput;
  mode: Mode;
  task: string;
  model: string;
  encoding: EncodingName;
}

/** Validates untrusted input (from JSON, a form, a terminal) into options the pipeline can trust. */
export function resolveOptions(input: unknown): ResolvedOptions {
  if (typeof input !== 'object' || input === null) throw new OptimizeError('text_invalid', 'text', 'Options must be an object with a "text" string.');
  const { text, budget = DEFAULT_BUDGET, mode = DEFAULT_MODE, task = '', model = DEFAULT_MODEL } = input as Record<string, unknown>;
  if (typeof text !== 'string') throw new OptimizeError('text_invalid', 'text', `Text must be a string; got ${text === null ? 'null' : typeof text}.`);
  validateBudget(budget);
  if (mode !== 'strict' && mode !== 'relaxed') throw new OptimizeError('mode_invalid', 'mode', `Mode must be "relaxed" or "strict"; got ${JSON.stringify(mode)}.`);
  if (typeof task !== 'string') throw new OptimizeError('task_invalid', 'task', `Task must be a string; got ${typeof task}.`);
  if (typeof model !== 'string') throw new OptimizeError('model_unsupported', 'model', `Model must be a string; got ${typeof model}.`);
  return { text, budget, mode, task, model, encoding: encodingForModel(model) };
}
