// Reduction and retention on awesome-chatgpt-prompts at the default budget (only the safe passes run).
import { optimize } from '../src/core';
import { pct, share, table, type Adherence } from './eval-common';

export function evalCorpus(prompts: string[], adherence: Adherence): void {
  const reductions: number[] = [];
  let literals = 0;
  let retained = 0;
  for (const prompt of prompts) {
    const r = optimize({ text: prompt });
    reductions.push(r.reductionPercent);
    for (const literal of extractLiterals(prompt)) {
      literals++;
      if (r.text.includes(literal)) retained++;
    }
    adherence.add('awesome-chatgpt-prompts (50%)', 'strict', optimize({ text: prompt, budget: '50%', mode: 'strict' }));
    adherence.add('awesome-chatgpt-prompts (50%)', 'relaxed', optimize({ text: prompt, budget: '50%', mode: 'relaxed' }));
  }
  reductions.sort((a, b) => a - b);
  console.log(`\nReduction and retention — awesome-chatgpt-prompts, ${prompts.length} prompts, budget 1000 (relaxed)`);
  table(['median reduction', 'p90 reduction', 'mean reduction', 'literals retained'], [[
    pct(quantile(reductions, 0.5) / 100), pct(quantile(reductions, 0.9) / 100), pct(reductions.reduce((a, b) => a + b, 0) / reductions.length / 100),
    share(retained, literals),
  ]]);
}

/** Numbers, quoted literals and placeholders: what must survive the safe passes verbatim. */
function extractLiterals(text: string): string[] {
  return text.match(/"[^"\n]{1,200}"|\{\{[^}\n]+\}\}|\{[^{}\n]+\}|<[A-Za-z_][\w -]*>|\[[A-Z][A-Z _-]+\]|\d+(?:[.,]\d+)*/g) ?? [];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
