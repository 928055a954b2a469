import { estimateTokens, isStructural, type Block, type Doc, type Sentence } from '../doc';
import { MaxHeap } from '../scoring/heap';
import { rankSentences } from '../scoring/importance';
import type { Pass, PassContext } from './context';
import { prunableShare, pruneCandidates } from './prune';

/**
 * How far sentence selection counts on word pruning to follow when a task guides it: a sentence costs
 * its tokens minus this share of what pruning could take out of it, so that more (shorter) sentences
 * relevant to the question survive tight budgets. Without a task, readability wins: whole low-value
 * sentences go first and pruning only closes the last gap.
 */
const PLANNED_PRUNING = 0.6;

/**
 * What selection may drop, from least to most drastic. Relaxed mode stops at the first level; strict
 * mode goes on until the text fits, dropping protected blocks only whole and only at the last level.
 */
const LEVELS = ['prose', 'instructions', 'structure', 'protected'] as const;
export type SelectionLevel = (typeof LEVELS)[number];

/**
 * Pass 5: keeps the most important sentences that fit the budget, in their original order. Protected
 * blocks, headings and instructions stay unless strict mode has nothing else left to drop.
 */
export const select: Pass = {
  name: 'select',
  lossy: true,
  run(doc, context) {
    if (estimateTokens(doc) <= context.budget) return;
    for (const level of LEVELS) {
      selectAt(doc, context, level);
      if (context.mode === 'relaxed' || estimateTokens(doc) <= context.budget) return;
    }
  },
};

interface Unit {
  cost: number;
  score: number;
  order: number;
  termScores?: Map<string, number>;
  sentence?: Sentence;
  block?: Block;
}

/** Task terms already covered by kept sentences count less for the next pick (diversity). */
const COVERED = 0.7;

function selectAt(doc: Doc, { budget, tokenizer }: PassContext, level: SelectionLevel): void {
  const depth = LEVELS.indexOf(level);
  const ranked = rankSentences(doc);
  const planned = doc.task.trim() ? PLANNED_PRUNING : 0;
  const share = doc.english && planned > 0 ? prunableShare(pruneCandidates(doc, tokenizer)) : new Map<Sentence, number>();
  const units: Unit[] = [];
  let fixed = 0;
  const covered = new Map<string, number>();
  const cover = (termScores: Map<string, number>) => {
    for (const term of termScores.keys()) covered.set(term, (covered.get(term) ?? 0) + 1);
  };
  for (const r of ranked) {
    const cost = r.sentence.tokens - planned * (share.get(r.sentence) ?? 0) + 1;
    if ((r.sentence.instruction || r.sentence.userKept) && depth < 1) {
      fixed += cost;
      cover(r.termScores);
    } else units.push({ cost, score: r.score + (r.sentence.instruction || r.sentence.userKept ? 1 : 0), order: r.order, termScores: r.termScores, sentence: r.sentence });
  }
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose') continue;
    const cost = block.tokens + 1;
    const structural = isStructural(block);
    if (structural ? depth < 2 : depth < 3) fixed += cost;
    // Dropped last: structure before protected content, then the largest protected blocks first.
    else units.push({ cost, score: structural ? 2 : 3 - cost / 1e7, order: units.length, block });
  }
  let room = budget - fixed;
  const heap = new MaxHeap<{ priority: number; order: number; unit: Unit }>();
  units.forEach((unit, order) => heap.push({ priority: unit.score, order, unit }));
  const keep = new Set<Unit>();
  // Lazy greedy: a unit's score only falls as coverage grows, so re-score the top one and take it
  // when it still leads.
  while (heap.size > 0 && room > 0) {
    const top = heap.pop()!;
    const current = coveredScore(top.unit, covered);
    if (current < top.priority - 1e-12 && heap.size > 0 && current < heap.peek()!.priority) {
      heap.push({ ...top, priority: current });
      continue;
    }
    if (top.unit.cost <= room) {
      room -= top.unit.cost;
      keep.add(top.unit);
      if (top.unit.termScores) cover(top.unit.termScores);
    }
  }
  // Never select nothing: when no sentence fits whole, keep the best one and let pruning shrink it
  // (strict mode drops it later if even that cannot fit).
  if (budget - fixed > 0 && !units.some((u) => u.sentence && keep.has(u))) {
    const best = units.filter((u) => u.sentence).sort((a, b) => b.score - a.score || a.order - b.order)[0];
    if (best) keep.add(best);
  }
  for (const unit of units) {
    const fits = keep.has(unit);
    if (unit.sentence) unit.sentence.removed = !fits;
    if (unit.block) {
      unit.block.removed = !fits;
      if (!fits && !isStructural(unit.block)) doc.notes.protectedDropped = true;
    }
  }
}

function coveredScore(unit: Unit, covered: Map<string, number>): number {
  if (!unit.termScores || unit.termScores.size === 0) return unit.score;
  let loss = 0;
  for (const [term, value] of unit.termScores) loss += value * (1 - COVERED ** (covered.get(term) ?? 0));
  return unit.score - loss;
}
