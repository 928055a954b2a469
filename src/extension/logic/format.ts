/**
 * Text shown to the user: diff titles, status-bar text and tooltips, result summaries. Pure and
 * deterministic (numbers always use en-US grouping), so it is unit-tested without VS Code.
 */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `1234` → `1,234`. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** `1` → `1 token`, `1234` → `1,234 tokens`. */
export function formatTokens(value: number): string {
  return `${formatCount(value)} ${value === 1 ? 'token' : 'tokens'}`;
}

/**
 * Signed change from `before` to `after` with one decimal and a real minus sign: `−54.1%`, `+3.0%`,
 * `0.0%`. Computed from the two counts so the title never disagrees with the numbers beside it.
 */
export function formatChange(before: number, after: number): string {
  if (before === 0 || before === after) return '0.0%';
  const percent = ((after - before) / before) * 100;
  const rounded = oneDecimal.format(Math.abs(percent));
  if (rounded === '0.0') return '0.0%';
  return `${percent < 0 ? '\u2212' : '+'}${rounded}%`;
}

export interface ProposalSummary {
  readonly originalTokens: number;
  readonly optimizedTokens: number;
  /** Budget in tokens, when known. */
  readonly budgetTokens?: number | undefined;
  /** The budget could not be met; the result is the closest the optimizer could get. */
  readonly softLimitEnforced: boolean;
}

/**
 * Title of the diff editor: `Prompt: 1,234 → 567 tokens (−54.1%)`, and, when the budget could not be
 * met, the reason in words: `Prompt: 1,234 → 900 tokens (−27.1%), over the 500-token budget`.
 */
export function formatDiffTitle(summary: ProposalSummary): string {
  const { originalTokens, optimizedTokens, budgetTokens, softLimitEnforced } = summary;
  const base = `Prompt: ${formatCount(originalTokens)} \u2192 ${formatTokens(optimizedTokens)} (${formatChange(originalTokens, optimizedTokens)})`;
  if (!softLimitEnforced) return base;
  if (budgetTokens !== undefined && optimizedTokens > budgetTokens) return `${base}, over the ${formatCount(budgetTokens)}-token budget`;
  if (budgetTokens !== undefined) return `${base}, budget of ${formatCount(budgetTokens)} met only by dropping protected content`;
  return `${base}, budget not met`;
}

/** One-line message after an optimization, for the notification and the log. */
export function formatResultMessage(summary: ProposalSummary): string {
  const title = formatDiffTitle(summary).replace(/^Prompt: /, '');
  return `Optimized prompt: ${title}. Review the diff, then Accept or Discard.`;
}

export interface CountDisplay {
  /** Tokens counted (or estimated) in the selection, or in the document when nothing is selected. */
  readonly tokens: number;
  /** Tokens of the whole document, when a selection is shown (`87 of 1,234 tokens`). */
  readonly documentTokens?: number | undefined;
  /** True when `tokens`/`documentTokens` are estimates (very large text). */
  readonly estimated: boolean;
  readonly characters: number;
  readonly model: string;
  readonly encoding: string;
  /** The budget setting as written (`1000`, `"40%"`). */
  readonly budget: number | string;
  /** Number of non-empty selections that were summed. */
  readonly selections: number;
  /** For an agent, instruction or prompt file: the token limit its whole text is held against. */
  readonly promptFileLimit?: number | undefined;
}

const approx = (estimated: boolean): string => (estimated ? '\u2248' : '');

/** `$(symbol-numeric) 1,234 tokens`, `$(symbol-numeric) 87 of 1,234 tokens`, `$(symbol-numeric) ≈1,250,000 tokens`. */
export function formatStatusText(display: CountDisplay): string {
  const a = approx(display.estimated);
  if (display.documentTokens !== undefined) {
    return `$(symbol-numeric) ${a}${formatCount(display.tokens)} of ${a}${formatTokens(display.documentTokens)}`;
  }
  return `$(symbol-numeric) ${a}${formatTokens(display.tokens)}`;
}

/** Plain-text tooltip: model, encoding, characters, tokens and the budget from settings. */
export function formatStatusTooltip(display: CountDisplay): string {
  const a = approx(display.estimated);
  const scope = display.documentTokens !== undefined ? (display.selections > 1 ? `${display.selections} selections` : 'Selection') : 'Document';
  const lines = [
    `Prompt Optimizer \u2014 ${scope}`,
    `Model: ${display.model}`,
    `Encoding: ${display.encoding}`,
    `Characters: ${formatCount(display.characters)}`,
    `Tokens: ${a}${formatCount(display.tokens)}${display.documentTokens !== undefined ? ` (document: ${a}${formatCount(display.documentTokens)})` : ''}`,
    `Budget: ${formatBudget(display.budget)}`,
  ];
  if (display.promptFileLimit !== undefined) lines.push(promptFileLine(display.documentTokens ?? display.tokens, display.promptFileLimit, approx(display.estimated)));
  if (display.estimated) lines.push('Estimated: the text is too large to count exactly without slowing the editor.');
  if (display.selections > 1) lines.push('Optimize Prompt uses the primary selection only.');
  lines.push('Click to choose the model.');
  return lines.join('\n');
}

/** `Prompt file: 1,234 of 2,000 tokens (62%)`, or how far over the limit it is. */
export function promptFileLine(tokens: number, limit: number, approxSign = ''): string {
  const share = `${approxSign}${formatCount(tokens)} of ${formatTokens(limit)}`;
  return tokens > limit ? `Prompt file: ${share}, ${formatCount(tokens - limit)} over the limit` : `Prompt file: ${share} (${Math.round((tokens / limit) * 100)}%)`;
}

/** Screen-reader label for the status-bar item. */
export function formatStatusAccessibility(display: CountDisplay): string {
  const about = display.estimated ? 'about ' : '';
  const what = display.documentTokens !== undefined ? `${about}${formatCount(display.tokens)} of ${formatTokens(display.documentTokens)} selected` : `${about}${formatTokens(display.tokens)}`;
  return `${what} for ${display.model}. Budget ${formatBudget(display.budget)}.`;
}

/** `1000` → `1,000 tokens`, `"40%"` → `40% of the original`. */
export function formatBudget(budget: number | string): string {
  if (typeof budget === 'number') return formatTokens(budget);
  const trimmed = budget.trim();
  if (/^\d+$/.test(trimmed)) return formatTokens(Number(trimmed));
  return `${trimmed} of the original`;
}
