// Answer survival (SQuAD, XQuAD) as ../shared/docs/evaluation.md defines it: with each question as the task,
// and without a task (one output per context), the project beside its baselines, per language.
import { countTokens, optimize, resolveBudget, type Mode } from '../src/core';
import { bm25Scores, centralityScores, selectSentences, sentencesOf, truncate } from './eval-baselines';
import { normalizeAnswer, table, type Adherence } from './eval-common';
import type { QaGroup } from './eval-data';

export const TASK_BUDGETS = ['50%', '25%', '12.5%'];
export const NO_TASK_BUDGETS = ['50%', '25%'];
const MODES: Mode[] = ['relaxed', 'strict'];

/** Questions that count, and how many survived per method × budget. */
export interface Survival {
  questions: number;
  survived: number[][];
}

/** Each question as the task; methods: head truncation, BM25 sentences, project relaxed, strict. */
export function taskSurvival(groups: QaGroup[], set: string, adherence: Adherence): Survival {
  const result = emptySurvival(4, TASK_BUDGETS.length);
  for (const group of groups) {
    const { context } = group;
    const sentences = sentencesOf(context);
    const budgets = TASK_BUDGETS.map((b) => resolveBudget(b, countTokens(context)));
    const heads = budgets.map((b) => normalizeAnswer(truncate(context, b)));
    for (const { question, gold } of countedQuestions(group)) {
      result.questions++;
      const scores = bm25Scores(sentences, question);
      TASK_BUDGETS.forEach((budget, b) => {
        const outputs = [heads[b]!, normalizeAnswer(selectSentences(sentences, scores, budgets[b]!))];
        for (const mode of MODES) {
          const r = optimize({ text: context, task: question, budget, mode });
          adherence.add(set, mode, r);
          outputs.push(normalizeAnswer(r.text));
        }
        outputs.forEach((output, m) => {
          if (gold.some((g) => output.includes(g))) result.survived[m]![b]!++;
        });
      });
    }
  }
  return result;
}

/** No task, one output per context; methods: head truncation, LexRank-like centrality, project relaxed, strict. */
export function noTaskSurvival(groups: QaGroup[], set: string, adherence: Adherence): Survival {
  const result = emptySurvival(4, NO_TASK_BUDGETS.length);
  for (const group of groups) {
    const { context } = group;
    const sentences = sentencesOf(context);
    const central = centralityScores(sentences);
    const questions = countedQuestions(group);
    result.questions += questions.length;
    NO_TASK_BUDGETS.forEach((budget, b) => {
      const tokens = resolveBudget(budget, countTokens(context));
      const outputs = [truncate(context, tokens), selectSentences(sentences, central, tokens)];
      for (const mode of MODES) {
        const r = optimize({ text: context, budget, mode });
        adherence.add(`${set} (no task)`, mode, r);
        outputs.push(r.text);
      }
      outputs.map(normalizeAnswer).forEach((output, m) => {
        result.survived[m]![b]! += questions.filter(({ gold }) => gold.some((g) => output.includes(g))).length;
      });
    });
  }
  return result;
}

/** Questions whose normalized gold answer occurs in the normalized context, with those answers. */
function countedQuestions(group: QaGroup): { question: string; gold: string[] }[] {
  const context = normalizeAnswer(group.context);
  return group.questions
    .map(({ question, answers }) => ({ question, gold: answers.map(normalizeAnswer).filter((g) => g && context.includes(g)) }))
    .filter(({ gold }) => gold.length > 0);
}

function emptySurvival(methods: number, budgets: number): Survival {
  return { questions: 0, survived: Array.from({ length: methods }, () => new Array<number>(budgets).fill(0)) };
}

function sum(rows: Survival[]): Survival {
  const total = emptySurvival(rows[0]!.survived.length, rows[0]!.survived[0]!.length);
  for (const r of rows) {
    total.questions += r.questions;
    r.survived.forEach((m, i) => m.forEach((n, b) => (total.survived[i]![b]! += n)));
  }
  return total;
}

const rate = (r: Survival, m: number, b: number) => (r.questions ? (100 * r.survived[m]![b]!) / r.questions : NaN);

/** (project − BM25) / (100 − BM25) of one cell; a cell where BM25 is at 100 is closed only when the project is too. */
function closed(project: number, bm25: number): number {
  return bm25 >= 100 ? (project >= 100 ? 1 : 0) : (project - bm25) / (100 - bm25);
}

/** Survival table, rows = language (+ all), columns = method × budget; with a task, BM25's misses closed. */
export function printSurvival(title: string, byLang: Map<string, Survival>, withTask: boolean): void {
  const budgets = withTask ? TASK_BUDGETS : NO_TASK_BUDGETS;
  const names = withTask ? ['head', 'BM25', 'rel', 'str'] : ['head', 'LexRank', 'rel', 'str'];
  const rows = [...byLang].filter(([, r]) => r.questions > 0);
  if (!rows.length) return;
  console.log(`\n${title} — % of questions whose answer survives at budgets ${budgets.join(' / ')} (rel/str = prompt-optimizer relaxed/strict)`);
  const header = ['lang', 'questions', ...names.flatMap((n) => budgets.map((b) => `${n} ${b.replace('%', '')}`))];
  if (withTask) header.push('closed rel', 'closed str');
  const line = (label: string, r: Survival, cells: (mode: number) => number[]) => {
    const row = [label, String(r.questions), ...names.flatMap((_, m) => budgets.map((_, b) => rate(r, m, b).toFixed(1)))];
    if (withTask) row.push(...[2, 3].map((m) => mean(cells(m)).toFixed(2)));
    return row;
  };
  const cellsOf = (r: Survival, m: number) => budgets.map((_, b) => closed(rate(r, m, b), rate(r, 1, b)));
  const body = rows.map(([lang, r]) => line(lang, r, (m) => cellsOf(r, m)));
  if (rows.length > 1) body.push(line('all', sum(rows.map(([, r]) => r)), (m) => rows.flatMap(([, r]) => cellsOf(r, m))));
  table(header, body);
  if (!withTask) return;
  for (const [m, mode] of [[2, 'relaxed'], [3, 'strict']] as const) {
    const cells = rows.flatMap(([lang, r]) => budgets.map((b, i) => ({ cell: `${lang} ${b}`, value: closed(rate(r, m, i), rate(r, 1, i)) })));
    const below = cells.filter((c) => c.value < 0).map((c) => c.cell);
    console.log(
      `half of BM25's misses closed, ${mode}: mean ${mean(cells.map((c) => c.value)).toFixed(2)} over ${cells.length} language × budget cells` +
        ` — cells below BM25: ${below.length}${below.length ? ` (${below.join(', ')})` : ''}`,
    );
  }
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
