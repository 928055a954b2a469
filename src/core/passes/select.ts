import { estimateTokens, isStructural, type Block, type Doc, type Sentence } from '../doc';
import type { Tokenizer } from '../tokenizer';
import { MaxHeap } from '../scoring/heap';
import { rankSentences, scoreClause, type RankedSentence } from '../scoring/importance';
import { clauseText, keepClauses, splitClauses, type Clause } from '../text/clauses';
import { terms } from '../text/words';
import { remeasure, type Pass, type PassContext } from './context';
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
      const planned = selectAt(doc, context, level);
      if (context.mode === 'relaxed' || planned || estimateTokens(doc) <= context.budget) return;
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
  /** A clause of `sentence` (index into its clauses) rather than the whole sentence. */
  clause?: number;
  /** The clause before a dependent clause, kept with it. */
  head?: Unit;
}

/** Task terms already covered by kept sentences count less for the next pick (diversity). */
const COVERED = 0.7;

/**
 * Selects at one level; true when what it kept fits the budget as planned (pruning to follow), so that
 * strict mode goes to a more drastic level only when this one cannot fit: selecting again at the next
 * level would only drop more of what pruning was planned to shorten.
 */
function selectAt(doc: Doc, { budget, tokenizer }: PassContext, level: SelectionLevel): boolean {
  const depth = LEVELS.indexOf(level);
  const ranked = rankSentences(doc);
  const planned = doc.task.trim() ? PLANNED_PRUNING : 0;
  const share = doc.english && planned > 0 ? prunableShare(pruneCandidates(doc, tokenizer)) : new Map<Sentence, number>();
  const units: Unit[] = [];
  let fixed = 0;
  const clausesOf = new Map<Sentence, Clause[]>();
  const covered = new Map<string, number>();
  const cover = (termScores: Map<string, number>) => {
    for (const term of termScores.keys()) covered.set(term, (covered.get(term) ?? 0) + 1);
  };
  for (const r of ranked) {
    const cost = r.sentence.tokens - planned * (share.get(r.sentence) ?? 0) + 1;
    if ((r.sentence.instruction || r.sentence.userKept) && depth < 1) {
      fixed += cost;
      cover(r.termScores);
    } else if (planned > 0 && doc.english && !r.sentence.instruction && !r.sentence.userKept) {
      units.push(...clauseUnits(r, cost, clausesOf, tokenizer));
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
    if (keep.has(top.unit)) continue; // came in earlier with a clause that depends on it
    const current = coveredScore(top.unit, covered);
    if (current < top.priority - 1e-12 && heap.size > 0 && current < heap.peek()!.priority) {
      heap.push({ ...top, priority: current });
      continue;
    }
    // A dependent clause comes with the clauses it depends on.
    const needed = [top.unit];
    for (let head = top.unit.head; head && !keep.has(head); head = head.head) needed.push(head);
    const cost = needed.reduce((n, unit) => n + unit.cost, 0);
    if (cost <= room) {
      room -= cost;
      for (const unit of needed) {
        keep.add(unit);
        if (unit.termScores) cover(unit.termScores);
      }
    }
  }
  // Never select nothing: when no sentence fits whole, keep the best one and let pruning shrink it
  // (strict mode drops it later if even that cannot fit).
  let asPlanned = budget - fixed >= 0;
  if (budget - fixed > 0 && !units.some((u) => u.sentence && keep.has(u))) {
    asPlanned = false;
    const best = units.filter((u) => u.sentence).sort((a, b) => b.score - a.score || a.order - b.order)[0];
    for (let unit = best; unit; unit = unit.head) keep.add(unit);
  }
  const keptClauses = new Map<Sentence, boolean[]>();
  for (const unit of units) {
    const fits = keep.has(unit);
    if (unit.sentence && unit.clause !== undefined) {
      const kept = keptClauses.get(unit.sentence) ?? [];
      kept[unit.clause] = fits;
      keptClauses.set(unit.sentence, kept);
    } else if (unit.sentence) unit.sentence.removed = !fits;
    if (unit.block) {
      unit.block.removed = !fits;
      if (!fits && !isStructural(unit.block)) doc.notes.protectedDropped = true;
    }
  }
  for (const [sentence, kept] of keptClauses) {
    sentence.removed = !kept.some(Boolean);
    if (sentence.removed || kept.every(Boolean)) continue;
    sentence.pieces = keepClauses(sentence.pieces, clausesOf.get(sentence)!, kept);
    remeasure(sentence, tokenizer);
  }
  return asPlanned;
}

/**
 * A long sentence of task-guided prose as one unit per clause, so that its relevant clause can be kept
 * without the rest. Each clause costs its own tokens less its share (by length) of the planned pruning.
 */
function clauseUnits(r: RankedSentence, cost: number, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer): Unit[] {
  const whole: Unit = { cost, score: r.score, order: r.order, termScores: r.termScores, sentence: r.sentence };
  const clauses = splitClauses(r.sentence.pieces);
  if (clauses.length < 2) return [whole];
  clausesOf.set(r.sentence, clauses);
  const total = clauses.reduce((n, c) => n + c.length, 0) || 1;
  const units: Unit[] = [];
  let chain = '';
  clauses.forEach((clause, c) => {
    // A dependent clause is kept with the clauses before it, and reads with their words (its subject).
    const text = clauseText(r.sentence.pieces, clauses, c);
    chain = (clause.dependent ? chain : '') + text;
    const { score, termScores } = scoreClause(r, chain, new Set(terms(chain, true)));
    // Clause costs are counted, not estimated: a low estimate would make the tightening loop drop more.
    const own = tokenizer.count(text);
    const unit: Unit = { cost: own - ((r.sentence.tokens + 1 - cost) * clause.length) / total + 1 / clauses.length, score, order: r.order, termScores, sentence: r.sentence, clause: c };
    if (clause.dependent) unit.head = units[c - 1];
    units.push(unit);
  });
  return units;
}

function coveredScore(unit: Unit, covered: Map<string, number>): number {
  if (!unit.termScores || unit.termScores.size === 0) return unit.score;
  let loss = 0;
  for (const [term, value] of unit.termScores) loss += value * (1 - COVERED ** (covered.get(term) ?? 0));
  return unit.score - loss;
}
