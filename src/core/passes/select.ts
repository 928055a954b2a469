import { isProtected, isStructural, sentenceText, sentenceWords, type Block, type Doc, type Sentence } from '../doc';
import type { Tokenizer } from '../tokenizer';
import { MaxHeap } from '../scoring/heap';
import { rankSentences, scoreClause, type RankedSentence } from '../scoring/importance';
import { clauseText, keepClauses, splitClauses, type Clause } from '../text/clauses';
import { terms } from '../text/words';
import { remeasure, type Pass, type PassContext } from './context';
import { framesOf, LEAD_IN_LEVEL } from './structure';
import { SOURCE_HEADER } from './segment';
import { isInstruction } from '../scoring/structure';
import { hasConstraint, ruleValue } from '../scoring/rules';

/**
 * Pass 5: removes whole units — list items, sentences (with a task, clauses), few-shot examples and,
 * in strict mode, protected blocks — keeping the most valuable ones that fit, in their original order.
 * Headings and tags stay while their section keeps content; the budget they free is refilled.
 * Relaxed mode keeps front matter, protected blocks, <keep> spans and the pinned final request and
 * role; strict mode ranks those first instead and keeps only front matter fixed.
 */
export const select: Pass = {
  name: 'select',
  lossy: true,
  run(doc, context) {
    selectUnits(doc, context);
  },
};

export interface Unit {
  cost: number;
  score: number;
  order: number;
  termScores?: Map<string, number>;
  /** The sentences the unit stands for (a list item is one unit of all its sentences). */
  sentences?: Sentence[];
  /** The prose block of `sentences`. */
  parent?: Block;
  block?: Block;
  /** A clause of `sentences[0]` (index into its clauses) rather than the whole sentence. */
  clause?: number;
  /** The clause before a dependent clause, kept with it. */
  head?: Unit;
}

/** Task terms already covered by kept units count less for the next pick (diversity). */
const COVERED = 0.7;
/** Ranked above every other unit in strict mode: what relaxed mode would keep whatever the budget. */
const PINNED = 10;
/** Value of a protected block or an example, on the scale of sentence scores (about 0–1.5). */
const BLOCK_SCORE = 0.8;
const EXAMPLE_SCORE = 0.45;
/** A lead-in that instructs ("Classify … into one of these queues:") adds this to what it introduces. */
const TASK_LEAD_IN = 0.3;
/** The first example teaches the format: it outranks the rest. */
const FIRST_EXAMPLE = 0.35;

