import { OptimizeError } from './errors';

export const DEFAULT_BUDGET = 1000;
/** Largest absolute budget accepted; far above any real context window. */
export const MAX_BUDGET_TOKENS = 10_000_000;

export type BudgetInput = number | string;

const ACCEPTED =
  `Budget must be a whole number of tokens from 1 to ${MAX_BUDGET_TOKENS.toLocaleString('en-US')} ` +
  '(e.g. 500 or "500") or a percentage of the original above 0 and at most 100 (e.g. "40%" or "12.5%").';

const PERCENT = /^(\d+(?:\.\d+)?|\.\d+)\s*%$/;
const INTEGER = /^\d+$/;

/** Checks a budget without resolving it. Throws `budget_invalid` with the accepted forms. */
export function validateBudget(budget: unknown): asserts budget is BudgetInput {
  resolveBudget(budget, 0);
}

/**
 * Resolves a budget to tokens. A percentage is of the original count, rounded down, and at least 1
 * token when the original has any (so "1%" of a short prompt still leaves something).
 */
export function resolveBudget(budget: unknown, originalTokens: number): number {
  if (typeof budget === 'number') return checkTokens(budget, String(budget));
  if (typeof budget !== 'string') throw invalid(`got ${budget === null ? 'null' : typeof budget}`);
  const trimmed = budget.trim();
  if (INTEGER.test(trimmed)) return checkTokens(Number(trimmed), JSON.stringify(budget));
  const match = PERCENT.exec(trimmed);
  if (!match) throw invalid(`got ${JSON.stringify(budget)}`);
  const percent = Number(match[1]);
  if (!(percent > 0 && percent <= 100)) throw invalid(`got ${JSON.stringify(budget)}`);
  if (originalTokens === 0) return 0;
  return Math.max(1, Math.floor((originalTokens * percent) / 100 + 1e-9));
}

function checkTokens(tokens: number, shown: string): number {
  if (!Number.isInteger(tokens) || tokens < 1 || tokens > MAX_BUDGET_TOKENS) throw invalid(`got ${shown}`);
  return tokens;
}

function invalid(detail: string): OptimizeError {
  return new OptimizeError('budget_invalid', 'budget', `${ACCEPTED} Instead ${detail}.`);
}
