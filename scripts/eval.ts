// `npm run eval [-- --only squad,xquad,prompts,structure,corpus] [--langs en,de]`: every figure of
// ../shared/docs/evaluation.md, this project beside simple baselines on the same inputs, in one run.
// Reads ../shared/data beside the repository; a part whose data is absent is skipped.
import { countTokens } from '../src/core';
import { Adherence } from './eval-common';
import { evalCorpus } from './eval-corpus';
import { DATA_DIR, XQUAD_LANGS, loadPrompts, loadPromptsDev, loadRealPrompts, loadSquadGroups, loadXquad } from './eval-data';
import { evalPrompts } from './eval-prompts';
import { evalStructure } from './eval-structure';
import { noTaskSurvival, printSurvival, taskSurvival, type Survival } from './eval-survival';

const PARTS = ['squad', 'xquad', 'prompts', 'structure', 'corpus'] as const;
type Part = (typeof PARTS)[number];

const { only, langs } = parseArgs(process.argv.slice(2));
const adherence = new Adherence();
const timings: string[] = [];
const started = performance.now();

const run: Record<Part, () => string | void> = {
  squad() {
    const groups = loadSquadGroups();
    if (!groups) return 'squad-dev-v1.1-super-bowl-50.json';
    const mean = Math.round(groups.reduce((n, g) => n + countTokens(g.context), 0) / groups.length);
    const title = `Answer survival — SQuAD "Super Bowl 50", ${groups.length} contexts of 8 paragraphs (mean ${mean} tokens)`;
    printSurvival(`${title}, each question as the task`, new Map([['en', taskSurvival(groups, 'SQuAD', adherence)]]), true);
    printSurvival(`${title}, no task`, new Map([['en', noTaskSurvival(groups, 'SQuAD', adherence)]]), false);
  },
  xquad() {
    const withTask = new Map<string, Survival>();
    const noTask = new Map<string, Survival>();
    for (const lang of XQUAD_LANGS.filter((l) => !langs || langs.includes(l))) {
      const groups = loadXquad(lang);
      if (!groups) continue;
      withTask.set(lang, taskSurvival(groups, 'XQuAD', adherence));
      noTask.set(lang, noTaskSurvival(groups, 'XQuAD', adherence));
    }
    if (!withTask.size) return 'xquad-dev/';
    printSurvival('Answer survival — XQuAD dev, one article per context, each question as the task', withTask, true);
    printSurvival('Answer survival — XQuAD dev, one article per context, no task', noTask, false);
  },
  prompts() {
    const items = loadPromptsDev()?.filter((p) => !langs || langs.includes(p.lang));
    if (!items?.length) return 'prompts-dev.json';
    evalPrompts(items, adherence);
  },
  structure() {
    const real = loadRealPrompts();
    const dev = loadPromptsDev()?.filter((p) => !langs || langs.includes(p.lang));
    const sets: [string, { id: string; text: string }[]][] = [];
    if (real) sets.push(['real-prompts-dev', real]);
    if (dev?.length) sets.push(['prompts-dev', dev]);
    if (!sets.length) return 'real-prompts-dev/ and prompts-dev.json';
    evalStructure(sets, adherence);
  },
  corpus() {
    const prompts = loadPrompts();
    if (!prompts) return 'awesome-chatgpt-prompts.csv';
    evalCorpus(prompts, adherence);
  },
};

for (const part of PARTS.filter((p) => !only || only.includes(p))) {
  const t0 = performance.now();
  const missing = run[part]();
  if (missing) console.log(`\n${part}: ${missing} not found in ${DATA_DIR}; skipped.`);
  timings.push(`${part} ${seconds(t0)}`);
  console.log(`(${part} took ${seconds(t0)})`);
}
adherence.print();
console.log(`\neval took ${seconds(started)} (${timings.join(', ')})`);

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

function parseArgs(args: string[]): { only?: Part[]; langs?: string[] } {
  const result: { only?: Part[]; langs?: string[] } = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
    const value = () => (inline ?? args[++i] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (flag === '--only') {
      const parts = value();
      const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
      if (unknown.length) usage(`unknown part ${unknown.join(', ')}`);
      result.only = parts as Part[];
    } else if (flag === '--langs') result.langs = value();
    else usage(`unknown argument ${args[i]}`);
  }
  return result;
}

function usage(problem: string): never {
  console.error(`eval: ${problem}\nusage: npm run eval -- [--only ${PARTS.join(',')}] [--langs en,de,...]\n` +
    '  --langs filters XQuAD and prompts-dev.json (also in the structure part) by language.');
  process.exit(2);
}
