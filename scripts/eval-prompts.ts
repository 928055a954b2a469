// Annotated prompts (prompts-dev.json) as ../shared/docs/evaluation.md defines them: must_keep items kept
// at 100/50/33% in both modes, droppable items removed at 100%, per language.
import { optimize, type Mode } from '../src/core';
import { fold, occursFolded, pct, table, type Adherence } from './eval-common';
import type { AnnotatedPrompt } from './eval-data';

const BUDGETS = ['100%', '50%', '33%'];
const MODES: Mode[] = ['relaxed', 'strict'];
const LOST_SHOWN = 30;

interface Tally {
  prompts: number;
  mustKeep: number;
  droppable: number;
  kept: Map<string, number>; // `${budget} ${mode}` → must_keep items kept
  removed: Map<Mode, number>; // droppable items removed at 100%
}

export function evalPrompts(items: AnnotatedPrompt[], adherence: Adherence): void {
  const byLang = new Map<string, Tally>();
  const lost: string[] = [];
  let notInInput = 0;
  for (const item of items) {
    const t = byLang.get(item.lang) ?? newTally();
    byLang.set(item.lang, t);
    t.prompts++;
    t.mustKeep += item.must_keep.length;
    t.droppable += item.droppable.length;
    const foldedInput = fold(item.text);
    notInInput += item.must_keep.filter((k) => !occursFolded(foldedInput, fold(k), item.lang)).length;
    for (const budget of BUDGETS)
      for (const mode of MODES) {
        const task = budget === '100%' ? undefined : item.task;
        const r = optimize({ text: item.text, budget, mode, task });
        adherence.add('prompts-dev', mode, r);
        const output = fold(r.text);
        const kept = item.must_keep.filter((k) => occursFolded(output, fold(k), item.lang));
        add(t.kept, `${budget} ${mode}`, kept.length);
        if (budget === '100%') add(t.removed, mode, item.droppable.filter((d) => !occursFolded(output, fold(d), item.lang)).length);
        if (budget === '50%' && mode === 'strict')
          for (const k of item.must_keep) if (!kept.includes(k)) lost.push(`${item.id} [${item.lang}${task ? ', task' : ''}]: ${JSON.stringify(k)}`);
      }
  }

  const cells = BUDGETS.flatMap((b) => MODES.map((m) => `${b} ${m}`));
  console.log(`\nAnnotated prompts — prompts-dev.json, ${items.length} prompts; must_keep kept (the item's task at 50/33%), droppable removed at 100%`);
  const rows = [...byLang, ...(byLang.size > 1 ? [['all', total([...byLang.values()])] as const] : [])].map(([lang, t]) => [
    lang,
    String(t.prompts),
    String(t.mustKeep),
    ...cells.map((c) => pct((t.kept.get(c) ?? 0) / t.mustKeep)),
    String(t.droppable),
    ...MODES.map((m) => pct((t.removed.get(m) ?? 0) / t.droppable)),
  ]);
  table(['lang', 'prompts', 'must_keep', ...cells.map((c) => `kept ${c.replace('relaxed', 'rel').replace('strict', 'str')}`), 'droppable', 'removed 100% rel', 'removed 100% str'], rows);
  if (notInInput) console.log(`note: ${notInInput} must_keep items do not occur in their own folded input (they count as lost everywhere)`);
  console.log(`must_keep items lost at 50% strict: ${lost.length}${lost.length > LOST_SHOWN ? ` (first ${LOST_SHOWN})` : ''}`);
  for (const line of lost.slice(0, LOST_SHOWN)) console.log(`  ${line}`);
}

function newTally(): Tally {
  return { prompts: 0, mustKeep: 0, droppable: 0, kept: new Map(), removed: new Map() };
}

function add<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

function total(tallies: Tally[]): Tally {
  const t = newTally();
  for (const x of tallies) {
    t.prompts += x.prompts;
    t.mustKeep += x.mustKeep;
    t.droppable += x.droppable;
    for (const [k, n] of x.kept) add(t.kept, k, n);
    for (const [k, n] of x.removed) add(t.removed, k, n);
  }
  return t;
}
