import { estimateTokens, isProtectedBlock, type Block, type Doc, type Sentence } from '../doc';
import { rankSentences } from '../scoring/importance';
import type { Pass, PassContext } from './context';
import { prunableShare, pruneCandidates } from './prune';

/**
 * How far sentence selection counts on word pruning to follow: a sentence costs its tokens minus this
 * share of what pruning could take out of it, so that more (shorter) sentences survive tight budgets.
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
  sentence?: Sentence;
  block?: Block;
}

function selectAt(doc: Doc, { budget, tokenizer }: PassContext, level: SelectionLevel): void {
  const depth = LEVELS.indexOf(level);
  const ranked = rankSentences(doc);
  const share = doc.english ? prunableShare(pruneCandidates(doc, tokenizer)) : new Map<Sentence, number>();
  const units: Unit[] = [];
  let fixed = 0;
  const keep = (cost: number) => (fixed += cost);
  for (const r of ranked) {
    const cost = r.sentence.tokens - PLANNED_PRUNING * (share.get(r.sentence) ?? 0) + 1;
    if (r.sentence.instruction && depth < 1) keep(cost);
    else units.push({ cost, score: r.score + (r.sentence.instruction ? 1 : 0), sentence: r.sentence });
  }
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose') continue;
    const cost = block.tokens + 1;
    const structural = block.kind === 'heading' || block.kind === 'markup';
    if (structural ? depth < 2 : depth < 3) keep(cost);
    // Dropped last: structure before protected content, then the largest protected blocks first.
    else units.push({ cost, score: structural ? 2 : 3 - cost / 1e7, block });
  }
  let room = budget - fixed;
  units.sort((a, b) => b.score - a.score || a.cost - b.cost);
  for (const unit of units) {
    const fits = unit.cost <= room;
    if (fits) room -= unit.cost;
    if (unit.sentence) unit.sentence.removed = !fits;
    if (unit.block) {
      unit.block.removed = !fits;
      if (!fits && isProtectedBlock(unit.block) && unit.block.kind !== 'heading' && unit.block.kind !== 'markup') doc.notes.protectedDropped = true;
    }
  }
}
