import { checkpoint, estimateTokens, isFixedBlock, isFixedSentence, isListItem, isProtected, isStructural, keptSentences, render, sentenceText, type Doc } from './doc';
import type { PassReport, Removal } from './result';
import { cleanup } from './passes/cleanup';
import type { Pass, PassContext } from './passes/context';
import type { CountedText } from './tokenizer';
import { dedupe } from './passes/dedupe';
import { elision } from './passes/elide';
import { prune } from './passes/prune';
import { rewrite } from './passes/rewrite';
import { segment } from './passes/segment';
import { select } from './passes/select';
import { dropEmptyStructure } from './passes/structure';
import { removals, snapshot, type Snapshot } from './trace';

/**
 * The compression pipeline after segmentation. Safe passes keep the meaning and always run; lossy
 * passes run only while the text is over budget: whole units first, then meaning-free words, and
 * articles last, so that a prompt that fits reads as the user wrote it.
 */
export const PASSES: readonly Pass[] = [cleanup, rewrite, dedupe, select, prune, elision];

/** Passes whose removals the result reports (cleanup only changes spacing; rewrite, see below). */
const REPORTED = new Set(['dedupe', 'select', 'prune', 'elide']);

export interface PipelineOutput {
  text: string;
  tokens: number;
  softLimitEnforced: boolean;
  passes: PassReport[];
  removed: Removal[];
}

const MAX_TIGHTENING = 6;
/** A checkpoint of the document with the lengths of the removal and pass reports at that moment. */
type Mark = { restore: () => void; removed: number; passes: number };
/** The lossy passes that edit words inside kept units. */
const WORD_PASSES: readonly Pass[] = [prune, elision];

/** `original` is the prompt as the tokenizer counted it: sentence counts come from its chunks. */
export function runPipeline(original: CountedText, task: string, context: PassContext): PipelineOutput {
  const first = compress(original, task, context);
  if (first.overflow === undefined) return first.output;
  // Relaxed mode, and the protected content alone is over the budget: the output is over it anyway (and
  // flagged). The rest of the prompt is then shortened by the ratio asked for, not to nothing: code
  // without the instructions about it is no prompt.
  const target = first.output.tokens + Math.floor((first.overflow * context.budget) / Math.max(1, original.tokens));
  const second = compress(original, task, { ...context, budget: target }).output;
  return { ...second, softLimitEnforced: second.softLimitEnforced || second.tokens > context.budget };
}

/**
 * One run of the passes toward `context.budget`. `overflow`: in relaxed mode, when only what it keeps
 * whatever the budget is left and that is over it, the tokens of everything else.
 */
function compress(original: CountedText, task: string, context: PassContext): { output: PipelineOutput; overflow?: number } {
  const { tokenizer, budget, mode } = context;
  const doc = segment(original.text, task, tokenizer, original, mode === 'strict' ? budget : Infinity);
  const passes: PassReport[] = [{ name: 'segment', tokens: estimateTokens(doc) }];
  const removed: Removal[] = [];
  // The document as the last reported pass left it: only passes change it, so the next one starts there.
  let latest: Snapshot | null = null;
  const run = (pass: Pass, passContext: PassContext) => {
    if (!REPORTED.has(pass.name)) {
      // Rewording is no loss, but an aside dropped whole ("Thanks so much!") is a sentence the user should see go.
      const kept = pass === rewrite ? keptSentences(doc) : null;
      pass.run(doc, passContext);
      latest = null;
      if (kept) for (const sentence of kept) if (sentence.removed) removed.push({ pass: pass.name, kind: 'sentence', text: sentenceText(sentence) });
      return;
    }
    const before = latest ?? snapshot(doc);
    pass.run(doc, passContext);
    latest = snapshot(doc);
    removed.push(...removals(pass.name, doc, before, latest));
  };
  const measure = () => {
    const text = render(doc);
    return { text, tokens: tokenizer.count(text) };
  };
  // A pass run and reported with its estimate.
  const step = (pass: Pass, passContext: PassContext) => {
    run(pass, passContext);
    passes.push({ name: pass.name, tokens: estimateTokens(doc) });
  };
  // The document now, and how much had been reported by then; rollBack returns to it.
  const mark = (): Mark => ({ restore: checkpoint(doc), removed: removed.length, passes: passes.length });
  const rollBack = (to: Mark) => {
    to.restore();
    removed.length = to.removed;
    passes.length = to.passes;
    latest = null;
  };
  let exact: { text: string; tokens: number } | null = null;
  // Counted once before the first loss and once before the first word edit (see below).
  const checked = new Set<'units' | 'words'>();
  let beforeLoss = -1;
  // The document before the first loss: a tighter run starts again from it (see below).
  let lossless: Mark | null = null;
  for (const pass of PASSES) {
    if (pass.lossy) {
      // A section the safe passes emptied (a greeting alone under its heading) loses its heading too.
      if (beforeLoss < 0) dropEmptyStructure(doc);
      const estimate = estimateTokens(doc);
      if (beforeLoss < 0) beforeLoss = estimate;
      if (estimate <= budget) continue;
      // The estimate errs high where units join, by at most a token a unit: when it is that close to the
      // budget, count once before the first loss, which may not be needed, and once before words are cut
      // from what selection kept (articles would go for an estimate).
      const phase = WORD_PASSES.includes(pass) ? 'words' : 'units';
      if (!checked.has(phase) && checked.add(phase) && estimate - unitCount(doc) <= budget && (exact = measure()).tokens <= budget) break;
      exact = null;
      lossless ??= mark();
    }
    step(pass, context);
  }
  let { text: output, tokens } = exact ?? measure();
  // Per-unit counts can miss a few tokens where units join. What was kept first loses meaning-free
  // words toward a tighter target: a whole section should not go for a token or two.
  if (tokens > budget) {
    const kept = mark();
    const tighter: PassContext = { ...context, budget: Math.max(0, budget - (tokens - budget) - 2) };
    for (const pass of WORD_PASSES) step(pass, tighter);
    const shorter = measure();
    if (shorter.tokens <= budget) ({ text: output, tokens } = shorter);
    else rollBack(kept);
  }
  // Still over: the lossy passes run again toward a tighter target, from the document as it was
  // before the first loss. Cutting into what the first run left could leave nothing (every unit
  // had been chosen for the room of the others), and nothing could come back.
  let target = budget;
  for (let attempt = 1; tokens > budget && attempt <= MAX_TIGHTENING; attempt++) {
    const before = tokens;
    target = Math.max(0, target - (tokens - budget) - attempt * 2);
    lossless ??= mark();
    rollBack(lossless);
    const tighter: PassContext = { ...context, budget: target };
    for (const pass of PASSES) if (pass.lossy) step(pass, tighter);
    ({ text: output, tokens } = measure());
    if (tokens >= before && mode === 'relaxed') break; // only kept content is left
  }
  if (tokens > budget) {
    const before = latest ?? snapshot(doc);
    output = dropUntilFits(doc, context);
    tokens = tokenizer.count(output);
    removed.push(...removals('fit', doc, before, snapshot(doc)));
  }
  passes.push({ name: 'render', tokens });
  const emptied = output.trim() === '' && original.text.trim() !== '';
  const softLimitEnforced = emptied || (mode === 'strict' ? doc.notes.protectedDropped : tokens > budget);
  const overflow = mode === 'relaxed' && tokens > budget && beforeLoss > tokens && onlyFixedContent(doc) ? beforeLoss - tokens : undefined;
  return { output: { text: output, tokens, softLimitEnforced, passes, removed }, overflow };
}

