/**
 * What the Language Model Tools tell the user before they run: the progress line and the confirmation.
 * Pure, so unit tests read the exact wording; `tools/languageModelTools.ts` wraps it for VS Code.
 */
import type { BudgetValue } from './budget';

export interface ToolMessages {
  /** Shown while the tool runs. */
  readonly invocation: string;
  readonly confirmation: { readonly title: string; readonly message: string };
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function tokensLabel(tokens: number): string {
  return `${count.format(tokens)} token${tokens === 1 ? '' : 's'}`;
}

/** `budget` as the user reads it: `500 tokens`, `50% (266 tokens)`. */
export function budgetLabel(budget: BudgetValue, budgetTokens: number | undefined): string {
  const asked = typeof budget === 'number' || /^\s*\d+\s*$/.test(budget) ? tokensLabel(Number(budget)) : String(budget).trim();
  return budgetTokens === undefined || asked === tokensLabel(budgetTokens) ? asked : `${asked} (${tokensLabel(budgetTokens)})`;
}

export function optimizeToolMessages(request: { tokens: number; budget: BudgetValue; budgetTokens?: number; mode: string; model: string }): ToolMessages {
  const budget = budgetLabel(request.budget, request.budgetTokens);
  return {
    invocation: `Shortening a prompt of ${tokensLabel(request.tokens)} toward ${budget}`,
    confirmation: {
      title: 'Optimize prompt',
      message:
        `Shorten a prompt of ${tokensLabel(request.tokens)} toward ${budget} (${request.mode}, counted for ${request.model}), on this machine. ` +
        'Code and the final request are kept; rules are kept word for word or dropped whole. The shorter text goes back to the chat: no file is changed and nothing is sent anywhere.',
    },
  };
}

export function countToolMessages(request: { characters: number; model: string }): ToolMessages {
  return {
    invocation: `Counting tokens for ${request.model}`,
    confirmation: {
      title: 'Count tokens',
      message: `Count the tokens of a text of ${count.format(request.characters)} characters with ${request.model}'s tokenizer, on this machine. Nothing is changed or sent anywhere.`,
    },
  };
}
