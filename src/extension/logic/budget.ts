/**
 * Budget input from the input box and from settings. The rules themselves belong to the core
 * (`validateBudget`); it is passed in so this module stays free of the tokenizer and loads instantly.
 */

export type BudgetValue = number | string;
/** The core's `validateBudget`: throws an error whose message lists the accepted forms. */
export type BudgetValidator = (budget: unknown) => void;

/**
 * What the user typed, as the core expects it: `" 500 "` → `500`, `"40 %"` → `"40%"`. Anything else is
 * returned trimmed, for the validator to refuse.
 */
export function parseBudgetInput(input: string): BudgetValue {
  const trimmed = input.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const percent = /^(\d+(?:\.\d+)?|\.\d+)\s*%$/.exec(trimmed);
  if (percent) return `${percent[1]}%`;
  return trimmed;
}

/** `validateInput` for the budget box: undefined when valid, else a short message (shown as you type). */
export function budgetInputProblem(input: string, validate: BudgetValidator): string | undefined {
  if (input.trim() === '') return 'Enter a number of tokens (e.g. 500) or a percentage of the original (e.g. 40%).';
  try {
    validate(parseBudgetInput(input));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A budget read from settings: numbers and numeric or percent strings pass through normalized;
 * anything else is reported and replaced by the default.
 */
export function normalizeBudgetSetting(raw: unknown, fallback: number, validate: BudgetValidator): { budget: BudgetValue; problem?: string } {
  const candidate = typeof raw === 'string' ? parseBudgetInput(raw) : raw;
  try {
    validate(candidate);
    return { budget: candidate as BudgetValue };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { budget: fallback, problem: `Setting promptOptimizer.budget is invalid (${reason}); using ${fallback}.` };
  }
}
