import type { OptimizeResult } from '../core/index';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `1,234` */
export function formatCount(n: number): string {
  return integer.format(n);
}

/** `−54.1%` for a reduction, `+3.0%` for growth, `0%` for none. */
export function formatChange(reductionPercent: number): string {
  if (reductionPercent > 0) return `\u2212${reductionPercent.toFixed(1)}%`;
  if (reductionPercent < 0) return `+${(-reductionPercent).toFixed(1)}%`;
  return '0%';
}

/** Milliseconds, whole above 10 ms, one decimal below. */
export function formatMs(ms: number): string {
  return ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

/**
 * The one-line summary printed on stderr after `optimize`, e.g.
 * `1,234 → 567 tokens (−54.1%), budget 600, gpt-4o, relaxed, 12 ms`, plus the soft-limit case in words.
 */
export function summaryLine(result: OptimizeResult): string {
  const parts = [
    `${formatCount(result.originalTokens)} \u2192 ${formatCount(result.optimizedTokens)} tokens (${formatChange(result.reductionPercent)})`,
    `budget ${formatCount(result.budgetTokens)}`,
    result.model,
    result.mode,
    formatMs(result.latencyMs),
  ];
  let line = parts.join(', ');
  const over = result.optimizedTokens - result.budgetTokens;
  if (result.softLimitEnforced) {
    if (result.mode === 'strict') line += result.text.trim() === '' ? '; soft limit: no part of the prompt fits the budget' : '; soft limit: protected content had to be dropped (whole) to fit the budget';
    else if (over > 0)
      line += `; soft limit: ${formatCount(over)} token${over === 1 ? '' : 's'} over budget, because protected content and the request alone exceed it`;
    else line += '; soft limit enforced';
  } else if (over > 0) {
    line += `; ${formatCount(over)} token${over === 1 ? '' : 's'} over budget`;
  }
  return line;
}

const KIND_NAMES: Record<OptimizeResult['removed'][number]['kind'], string> = {
  sentence: 'sentence', example: 'example', block: 'block', clause: 'part of a sentence', words: 'words',
};

/** What `--explain` prints: one line per removal, the pass and what kind of unit, then its text shortened. */
export function explainLines(result: OptimizeResult, width = 100): string[] {
  if (result.removed.length === 0) return ['Nothing was removed: only meaning-preserving edits were made.'];
  return result.removed.map((removal) => {
    const text = removal.text.replace(/\s+/g, ' ').trim();
    const shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    return `- ${removal.pass}: ${KIND_NAMES[removal.kind]}: ${shown}`;
  });
}
