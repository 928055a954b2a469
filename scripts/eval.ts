// `npm run eval`: answer survival, reduction/retention and budget adherence, this project beside
// simple baselines on the same inputs, in one run. Reads ../shared/data; skips when it is absent.
import { countTokens, optimize, type Mode } from '../src/core';
import { loadPrompts, loadSquadGroups, normalizeAnswer } from './eval-data';
import { bm25Sentences, truncate } from './eval-baselines';

const BUDGETS = [0.5, 0.25, 0.125];
const groups = loadSquadGroups();
const prompts = loadPrompts();
if (!groups || !prompts) {
  console.log('eval: ../shared/data not found beside the repository; nothing to evaluate.');
  process.exit(0);
}

type Method = { name: string; run: (context: string, question: string, budget: number) => string };
const ours = (mode: Mode): Method => ({
  name: `prompt-optimizer (${mode})`,
  run: (text, task, budget) => optimize({ text, task, budget, mode }).text,
});
const methods: Method[] = [
  { name: 'head truncation', run: (text, _q, budget) => truncate(text, budget) },
  { name: 'BM25 sentences', run: (text, q, budget) => bm25Sentences(text, q, budget) },
  ours('relaxed'),
  ours('strict'),
];

const adherence = { strictRuns: 0, strictOver: 0, relaxedRuns: 0, relaxedOver: 0, relaxedOverWithoutSoft: 0, softLimit: 0 };
function checkAdherence(mode: Mode, text: string, task: string, budget: number | string): void {
  const r = optimize({ text, task, budget, mode });
  const over = r.optimizedTokens > r.budgetTokens;
  if (mode === 'strict') (adherence.strictRuns++, (adherence.strictOver += over ? 1 : 0));
  else {
    adherence.relaxedRuns++;
    if (over) adherence.relaxedOver++;
    if (over && !r.softLimitEnforced) adherence.relaxedOverWithoutSoft++;
  }
  if (r.softLimitEnforced) adherence.softLimit++;
}

// 1. Answer survival on SQuAD.
const questionCount = groups.reduce((n, g) => n + g.questions.length, 0);
const survived = methods.map(() => BUDGETS.map(() => 0));
const started = performance.now();
for (const group of groups) {
  const tokens = countTokens(group.context);
  for (const { question, answers } of group.questions) {
    const gold = answers.map(normalizeAnswer);
    BUDGETS.forEach((share, b) => {
      const budget = Math.max(1, Math.floor(tokens * share));
      methods.forEach((method, m) => {
        const output = normalizeAnswer(method.run(group.context, question, budget));
        if (gold.some((g) => output.includes(g))) survived[m]![b]!++;
      });
      checkAdherence('strict', group.context, question, budget);
      checkAdherence('relaxed', group.context, question, budget);
    });
  }
}
console.log(`\nAnswer survival — SQuAD "Super Bowl 50", ${groups.length} contexts of 8 paragraphs (mean ${Math.round(groups.reduce((n, g) => n + countTokens(g.context), 0) / groups.length)} tokens), ${questionCount} questions as the task`);
table(['method', ...BUDGETS.map((b) => `${b * 100}% budget`)], methods.map((m, i) => [m.name, ...survived[i]!.map((s) => pct(s / questionCount))]));

// 2. Reduction and retention on awesome-chatgpt-prompts, default budget (only the safe passes run).
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
  checkAdherence('strict', prompt, '', '50%');
  checkAdherence('relaxed', prompt, '', '50%');
}
reductions.sort((a, b) => a - b);
console.log(`\nReduction and retention — awesome-chatgpt-prompts, ${prompts.length} prompts, budget 1000 (relaxed)`);
table(['median reduction', 'p90 reduction', 'mean reduction', 'literals retained'], [[
  pct(quantile(reductions, 0.5) / 100), pct(quantile(reductions, 0.9) / 100), pct(reductions.reduce((a, b) => a + b, 0) / reductions.length / 100),
  `${retained}/${literals} (${pct(literals ? retained / literals : 1)})`,
]]);

// 3. Budget adherence over both sets.
console.log('\nBudget adherence — both sets (SQuAD at 50/25/12.5% with the question; prompts at 50%)');
table(['mode', 'runs', 'over budget', 'over budget without soft limit', 'soft limit used'], [
  ['strict', String(adherence.strictRuns), String(adherence.strictOver), '—', '—'],
  ['relaxed', String(adherence.relaxedRuns), `${adherence.relaxedOver} (${pct(adherence.relaxedOver / adherence.relaxedRuns)})`, String(adherence.relaxedOverWithoutSoft), String(adherence.softLimit)],
]);
console.log(`\neval took ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** Numbers, quoted literals and placeholders: what must survive the safe passes verbatim. */
function extractLiterals(text: string): string[] {
  return text.match(/"[^"\n]{1,200}"|\{\{[^}\n]+\}\}|\{[^{}\n]+\}|<[A-Za-z_][\w -]*>|\[[A-Z][A-Z _-]+\]|\d+(?:[.,]\d+)*/g) ?? [];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}
