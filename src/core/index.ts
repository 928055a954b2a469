/**
 * Public API of the compression core. Pure TypeScript: no VS Code, no HTTP, no Node-only APIs, so the
 * same code runs in the extension host, a web extension, a worker thread and the CLI.
 */
import { DEFAULT_MODEL, encodingForModel } from './models';
import { hasConstraint, isMeta } from './scoring/rules';
import { libraryCount } from './tokenizer';
import { words } from './text/words';

export { optimize } from './optimize';
export { OptimizeError, isOptimizeError, type OptimizeErrorCode } from './errors';
export { DEFAULT_BUDGET, MAX_BUDGET_TOKENS, resolveBudget, validateBudget, type BudgetInput } from './budget';
export { DEFAULT_MODE, MODES, type Mode, type OptimizeOptions } from './options';
export { DEFAULT_MODEL, KNOWN_MODELS, encodingForModel, type EncodingName } from './models';
export type { OptimizeResult, PassReport, Removal } from './result';

/** Tokens of `text` in the model's real encoding. Special-token strings count as ordinary text. */
export function countTokens(text: string, model: string = DEFAULT_MODEL): number {
  return libraryCount(encodingForModel(model))(text);
}

/**
 * Whether `text` states a rule (a negation, limit or condition) rather than talk about the prompt
 * itself, by the same test the ranking uses: the extension marks proposals that drop such a unit.
 */
export function statesRule(text: string): boolean {
  const scanned = words(text);
  return !isMeta(text, scanned) && hasConstraint(text, scanned);
}
