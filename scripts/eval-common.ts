// Shared by the eval parts: the text normalizations of ../shared/docs/evaluation.md, tables, and the
// budget-adherence tally every part feeds.
import type { Mode, OptimizeResult } from '../src/core';

/** Answer normalization (survival): lowercase, NFKC, non letter/digit/space → space, no a/an/the, single spaces. */
export function normalizeAnswer(text: string): string {
  return dropArticles(text.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}\s]/gu, ' '));
}

/** Contractions expanded (on straight quotes): don't → do not, can't → cannot, -n't → not, 'll, 're, 've, I'm, it's. */
export function expandContractions(text: string): string {
  return text
    .replace(/\bcan't\b/gi, 'cannot')
    .replace(/\bwon't\b/gi, 'will not')
    .replace(/\bshan't\b/gi, 'shall not')
    .replace(/(?<=\p{L})n't(?!\p{L})/giu, ' not')
    .replace(/(?<=\p{L})'ll(?!\p{L})/giu, ' will')
    .replace(/(?<=\p{L})'re(?!\p{L})/giu, ' are')
    .replace(/(?<=\p{L})'ve(?!\p{L})/giu, ' have')
    .replace(/\bi'm\b/gi, 'i am')
    .replace(/\bit's\b/gi, 'it is');
}

/**
 * Folding for must_keep / droppable items: lowercase, NFKC, curly quotes straight, contractions expanded,
 * punctuation other than `$ % { } [ ] < > / @ _ -` → space, no a/an/the, single spaces.
 */
export function fold(text: string): string {
  const straight = text.toLowerCase().normalize('NFKC').replace(/[‘’‚‛′]/g, "'").replace(/[“”„‟″]/g, '"');
  return dropArticles(expandContractions(straight).replace(/(?![$%{}\[\]<>/@_\-])[\p{P}\p{S}]/gu, ' '));
}

/** Whether folded `item` occurs in folded `text` as whole words; for zh/ja spaces are ignored. */
export function occursFolded(text: string, item: string, lang: string): boolean {
  if (lang === 'zh' || lang === 'ja') return text.replace(/\s/g, '').includes(item.replace(/\s/g, ''));
  return ` ${text} `.includes(` ${item} `);
}

function dropArticles(text: string): string {
  return text.split(/\s+/).filter((w) => w && w !== 'a' && w !== 'an' && w !== 'the').join(' ');
}

export function pct(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : '—';
}

/** `n/d (x%)`, or — when there is nothing to count. */
export function share(n: number, d: number): string {
  return d ? `${n}/${d} (${pct(n / d)})` : '—';
}

export function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/** Budget adherence of every project run, by set: strict never over; relaxed over only with the soft limit. */
export class Adherence {
  private readonly sets = new Map<string, Record<Mode, { runs: number; over: number; overWithoutSoft: number; soft: number }>>();

  add(set: string, mode: Mode, r: OptimizeResult): void {
    if (!this.sets.has(set)) this.sets.set(set, { strict: zero(), relaxed: zero() });
    const t = this.sets.get(set)![mode];
    const over = r.optimizedTokens > r.budgetTokens;
    t.runs++;
    if (over) t.over++;
    if (over && !r.softLimitEnforced) t.overWithoutSoft++;
    if (r.softLimitEnforced) t.soft++;
  }

  print(): void {
    if (!this.sets.size) return;
    console.log('\nBudget adherence — every project run above (strict: never over; relaxed: over only with the soft limit)');
    const rows: string[][] = [];
    for (const [set, modes] of this.sets)
      for (const mode of ['strict', 'relaxed'] as const) {
        const t = modes[mode];
        if (t.runs) rows.push([set, mode, String(t.runs), share(t.over, t.runs), String(t.overWithoutSoft), String(t.soft)]);
      }
    table(['set', 'mode', 'runs', 'over budget', 'over without soft limit', 'soft limit used'], rows);
  }
}

function zero() {
  return { runs: 0, over: 0, overWithoutSoft: 0, soft: 0 };
}