/** Whether relaxed mode keeps something whatever the budget: protected, pinned or <keep> content. */
function hasFixedContent(doc: Doc): boolean {
  return doc.blocks.some((block) => !block.removed && (block.kind === 'prose' ? block.sentences.some((s) => !s.removed && isFixedSentence(s)) : isFixedBlock(block)));
}

/** Whether all that is left is what relaxed mode keeps whatever the budget (front matter is protected). */
function onlyFixedContent(doc: Doc): boolean {
  return doc.blocks.every((block) => block.removed || isStructural(block) || (block.kind === 'prose' ? block.sentences.every((s) => s.removed || isFixedSentence(s)) : isFixedBlock(block)));
}

/** Blocks and sentences the text is made of: each join can cost the estimate a token. */
function unitCount(doc: Doc): number {
  let units = 0;
  for (const block of doc.blocks) if (!block.removed) units += block.kind === 'prose' ? block.sentences.length + 1 : 1;
  return units;
}

/**
 * The last resort when joins still cost a few tokens too many: drop the least valuable kept unit
 * (sentence, example, block; front matter last) until the text fits. Never cuts inside a unit. Relaxed
 * mode drops only what it may drop at all: never protected blocks, front matter, pinned or <keep> text.
 */
function dropUntilFits(doc: Doc, { tokenizer, budget, mode }: PassContext): string {
  type Droppable = { value: number; tokens: number; drop: () => void };
  const strict = mode === 'strict';
  const units: Droppable[] = [];
  for (const block of doc.blocks) {
    if (block.removed || block.kind !== 'prose') continue;
    const droppable = block.sentences.filter((sentence) => !sentence.removed && !(!strict && (isFixedSentence(sentence) || sentence.leanedOn)));
    // A list item is one rule: its sentences go together ("8. `vat_rate` is a percentage … If lines have
    // different VAT rates, put the rate of the first line …" must not lose its first sentence alone).
    if (isListItem(block) && droppable.length > 1) {
      const value = Math.max(...droppable.map((s) => s.score + (s.pinned ? 10 : 0)));
      units.push({ value, tokens: droppable.reduce((n, s) => n + s.tokens, 0), drop: () => droppable.forEach((s) => (s.removed = true)) });
      continue;
    }
    for (const sentence of droppable) units.push({ value: sentence.score + (sentence.pinned ? 10 : 0), tokens: sentence.tokens, drop: () => (sentence.removed = true) });
  }
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose' || isStructural(block) || (!strict && isFixedBlock(block))) continue;
    const value = block.kind === 'frontmatter' ? 100 : block.kind === 'example' ? 0.5 : 0.8 + (block.pinned ? 10 : 0);
    units.push({
      value,
      tokens: block.tokens,
      drop: () => {
        block.removed = true;
        if (isProtected(block)) doc.notes.protectedDropped = true;
      },
    });
  }
  units.sort((a, b) => b.value - a.value); // stable: among equals the last unit goes first
  // Relaxed mode never empties a prompt: its best unit stays when nothing it must keep does.
  const last = strict || hasFixedContent(doc) ? 0 : 1;
  let output = render(doc);
  let tokens = tokenizer.count(output);
  while (units.length > last && tokens > budget) {
    // Drop as many of the least valuable units as the excess needs, then count once: a count of the
    // whole text per dropped unit was most of the time of a long prompt.
    let excess = tokens - budget;
    while (units.length > last && excess > 0) {
      const unit = units.pop()!;
      unit.drop();
      excess -= Math.max(1, unit.tokens);
    }
    dropEmptyStructure(doc);
    output = render(doc);
    tokens = tokenizer.count(output);
  }
  if (strict && tokens > budget) {
    // Only structure without content is left (an unpaired tag, a rule line): nothing of it fits.
    for (const block of doc.blocks) block.removed = true;
    output = '';
  }
  return output;
}

