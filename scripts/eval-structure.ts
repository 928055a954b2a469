// Real prompts (structure) as ../shared/docs/evaluation.md defines it: front matter, tag pairs, restriction
// words (beside head truncation), empty outputs, fenced code blocks and budget, at the default budget, 50%, 25%.
import { countTokens, DEFAULT_BUDGET, optimize, type Mode } from '../src/core';
import { truncate } from './eval-baselines';
import { expandContractions, pct, share, table, type Adherence } from './eval-common';

const BUDGETS: (string | undefined)[] = [undefined, '50%', '25%'];
const MODES: Mode[] = ['relaxed', 'strict'];
const RESTRICTIONS = ['never', 'do not', 'does not', 'did not', 'must not', 'only', 'always', 'at most', 'unless', 'except', 'without', 'not', 'cannot']
  .map((w) => new RegExp(`\\b${w.replace(' ', '\\s+')}\\b`, 'g'));

interface Doc {
  id: string;
  text: string;
}

export function evalStructure(sets: [string, Doc[]][], adherence: Adherence): void {
  console.log('\nStructure — no task; front matter byte for byte, tag pairs (outside fenced code), restriction words (Σmin(out,in)/Σin), fenced code blocks byte for byte');
  const rows: string[][] = [];
  for (const [set, docs] of sets)
    for (const budget of BUDGETS) {
      const head = { in: 0, kept: 0 };
      const runs = MODES.map((mode) => ({ mode, frontMatter: 0, frontMatterKept: 0, tags: 0, broken: 0, restriction: { in: 0, kept: 0 }, empty: 0, flagged: 0, blocks: 0, blocksKept: 0, within: 0, fits: 0, withinFits: 0, fitsAll: 0, withinAll: 0 }));
      for (const { text } of docs) {
        const frontMatter = frontMatterOf(text);
        const fenced = fencedBlocks(text);
        const blocks = fenced.blocks;
        const tables = markdownTables(fenced.outside);
        runs.forEach((t) => {
          const r = optimize({ text, budget, mode: t.mode });
          adherence.add(`${set} (structure)`, t.mode, r);
          if (t.mode === 'relaxed') keptRestrictions(text, truncate(text, r.budgetTokens), head);
          if (frontMatter !== null) (t.frontMatter++, (t.frontMatterKept += r.text.includes(frontMatter) ? 1 : 0));
          const tags = brokenTagPairs(text, r.text);
          (t.tags += tags.checked), (t.broken += tags.broken);
          keptRestrictions(text, r.text, t.restriction);
          if (text.trim() && !r.text.trim()) (t.empty++, (t.flagged += r.softLimitEnforced ? 1 : 0));
          t.blocks += blocks.length;
          t.blocksKept += blocks.filter((b) => r.text.includes(b)).length;
          t.within += r.optimizedTokens <= r.budgetTokens ? 1 : 0;
          // Relaxed mode keeps fenced code and front matter whatever the budget: where they alone fit, the
          // output must fit too. Tables are protected blocks as well (issue: "only protected blocks, front
          // matter, <keep> spans and the final request may hold the output over budget").
          const protectedTokens = countTokens([frontMatter ?? '', ...blocks].join('\n'));
          if (protectedTokens <= r.budgetTokens) (t.fits++, (t.withinFits += r.optimizedTokens <= r.budgetTokens ? 1 : 0));
          if (protectedTokens + (tables.length ? countTokens(tables.join('\n')) : 0) <= r.budgetTokens) (t.fitsAll++, (t.withinAll += r.optimizedTokens <= r.budgetTokens ? 1 : 0));
        });
      }
      for (const t of runs)
        rows.push([
          `${set} (${docs.length})`, budget ?? `default (${DEFAULT_BUDGET})`, t.mode,
          share(t.frontMatterKept, t.frontMatter), `${t.broken} of ${t.tags}`,
          pct(t.restriction.kept / t.restriction.in), pct(head.kept / head.in),
          `${t.empty} (${t.flagged} flagged)`, share(t.blocksKept, t.blocks), share(t.within, docs.length), share(t.withinFits, t.fits), share(t.withinAll, t.fitsAll),
        ]);
    }
  table(['set', 'budget', 'mode', 'front matter kept', 'broken tag pairs', 'restriction kept', 'head trunc. restriction', 'empty outputs', 'code blocks kept', 'within budget', 'within, where code + front matter fit', 'within, where code + front matter + tables fit'], rows);
}

/** From a leading `---` line to the next `---` line, or null. */
function frontMatterOf(text: string): string | null {
  return /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?=\r?\n|$)/.exec(text)?.[0] ?? null;
}

/** GitHub-style tables: runs of two or more lines that open with "|" (text outside fenced code). */
function markdownTables(text: string): string[] {
  return [...text.matchAll(/(?:^[ \t]*\|.*(?:\n|$)){2,}/gm)].map((m) => m[0].trimEnd());
}

/** Fenced code blocks (``` or ~~~, closed by the same fence at least as long, or the end) and the text outside them. */
function fencedBlocks(text: string): { blocks: string[]; outside: string } {
  const blocks: string[] = [];
  const outside: string[] = [];
  let open: { fence: string; lines: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      open.lines.push(line);
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close && close[0] === open.fence[0] && close.length >= open.fence.length) (blocks.push(open.lines.join('\n')), (open = null));
      continue;
    }
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) open = { fence, lines: [line] };
    else outside.push(line);
  }
  if (open) blocks.push(open.lines.join('\n'));
  return { blocks, outside: outside.join('\n') };
}

/** Tag names with as many openings as closings in the input (outside fenced code) that lose that balance in the output. */
function brokenTagPairs(input: string, output: string): { checked: number; broken: number } {
  const before = tagCounts(fencedBlocks(input).outside);
  const after = tagCounts(fencedBlocks(output).outside);
  const balanced = [...before].filter(([, c]) => c.open === c.close).map(([name]) => name);
  const broken = balanced.filter((name) => {
    const o = after.get(name) ?? { open: 0, close: 0 };
    return o.open !== o.close;
  });
  return { checked: balanced.length, broken: broken.length };
}

function tagCounts(text: string): Map<string, { open: number; close: number }> {
  const counts = new Map<string, { open: number; close: number }>();
  const get = (name: string) => counts.get(name) ?? counts.set(name, { open: 0, close: 0 }).get(name)!;
  for (const m of text.matchAll(/<([A-Za-z][\w.:-]*)(?:\s[^<>]*)?>/g)) if (!m[0].endsWith('/>')) get(m[1]!).open++;
  for (const m of text.matchAll(/<\/([A-Za-z][\w.:-]*)\s*>/g)) get(m[1]!).close++;
  return counts;
}

/** Adds Σ in and Σ min(out, in) of the restriction words, counted after expanding contractions. */
function keptRestrictions(input: string, output: string, into: { in: number; kept: number }): void {
  const prepare = (s: string) => expandContractions(s.toLowerCase().replace(/[‘’]/g, "'"));
  const a = prepare(input);
  const b = prepare(output);
  for (const re of RESTRICTIONS) {
    const n = a.match(re)?.length ?? 0;
    into.in += n;
    into.kept += Math.min(n, b.match(re)?.length ?? 0);
  }
}