function selectUnits(doc: Doc, { budget, tokenizer, mode }: PassContext): void {
  const strict = mode === 'strict';
  const clausesOf = new Map<Sentence, Clause[]>();
  const frames = new Frames(doc);
  const units: Unit[] = [];
  const fixedUnits: Unit[] = []; // kept whatever the budget (relaxed: pinned and protected content)
  // `kept`: relaxed mode keeps it whatever the budget; `pinned`: strict mode ranks it first.
  const add = (unit: Unit, kept: boolean, pinned = kept) => {
    if (kept && !strict) fixedUnits.push(unit);
    else units.push(pinned ? { ...unit, score: unit.score + PINNED } : unit);
  };
  const ranked = rankSentences(doc);
  for (const unit of sentenceUnits(doc, ranked, clausesOf, tokenizer)) {
    // What a lead-in asks ("Classify each ticket into exactly one of these queues:") is worth what it
    // introduces: the list carries the lead-in's value.
    const leadIn = frames.leadIn(unit);
    if (leadIn) unit.score += Math.max(0, ruleValue(leadIn.body, 0)) + (doc.english && isInstruction(leadIn.body) ? TASK_LEAD_IN : 0);
    add(unit, unit.sentences!.some((s) => s.pinned || s.userKept));
  }
  let examples = 0;
  let fixed = frames.unframed;
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose' || block.kind === 'heading' || block.kind === 'markup') continue;
    const cost = block.tokens + 1;
    // Front matter goes only when it alone is over a strict budget.
    if (block.kind === 'frontmatter') {
      if (strict && block.tokens > budget) (block.removed = true), (doc.notes.protectedDropped = true);
      else fixed += cost;
    }
    // An example that holds code is code too: relaxed mode keeps it whole.
    else if (block.kind === 'example') add({ cost, score: EXAMPLE_SCORE + (examples++ === 0 ? FIRST_EXAMPLE : 0), order: units.length, block }, !!block.pinned || /^\s*(?:```|~~~)/m.test(block.body), !!block.pinned);
    else add({ cost, score: BLOCK_SCORE, order: units.length, block }, true, !!block.pinned);
  }
  const keep = new Set<Unit>();
  const covered = new Map<string, number>();
  for (const unit of fixedUnits) {
    fixed += unit.cost + frames.open(unit);
    if (unit.termScores) cover(covered, unit.termScores);
  }
  const byCost = doc.task.trim() === '';
  fill(units, keep, covered, budget - fixed, byCost, frames);
  if (keep.size === 0 && fixedUnits.length === 0) {
    // Nothing whole fits: a clause of the best sentences may (strict mode promises no empty text then).
    const fallback = ranked
      .filter((r) => !r.sentence.userKept && !clausesOf.has(r.sentence))
      .flatMap((r) => clauseUnits(r, { cost: Infinity, score: r.score, order: r.order, sentences: [r.sentence], parent: parentOf(doc, r.sentence) }, clausesOf, tokenizer))
      .filter((unit) => unit.clause !== undefined);
    fill(fallback, keep, covered, budget - fixed, byCost, frames);
    if (keep.size > 0) units.push(...fallback);
    // Relaxed mode never selects nothing: with no unit that fits, the best one stays (over budget, flagged).
    else if (!strict && units.length > 0) {
      const best = [...units].sort((a, b) => b.score - a.score || a.order - b.order)[0]!;
      for (let unit: Unit | undefined = best; unit; unit = unit.head) keep.add(unit), frames.open(unit);
    }
  }
  apply(doc, units, keep, clausesOf, tokenizer);
  frames.dropUnopened();
}

const parentOf = (doc: Doc, sentence: Sentence): Block | undefined => doc.blocks.find((b) => b.sentences.includes(sentence));

/**
 * The headings, tag pairs and lead-ins that frame content. A frame costs nothing until the first unit
 * under it is kept, and is dropped at the end if none was: a section is kept with its heading and both
 * tags, or not at all. Structure that frames nothing (a title, a lone tag, a rule line) is fixed.
 */
class Frames {
  private readonly of: Map<Block, Block[]>;
  private readonly opened = new Set<Block>();
  /** Tokens of the structure that frames no content. */
  readonly unframed: number;

  constructor(private readonly doc: Doc) {
    this.of = framesOf(doc);
    const framing = new Set<Block>();
    for (const list of this.of.values()) for (const frame of list) framing.add(frame), frame.tag?.partner && framing.add(frame.tag.partner);
    let unframed = 0;
    for (const block of doc.blocks) if (!block.removed && isStructural(block) && !framing.has(block)) unframed += block.tokens + 1;
    this.unframed = unframed;
  }

  /** Tokens the unit's frames still cost (none once opened). */
  cost(unit: Unit): number {
    let cost = 0;
    for (const frame of this.framesOf(unit)) if (!this.opened.has(frame)) cost += frame.tokens + 1 + (frame.tag?.partner ? frame.tag.partner.tokens + 1 : 0);
    return cost;
  }

  /** Opens the unit's frames; returns what that cost. */
  open(unit: Unit): number {
    const cost = this.cost(unit);
    for (const frame of this.framesOf(unit)) this.opened.add(frame);
    return cost;
  }

  /** The lead-in line the unit stands under, if any. */
  leadIn(unit: Unit): Block | undefined {
    return this.framesOf(unit).find((frame) => frame.level === LEAD_IN_LEVEL);
  }

  dropUnopened(): void {
    for (const list of this.of.values()) {
      for (const frame of list) {
        const removed = !this.opened.has(frame);
        frame.removed = removed;
        if (frame.tag?.partner) frame.tag.partner.removed = removed;
      }
    }
  }

  private framesOf(unit: Unit): readonly Block[] {
    return this.of.get((unit.parent ?? unit.block)!) ?? [];
  }
}

function cover(covered: Map<string, number>, termScores: Map<string, number>): void {
  for (const term of termScores.keys()) covered.set(term, (covered.get(term) ?? 0) + 1);
}

/**
 * Lazy greedy: takes the best unit that fits, re-scoring the top one as coverage grows (a unit's score
 * only falls), and goes on past units that do not fit so that smaller ones fill the room. Returns the
 * room left.
 */
function fill(units: readonly Unit[], keep: Set<Unit>, covered: Map<string, number>, room: number, byCost: boolean, frames: Frames): number {
  const heap = new MaxHeap<{ priority: number; order: number; unit: Unit }>();
  units.forEach((unit, order) => {
    if (!keep.has(unit)) heap.push({ priority: priorityOf(unit, covered, byCost), order, unit });
  });
  while (heap.size > 0 && room > 0) {
    const top = heap.pop()!;
    if (keep.has(top.unit)) continue; // came in earlier with a clause that depends on it
    if (top.unit.score <= 0) continue; // filler ("I hope that's enough") never takes budget, even if it fits
    const current = priorityOf(top.unit, covered, byCost);
    if (current < top.priority - 1e-12 && heap.size > 0 && current < heap.peek()!.priority) {
      heap.push({ ...top, priority: current });
      continue;
    }
    // A dependent clause comes with the clauses it depends on.
    const needed = [top.unit];
    for (let head = top.unit.head; head && !keep.has(head); head = head.head) needed.push(head);
    // Its heading and tags come with the first unit of a section.
    const cost = needed.reduce((n, unit) => n + unit.cost, 0) + frames.cost(top.unit);
    if (cost > room) continue;
    room -= cost;
    frames.open(top.unit);
    for (const unit of needed) {
      keep.add(unit);
      if (unit.termScores) cover(covered, unit.termScores);
    }
  }
  return room;
}

/** Marks what `keep` holds as kept and every other unit as removed; cuts sentences to their kept clauses. */
function apply(doc: Doc, units: readonly Unit[], keep: ReadonlySet<Unit>, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer): void {
  const keptClauses = new Map<Sentence, boolean[]>();
  for (const unit of units) {
    const fits = keep.has(unit);
    if (unit.clause !== undefined) {
      const sentence = unit.sentences![0]!;
      const kept = keptClauses.get(sentence) ?? [];
      kept[unit.clause] = fits;
      keptClauses.set(sentence, kept);
    } else if (unit.sentences) for (const sentence of unit.sentences) sentence.removed = !fits;
    if (unit.block) {
      unit.block.removed = !fits;
      if (!fits && isProtected(unit.block)) doc.notes.protectedDropped = true;
    }
  }
  for (const [sentence, kept] of keptClauses) {
    sentence.removed = !kept.some(Boolean);
    if (sentence.removed || kept.every(Boolean)) continue;
    sentence.pieces = keepClauses(sentence.pieces, clausesOf.get(sentence)!, kept);
    remeasure(sentence, tokenizer);
  }
}

/**
 * The units of kept prose: a list item is one unit (a rule is kept whole or dropped whole); other
 * sentences are one unit each, or, with a task, one per clause of a long sentence.
 */
function sentenceUnits(doc: Doc, ranked: readonly RankedSentence[], clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer): Unit[] {
  const rankOf = new Map<Sentence, RankedSentence>();
  for (const r of ranked) rankOf.set(r.sentence, r);
  const byClause = doc.task.trim() !== '' && doc.english;
  const units: Unit[] = [];
  // Open list items by indentation: a nested item comes only with the item it belongs to.
  const parents: { indent: number; unit: Unit }[] = [];
  for (const group of proseGroups(doc)) {
    const kept = group.flatMap((block) => block.sentences.filter((s) => !s.removed));
    if (kept.length === 0) continue;
    const listItem = isListItem(group[0]!);
    const indent = /^\s*/.exec(group[0]!.prefix)![0].length;
    if (!listItem) parents.length = 0;
    while (parents.length > 0 && parents[parents.length - 1]!.indent >= indent) parents.pop();
    const parent = listItem ? parents[parents.length - 1]?.unit : undefined;
    const first = units.length;
    if (listItem && kept.length > 1) {
      // A rule is kept whole, and a set of definitions ("BILLING: charges, refunds") is one unit.
      const ranks = kept.map((s) => rankOf.get(s)!);
      const termScores = new Map<string, number>();
      for (const r of ranks) for (const [term, value] of r.termScores) termScores.set(term, Math.max(termScores.get(term) ?? 0, value));
      // Worth its best sentence, and a little of each other one: a set says more than one item.
      const best = Math.max(...ranks.map((r) => r.score));
      const score = best + MORE_OF_A_UNIT * (ranks.reduce((n, r) => n + Math.max(0, r.score), 0) - best);
      units.push({ cost: kept.reduce((n, s) => n + s.tokens, JOIN_LIST * group.length), score, order: ranks[0]!.order, termScores, sentences: kept, parent: group[0], head: parent });
    } else {
      let previous: Unit | undefined;
      let titled: Unit | undefined;
      for (const sentence of kept) {
        const r = rankOf.get(sentence)!;
        const whole: Unit = { cost: sentence.tokens + (listItem ? JOIN_LIST : JOIN_SENTENCE), score: r.score, order: r.order, termScores: r.termScores, sentences: [sentence], parent: group[0], head: parent };
        // A sentence with a negation or limit is kept whole: a clause of it could drop the "not".
        const splittable = byClause && !listItem && !sentence.instruction && !sentence.userKept && !sentence.pinned && !hasConstraint(sentenceText(sentence), sentenceWords(sentence));
        if (splittable) units.push(...clauseUnits(r, whole, clausesOf, tokenizer));
        else {
          // "Then …", "That means …", "Without it …" says nothing without the sentence before it, and the
          // text of a retrieved document nothing without its "[Doc 1] …" title.
          if (!byClause && previous && CONTINUES.test(sentenceText(sentence))) whole.head = previous;
          else if (titled && !whole.head) whole.head = titled;
          units.push(whole);
        }
        previous = units[units.length - 1];
        // The title is kept with its text, never alone (a score of 0 is never picked on its own).
        if (previous && previous === units[first] && kept.length > 1 && SOURCE_HEADER.test(sentenceText(sentence))) {
          previous.score = 0;
          titled = previous;
        }
      }
    }
    if (listItem && units.length > first) parents.push({ indent, unit: units[first]! });
  }
  return units;
}

// Openers that lean on the sentence before: kept only with it (without a task; with one, relevance decides).
const CONTINUES = /^[^\p{L}]*(?:then|that means|this means|that is|without (?:it|this|that)|otherwise|in that case|if so|if not|das heißt|dann|sonst|es decir|entonces|si no|c'est-à-dire|sinon|alors|ou seja|então|senão)(?![\p{L}])|^(?:然后|否则|也就是说|つまり|その場合)/iu;

// "BILLING: charges, refunds", "**Starter** — $19 per month": a term and what it stands for.
const DEFINITION = /^(?:\*\*|__|`)?[\p{L}\p{N}][\p{L}\p{N} _./-]{0,30}?(?:\*\*|__|`)?\s*(?:[:：]|\s[—–-]\s)\s*\S/u;
const MORE_OF_A_UNIT = 0.25;
/**
 * What a unit costs beyond its own tokens where it joins the text: the space before a sentence mostly
 * goes into its first word's token and a line break into the previous one (".\n"); a list marker is a
 * token. Half a token of slack each: the exact count after selection catches the rest.
 */
const JOIN_SENTENCE = 0.5;
const JOIN_LIST = 1.5;
/** A set is short: a long run of labelled rules is a list of rules, each kept or dropped on its own. */
const MAX_SET_ITEMS = 12;
const MAX_SET_ITEM_TOKENS = 40;

/**
 * Kept prose blocks, grouped: a run of short definition items at one indentation (the allowed values
 * of a field, the plans on offer, the queues to choose from) is one group, since dropping one changes
 * what the rest mean; every other block is a group of its own.
 */
function proseGroups(doc: Doc): Block[][] {
  const groups: Block[][] = [];
  const isItem = (block: Block) =>
    block.kind === 'prose' && !block.removed && isListItem(block) && block.sentences.length === 1 &&
    block.sentences[0]!.tokens <= MAX_SET_ITEM_TOKENS && DEFINITION.test(block.sentences[0]!.pieces.map((p) => p.text).join(''));
  const indent = (block: Block) => /^\s*/.exec(block.prefix)![0];
  let run: Block[] = [];
  const flush = () => {
    if (run.length >= 2 && run.length <= MAX_SET_ITEMS) groups.push(run);
    else for (const block of run) groups.push([block]);
    run = [];
  };
  for (const block of doc.blocks) {
    if (block.removed || block.kind !== 'prose') continue;
    if (isItem(block) && (run.length === 0 || (doc.blocks.indexOf(block) === doc.blocks.indexOf(run[run.length - 1]!) + 1 && indent(block) === indent(run[0]!)))) {
      run.push(block);
      continue;
    }
    flush();
    if (isItem(block)) run.push(block);
    else groups.push([block]);
  }
  flush();
  return groups;
}

/**
 * A long sentence of task-guided prose as one unit per clause, so that its relevant clause can be kept
 * without the rest.
 */
function clauseUnits(r: RankedSentence, whole: Unit, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer): Unit[] {
  const clauses = splitClauses(r.sentence.pieces);
  if (clauses.length < 2) return [whole];
  clausesOf.set(r.sentence, clauses);
  const units: Unit[] = [];
  let chain = '';
  clauses.forEach((clause, c) => {
    // A dependent clause is kept with the clauses before it, and reads with their words (its subject).
    const text = clauseText(r.sentence.pieces, clauses, c);
    chain = (clause.dependent ? chain : '') + text;
    const { score, termScores } = scoreClause(r, chain, new Set(terms(chain, true)));
    // Clause costs are counted, not estimated: a low estimate would make the tightening loop drop more.
    const unit: Unit = { cost: tokenizer.count(text) + 1 / clauses.length, score, order: r.order, termScores, sentences: [r.sentence], parent: whole.parent, clause: c };
    if (clause.dependent) unit.head = units[c - 1];
    units.push(unit);
  });
  return units;
}

export const isListItem = (block: Block): boolean => /^\s*(?:[-*+•]|\d{1,3}[.)]|[a-zA-Z][.)])\s/.test(block.prefix);

/**
 * Without a task, value per token decides a little (score / cost^0.3): many short specific rules
 * beat one long paragraph. With a task, relevance decides: a relevant long sentence holds the answer.
 */
const COST_WEIGHT = 0.3;

function priorityOf(unit: Unit, covered: Map<string, number>, byCost: boolean): number {
  const score = coveredScore(unit, covered);
  return byCost ? score / Math.max(1, unit.cost) ** COST_WEIGHT : score;
}

function coveredScore(unit: Unit, covered: Map<string, number>): number {
  if (!unit.termScores || unit.termScores.size === 0) return unit.score;
  let loss = 0;
  for (const [term, value] of unit.termScores) loss += value * (1 - COVERED ** (covered.get(term) ?? 0));
  return unit.score - loss;
}
