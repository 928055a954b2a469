import { isGone, sentenceText, type Block, type Doc } from '../doc';

// "2. ", "  10) ": an ordered list marker, its indentation, number, delimiter and the space after it.
const ORDERED = /^(\s*)(\d{1,3})([.)])(\s+)$/;
// "step 3", "rule 2", "Punkt 4", "paso 2": text that points at an item by its number.
const POINTS_AT_NUMBER = /\b(?:steps?|rules?|items?|points?|punkt|schritt|regel|paso|regla|étape|règle|passo|regra)\s+\d/i;

// The number each item was written with, before any renumbering.
const written = new WeakMap<Block, number>();

/**
 * After removals, numbers the kept items of each ordered list again from its first number, so that a
 * list that lost its item 1 does not start at "2." nor skip "3.". Lists whose numbers were not in
 * sequence ("1. 1. 1.") stay as written, and so does every list when the prompt refers to an item by
 * number ("see step 3"). Returns whether a marker changed.
 */
export function renumberLists(doc: Doc): boolean {
  const runs = orderedRuns(doc.blocks).filter((run) => run.some(isGone) || run.some((block) => written.has(block)));
  if (runs.length === 0) return false;
  if (doc.blocks.some((b) => b.kind === 'prose' && b.sentences.some((s) => POINTS_AT_NUMBER.test(sentenceText(s))))) return false;
  let changed = false;
  for (const run of runs) {
    const numbers = run.map((block) => written.get(block) ?? Number(ORDERED.exec(block.prefix)![2]));
    run.forEach((block, i) => written.set(block, numbers[i]!));
    if (!numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)) continue;
    let next = numbers[0]!;
    for (const block of run) {
      if (isGone(block)) continue;
      const [, indent, , delimiter, space] = ORDERED.exec(block.prefix)!;
      const prefix = `${indent}${next++}${delimiter}${space}`;
      if (prefix !== block.prefix) (block.prefix = prefix), (changed = true);
    }
  }
  return changed;
}

/** Runs of ordered items at one indentation: nested items may sit between them; anything else ends a run. */
function orderedRuns(blocks: readonly Block[]): Block[][] {
  const runs: Block[][] = [];
  let run: Block[] = [];
  let indent = -1;
  const close = () => {
    if (run.length > 1) runs.push(run);
    run = [];
    indent = -1;
  };
  for (const block of blocks) {
    if (block.kind !== 'prose') {
      // An indented block (code, a nested lead-in such as "   - Look for:") belongs to the item above it.
      const nested = indent >= 0 && (block.kind === 'code' || /^[ \t]*/.exec(block.body)![0].length > indent);
      if (!nested) close();
      continue;
    }
    const marker = ORDERED.exec(block.prefix);
    const depth = /^\s*/.exec(block.prefix)![0].length;
    if (marker && (indent < 0 || depth === indent)) {
      if (indent < 0) indent = depth;
      run.push(block);
    } else if (!(indent >= 0 && depth > indent)) close(); // a nested item or an item's own paragraph goes on
  }
  close();
  return runs;
}
