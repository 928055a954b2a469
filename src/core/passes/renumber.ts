import { isGone, sentenceText, type Block, type Doc } from '../doc';
import { LEAD_IN_LEVEL } from './structure';

// "2. ", "  10) ": an ordered list marker, its indentation, number, delimiter and the space after it.
const ORDERED = /^(\s*)(\d{1,3})([.)])(\s+)$/;
// The same marker opening an item that became a lead-in ("5. Call each supported method:" over its
// nested list): a heading whose text holds its marker.
const ORDERED_LEAD_IN = /^(\s*)(\d{1,3})([.)])([ \t]+)/;

/** The ordered-list marker of an item, lead-in or not. */
const markerOf = (block: Block): RegExpExecArray | null =>
  block.kind === 'heading' ? (block.level === LEAD_IN_LEVEL ? ORDERED_LEAD_IN.exec(block.body) : null) : ORDERED.exec(block.prefix);
// "step 3", "rule 2", "Punkt 4", "paso 2": text that points at an item by its number, and a field that
// holds one ('"playbook_item" (number, or null …)', "the rule number").
const POINTS_AT_NUMBER = /\b(?:steps?|rules?|items?|points?|punkt|schritt|regel|paso|regla|étape|règle|passo|regra)\s+\d|(?:step|rule|item|point)(?:["'`]\s*\(|\s+|_)(?:number|no\b|#)/i;

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
    const numbers = run.map((block) => written.get(block) ?? Number(markerOf(block)![2]));
    run.forEach((block, i) => written.set(block, numbers[i]!));
    if (!numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)) continue;
    let next = numbers[0]!;
    for (const block of run) {
      if (isGone(block)) continue;
      const [marker, indent, , delimiter, space] = markerOf(block)!;
      const prefix = `${indent}${next++}${delimiter}${space}`;
      if (prefix === marker) continue;
      changed = true;
      if (block.kind === 'heading') (block as { body: string }).body = prefix + block.body.slice(marker.length);
      else block.prefix = prefix;
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
    if (block.kind !== 'prose' && !markerOf(block)) {
      // An indented block (code, a nested lead-in such as "   - Look for:") belongs to the item above it.
      const nested = indent >= 0 && (block.kind === 'code' || /^[ \t]*/.exec(block.body)![0].length > indent);
      if (!nested) close();
      continue;
    }
    const marker = markerOf(block);
    const depth = marker ? marker[1]!.length : /^\s*/.exec(block.prefix)![0].length;
    if (marker && (indent < 0 || depth === indent)) {
      if (indent < 0) indent = depth;
      run.push(block);
    } else if (!(indent >= 0 && depth > indent)) close(); // a nested item or an item's own paragraph goes on
  }
  close();
  return runs;
}
