import { checkpoint, isFixedBlock, isFixedSentence, isListItem, isProtected, isStructural, render, sentenceText, type Block, type Doc, type Sentence } from '../doc';
import type { Tokenizer } from '../tokenizer';
import { MaxHeap } from '../scoring/heap';
import { rankSentences } from '../scoring/importance';
import { hasConstraint, isMeta, isSpecific, metaPenalty, ruleValue } from '../scoring/rules';
import { isInstruction } from '../scoring/structure';
import { clauseText, keepClauses, type Clause } from '../text/clauses';
import { remeasure, type Pass, type PassContext } from './context';
import { Frames } from './frames';
import { announceBlocks, dropPointersAbove, isInput, keepWhatKeptLeansOn, leanOnShownBlocks, markAnswers, markRepeats, pointAtBlocks, rankNamedBlocks, rankNamedTable, rankPointedInput, rankTitledInput, REPEATED, type Entry } from './links';
import { dropUnpairedTags, isLabel } from './structure';
import { asideUnits, clauseUnits, CONSEQUENCE } from './clause-units';
import { sentenceUnits, withHeads, type Unit } from './units';

/**
 * Pass 5: removes whole units — list items, sentences (with a task, clauses), few-shot examples and,
 * in strict mode, protected blocks — keeping the most valuable ones that fit, in their original order.
 * A section's heading and tags are paid for by the first unit kept under it (see Frames).
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

/**
 * What a prompt asks of the draft it quotes ("Could you grade it and then rewrite it …?"), in its own
 * prose, not in a list of constraints: pinned like the draft's sentences, but above them, which as short
 * sentences ("Lucas Ferreira") would otherwise outrank it.
 */
const asksOfDraft = (unit: Unit, drafted: boolean): boolean =>
  drafted && !!unit.parent && !unit.parent.verbatim && !isListItem(unit.parent) && !!unit.sentences?.some((s) => s.request);

// A lead-in that gives the answer its shape: "Return ONLY a JSON object … with exactly this shape:", "Antworte in
// diesem Format:", "Devuelve solo este JSON:", "以下の形式で出力してください：", "按以下格式输出：".
const SHAPES_ANSWER = /(?<![\p{L}])(?:return|respond|reply|output|answer|format|schema|shape|template|antworte|antwort|ausgabe|gib|devuelve|responde|formato|esquema|renvoie|renvoyez|réponds|répondez|retorne|responda|retorna)(?![\p{L}])|出力|返して|形式|格式|输出|返回/iu;

/** Whether a sentence instructs, constrains or says something specific by itself. */
function saysOwn(sentence: Sentence): boolean {
  if (sentence.instruction) return true;
  const text = sentenceText(sentence);
  return hasConstraint(text) || isSpecific(text);
}

function selectUnits(doc: Doc, { budget, tokenizer, mode }: PassContext): void {
  const strict = mode === 'strict';
  const clausesOf = new Map<Sentence, Clause[]>();
  let frames = new Frames(doc);
  // `kept`: relaxed mode keeps it whatever the budget; `pinned`: strict mode ranks it first.
  const entries: Entry[] = [];
  const add = (unit: Unit, kept: boolean, pinned = kept) => entries.push({ unit, kept, pinned });
  const ranked = rankSentences(doc);
  const proseUnits = sentenceUnits(doc, ranked);
  const instructed = ranked.some((r) => r.sentence.instruction && !r.material);
  for (const unit of proseUnits) {
    // What a lead-in asks ("Classify each ticket into exactly one of these queues:") is worth what it
    // introduces: items that only complete it (the queues, the deliverables) carry its value. An item
    // that instructs or constrains has a value of its own: "Bisect (complex only):" does not make its
    // every step outrank the rules of another section.
    const leadIn = frames.leadIn(unit);
    // A bold label ("4. **Implement fix (if requested)**") titles its items; it asks nothing of them.
    if (leadIn && !isLabel(leadIn.body) && !unit.sentences!.some(saysOwn)) unit.score += Math.max(0, ruleValue(leadIn.body, 0)) + (isInstruction(leadIn.body, doc.english) ? TASK_LEAD_IN : 0);
    const kept = unit.sentences!.some(isFixedSentence);
    const pinned = kept || unit.sentences!.some((s) => s.request);
    // A rule's reason goes before any rule does (prompts only: in a text to read, "because" may be the answer).
    const parts = pinned || !instructed || unit.sentences!.length !== 1 || unit.parent?.verbatim ? [unit] : asideUnits(unit, clausesOf, tokenizer, doc.english);
    for (const part of parts) add(part, kept, pinned);
  }
  let examples = 0;
  let fixed = frames.unframed;
  for (const block of doc.blocks) {
    if (block.removed || block.kind === 'prose' || isStructural(block)) continue;
    const cost = block.tokens + 1;
    // Front matter goes only when it alone is over a strict budget.
    if (block.kind === 'frontmatter') {
      if (strict && block.tokens > budget) (block.removed = true), (doc.notes.protectedDropped = true);
      else fixed += cost;
    }
    else {
      const unit: Unit = { cost, score: block.kind === 'example' ? EXAMPLE_SCORE + (examples++ === 0 ? FIRST_EXAMPLE : 0) : BLOCK_SCORE, order: entries.length, block };
      // What its lead-in asks is worth what the block shows: "Please return ONLY a JSON object … with exactly
      // this shape:" over the schema.
      const leadIn = frames.leadIn(unit);
      if (leadIn && SHAPES_ANSWER.test(leadIn.body) && isInstruction(leadIn.body, doc.english)) unit.score += Math.max(0, ruleValue(leadIn.body, 0)) + TASK_LEAD_IN;
      add(unit, isFixedBlock(block), !!block.pinned);
    }
  }
  markRepeats(entries);
  markAnswers(entries);
  rankNamedBlocks(doc, entries);
  announceBlocks(doc, entries);
  rankPointedInput(doc, entries, strict);
  rankTitledInput(doc, entries, budget);
  rankNamedTable(doc, entries, budget);
  pointAtBlocks(doc, entries, strict);
  leanOnShownBlocks(doc, entries, (unit) => frames.leadIn(unit), strict);
  keepWhatKeptLeansOn(entries);
  const units: Unit[] = [];
  const fixedUnits: Unit[] = []; // kept whatever the budget (relaxed: pinned and protected content)
  const pinnedUnits = new Set<Unit>();
  // A draft to rework: the request's sentences outside it rank above its own.
  const drafted = doc.blocks.some((b) => b.verbatim && b.sentences.some((s) => s.request && !s.removed));
  const ownValued: Unit[] = [];
  for (const { unit, kept, pinned, input } of entries) {
    if (kept && !strict) fixedUnits.push(unit);
    else if (pinned) {
      const pin = input || isInput(unit) ? 2 * PINNED : asksOfDraft(unit, drafted) ? 1.5 * PINNED : PINNED;
      units.push(Object.assign(unit, { score: unit.score + pin, input: input || isInput(unit) }));
      // A transcript's turns and a draft's sentences, pinned as the input, go by their own value per token
      // among themselves: a decision before "Who wants to kick off?", the invoice's number and amount before
      // "Thanks, Dana", which would otherwise win for being short.
      const turn = unit.parent?.sentences.some((s) => s.speaker) && !unit.sentences?.some((s) => s.request);
      const inDraft = unit.parent?.verbatim && unit.sentences?.every((s) => s.request);
      if (turn || inDraft) (unit.pin = pin), ownValued.push(unit);
    } else units.push(unit);
    if (pinned && !(kept && !strict)) pinnedUnits.add(unit);
  }
  // Their pin is paid at the length of the longest of them: none ranks above where it did among the others.
  const longest = ownValued.reduce((n, u) => Math.max(n, u.cost), 0); // no spread: a transcript may have 100,000 turns
  for (const unit of ownValued) unit.pinCost = longest;
  const byCost = doc.task.trim() === '';
  // A prompt's talk to its reader ("Hey, can you help me with something?") never takes budget, even where it
  // fits; an article has no reader to talk to ("不确定" there is a fact about the world).
  const filler = new Set(instructed ? units.filter(talksAboutPrompt) : []);
  const frontMatter = fixed - frames.unframed;
  // One selection: the fixed units, `first` if it fits after them, then the best of the rest that fit.
  const choose = (first?: Unit, before: Iterable<Unit> = []) => {
    const chosen = { keep: new Set<Unit>(), covered: new Map<string, number>(), frames: first ? new Frames(doc) : frames, room: 0, fixed: 0 };
    chosen.fixed = frontMatter + chosen.frames.unframed;
    for (const unit of fixedUnits) {
      chosen.fixed += unit.cost + chosen.frames.open(unit);
      cover(chosen.covered, unit);
    }
    chosen.room = budget - chosen.fixed;
    if (first) {
      // What is never traded goes in first, in the order fill would take it.
      chosen.room = fill([...before], chosen.keep, chosen.covered, chosen.room, byCost, chosen.frames, filler);
      chosen.room = take(first, chosen.keep, chosen.covered, chosen.room, chosen.frames)?.room ?? chosen.room;
    }
    chosen.room = fill(units, chosen.keep, chosen.covered, chosen.room, byCost, chosen.frames, filler);
    return chosen;
  };
  let chosen = choose();
  // Greedy by value per token leaves out a block (code, a table, an example) larger than what is left,
  // however much room that is (a template of 2,000 tokens at a budget of 2,700): a selection that starts
  // with it may be worth more. Sentences are small beside the budget, and a long one is no better for it.
  // Pinned units (the request, the role) are never traded: the other selection must keep those kept.
  if (chosen.room > budget * UNUSED) {
    const worth = (choice: typeof chosen) => [...choice.keep].reduce((n, unit) => n + (pinnedUnits.has(unit) ? 0 : valueOf(unit, byCost)), 0);
    const greedy = chosen;
    const larger = units
      .filter((u) => !!u.block && !greedy.keep.has(u) && !pinnedUnits.has(u) && u.score > 0 && u.cost > greedy.room && u.cost <= budget - greedy.fixed && !u.requires)
      .sort((a, b) => valueOf(b, byCost) - valueOf(a, byCost) || a.order - b.order)
      .slice(0, MAX_LARGER);
    const greedyWorth = worth(greedy);
    let best = greedyWorth;
    for (const unit of larger) {
      const other = choose(unit, pinnedUnits);
      const value = worth(other);
      // The larger unit may take the place of some of what greedy kept, never of most of it: six rules
      // are not traded for one configuration block, three may be.
      const retained = [...greedy.keep].reduce((n, u) => n + (other.keep.has(u) && !pinnedUnits.has(u) ? valueOf(u, byCost) : 0), 0);
      const fair = retained >= greedyWorth * RETAINED && [...pinnedUnits].every((u) => !greedy.keep.has(u) || other.keep.has(u));
      if (other.keep.has(unit) && value > best && fair) (chosen = other), (best = value);
    }
  }
  const { keep, covered } = chosen;
  frames = chosen.frames;
  fixed = chosen.fixed;
  let room = chosen.room;
  // Room a long sentence did not fit into: the main clause of a sentence that says something specific may.
  if (doc.english && room >= MIN_CLAUSE_ROOM) {
    const rankOf = new Map(ranked.map((r) => [r.sentence, r] as const));
    // The most valuable sentences left out only: a long text's every sentence need not be cut into clauses.
    const clauses = units
      .filter((u) => !keep.has(u) && !u.block && u.clause === undefined && u.sentences?.length === 1 && u.score > 0 && u.cost > room && !u.requires && (!u.head || keep.has(u.head)) && !asks(u.sentences[0]!))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, MAX_CLAUSE_SENTENCES)
      .flatMap((u) => clauseUnits(rankOf.get(u.sentences![0]!)!, u, clausesOf, tokenizer).filter((c) => c.clause !== undefined));
    const candidates = clauses.filter((c) => {
      const texts = clauseTexts(c.sentences![0]!, clausesOf);
      return saysSomething(c, texts) && !dropsConstraint(c, texts);
    });
    if (candidates.length > 0) {
      room = fill(candidates, keep, covered, room, byCost, frames);
      // Every clause of a cut sentence is a unit, kept or not: apply cuts by them.
      units.push(...clauses);
    }
  }
  if (keep.size === 0 && fixedUnits.length === 0) {
    // Nothing whole fits: a clause of the best sentences may (strict mode promises no empty text then).
    const fallback = ranked
      .filter((r) => !r.sentence.userKept && !clausesOf.has(r.sentence) && !asks(r.sentence))
      .flatMap((r) => clauseUnits(r, { cost: Infinity, score: r.score, order: r.order, sentences: [r.sentence], parent: parentOf(doc, r.sentence) }, clausesOf, tokenizer))
      .filter((unit) => unit.clause !== undefined);
    fill(fallback, keep, covered, budget - fixed, byCost, frames);
    if (keep.size > 0) units.push(...fallback);
    // Relaxed mode never selects nothing: with no unit that fits, the best one stays (over budget, flagged).
    else if (!strict && units.length > 0) {
      const best = [...units].sort((a, b) => b.score - a.score || a.order - b.order)[0]!;
      for (let unit: Unit | undefined = best; unit && !keep.has(unit); unit = unit.head) keep.add(unit), frames.open(unit);
    }
  }
  keepOnly(doc, units, keep, clausesOf, tokenizer, frames);
  if (room >= REFILL_SHARE * budget) refill(doc, units, { keep, covered, frames, byCost, filler }, clausesOf, { budget, tokenizer });
}

/** Marks the units `keep` holds as kept and the others as removed (see apply), and the structure that follows. */
function keepOnly(doc: Doc, units: readonly Unit[], keep: ReadonlySet<Unit>, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer, frames: Frames): void {
  apply(doc, units, keep, clausesOf, tokenizer);
  frames.dropUnopened();
  dropUnpairedTags(doc);
  dropPointersAbove(doc);
}

/**
 * Where the estimated room left is a large share of the budget (a short prompt of a few long sentences),
 * the slack that unit costs allow for joins may be what kept the next unit out: count the text, and
 * fill what is really left with whole units, allowing one join's slack. Undone if the count says it went over.
 */
const REFILL_SHARE = 0.1;
const REFILL_SLACK = 1;

/** What selection kept and how it chose: what a refill goes on from. */
interface Selection {
  keep: Set<Unit>;
  covered: Map<string, number>;
  frames: Frames;
  byCost: boolean;
  filler: ReadonlySet<Unit>;
}

function refill(doc: Doc, units: readonly Unit[], { keep, covered, frames, byCost, filler }: Selection, clausesOf: Map<Sentence, Clause[]>, { budget, tokenizer }: Pick<PassContext, 'budget' | 'tokenizer'>): void {
  const slack = budget - tokenizer.count(render(doc));
  // A whole unit whose heads are whole units too, up to one kept.
  const whole = (unit: Unit): boolean => {
    for (const u of withHeads(unit)) {
      if (u.clause !== undefined) return false;
      if (!u.head || keep.has(u.head)) return true;
    }
    return true;
  };
  const candidates = units.filter((unit) => !keep.has(unit) && whole(unit) && unit.cost <= slack + REFILL_SLACK);
  if (candidates.length === 0) return;
  const before = new Set(keep);
  const restore = checkpoint(doc);
  fill(candidates, keep, covered, slack + REFILL_SLACK, byCost, frames, filler);
  if (keep.size === before.size) return;
  // Only whole units come in: applying just them leaves every cut sentence as it is.
  keepOnly(doc, [...keep].filter((unit) => !before.has(unit)), keep, clausesOf, tokenizer, frames);
  if (tokenizer.count(render(doc)) > budget) restore();
}

const MIN_CLAUSE_ROOM = 8;
const MAX_CLAUSE_SENTENCES = 16;

/**
 * A question is asked by its last clause: "`customer_email` is `text`; does changing it force a rewrite?"
 * cut to its first clause became "`customer_email` is `text`?". It is kept whole or not at all.
 */
const asks = (sentence: Sentence): boolean => /[?？][)"'”’»」]*\s*$/u.test(sentenceText(sentence));

/** Whether a clause instructs or holds a constraint or something specific, is no aside, and cuts no code span. */
function saysSomething(unit: Unit, texts: readonly string[]): boolean {
  const text = texts[unit.clause!]!;
  // A later clause alone ("keep the list alphabetical") leans on the first unless it states a rule or a
  // fact of its own ("it should only retry on ConnectionError"), or tells the model with its own subject
  // what to do (", you have to write a prompt about it": a comma splice).
  // A sentence's opening condition alone is no sentence: "If a requirement is ambiguous, especially around tax".
  if (unit.clause === 0 && SUBORDINATE_OPENING.test(text)) return false;
  const said = unit.clause === 0 ? text : text.replace(SEPARATOR_OPENING, '');
  // "…, but it's not a hard requirement", "…, so I don't have to edit the formula": what it says is about
  // the clause before.
  if (unit.clause !== 0 && LEANS_BACK.test(said)) return false;
  const ownValue = ruleValue(text, 0) > 0 || ((unit.clause === 0 || (!unit.head && /^you\s/i.test(said))) && isInstruction(said));
  return ownValue && !isMeta(text) && (text.match(/`/g) ?? []).length % 2 === 0;
}

/**
 * Whether keeping the clause (with the clauses it hangs on) would leave out a clause that constrains:
 * "Reply with the answer in one code block, and nothing else." is no rule without its tail.
 */
function dropsConstraint(unit: Unit, texts: readonly string[]): boolean {
  const kept = new Set<number>();
  for (let u: Unit | undefined = unit; u && u.clause !== undefined; u = u.head) kept.add(u.clause);
  for (let c = 0; c < texts.length; c++) {
    if (kept.has(c)) continue;
    const text = texts[c]!;
    // A contrasting instruction qualifies what it follows: "avoid technical details, but use them when
    // necessary" ("…, but in production it keeps retrying" only reports).
    // So does the rule's other branch: "…, in that case ask the finance team", "— otherwise …".
    const said = text.replace(SEPARATOR_OPENING, '');
    if (hasConstraint(text) || CONSEQUENCE.test(said) || (CONTRAST.test(text) && isInstruction(text.replace(CONTRAST, '').trim()))) return true;
  }
  return false;
}

const SEPARATOR_OPENING = /^[\s,;—–-]+/;
// (", so they're read by customers" and ", so the old code must keep working" say something of their own.)
// A rule of its own with "it" for its subject stands: ", and it should only retry on ConnectionError".
const LEANS_BACK = /^(?:(?:but|yet|so|and)\s+)?(?:it(?:'s|’s| is| isn't| isn’t| was)|that(?:'s|’s| is)|this is|which)(?![\p{L}])|^so(?: that)?\s+(?:i|we)\s+(?:don't|don’t|do not|won't|won’t|can|can't|can’t|needn't|never)(?![\p{L}])/iu;
const SUBORDINATE_OPENING = /^[^\p{L}]*(?:if|when|whenever|unless|while|because|since|although|though|once|before|after|until|as long as|in case|even if)\b/iu;
const CONTRAST = /^[\s,;—–-]*(?:but|yet|though|although|however|except|while|whereas)\b/i;

/** The text of each clause of a sentence, by the clauses clauseUnits found for it. */
function clauseTexts(sentence: Sentence, clausesOf: ReadonlyMap<Sentence, Clause[]>): string[] {
  const clauses = clausesOf.get(sentence)!;
  return clauses.map((_, c) => clauseText(sentence.pieces, clauses, c));
}

const parentOf = (doc: Doc, sentence: Sentence): Block | undefined => doc.blocks.find((b) => b.sentences.includes(sentence));

function cover(covered: Map<string, number>, unit: Unit): void {
  if (unit.repeats !== undefined) covered.set(unit.repeats, 1);
  if (unit.termScores) for (const term of unit.termScores.keys()) covered.set(term, (covered.get(term) ?? 0) + 1);
}

/**
 * Lazy greedy: takes the best unit that fits, re-scoring the top one as coverage grows (a unit's score
 * only falls), and goes on past units that do not fit so that smaller ones fill the room. Returns the
 * room left.
 */
function fill(units: readonly Unit[], keep: Set<Unit>, covered: Map<string, number>, room: number, byCost: boolean, frames: Frames, filler: ReadonlySet<Unit> = NONE): number {
  const heap = new MaxHeap<{ priority: number; order: number; unit: Unit }>();
  units.forEach((unit, order) => {
    if (!keep.has(unit)) heap.push({ priority: priorityOf(unit, covered, byCost), order, unit });
  });
  // Units that wait for the block they show to be kept (see pointAtBlocks).
  const waiting = new Map<Unit, { priority: number; order: number; unit: Unit }[]>();
  while (heap.size > 0 && room > 0) {
    const top = heap.pop()!;
    if (keep.has(top.unit)) continue; // came in earlier with a clause that depends on it
    if (top.unit.score <= 0 || filler.has(top.unit)) continue; // filler ("I hope that's enough") never takes budget, even if it fits
    const shown = top.unit.requires;
    if (shown && !keep.has(shown)) {
      const list = waiting.get(shown) ?? [];
      list.push(top);
      waiting.set(shown, list);
      continue;
    }
    const current = priorityOf(top.unit, covered, byCost);
    if (current < top.priority - 1e-12 && heap.size > 0 && current < heap.peek()!.priority) {
      heap.push({ ...top, priority: current });
      continue;
    }
    const taken = take(top.unit, keep, covered, room, frames);
    if (!taken) continue;
    room = taken.room;
    for (const unit of taken.needed) {
      for (const entry of waiting.get(unit) ?? []) heap.push(entry);
      waiting.delete(unit);
    }
  }
  return room;
}

const NONE: ReadonlySet<Unit> = new Set();

/** A unit of the prompt's own prose that only talks to its reader (greetings, hopes, thanks): see metaPenalty. */
const talksAboutPrompt = (unit: Unit): boolean =>
  !unit.block && !unit.parent?.verbatim && !!unit.sentences?.every((s) => !s.pinned && metaPenalty(sentenceText(s), s) > 0);

/** How much unused room (a share of the budget) makes selection try starting with a larger unit. */
const UNUSED = 0.1;
const MAX_LARGER = 2;
/** The share of greedy's value a selection that starts with a larger unit must keep. */
const RETAINED = 0.5;

/** What a unit is worth in all: its value per token (the order fill takes it in) times its tokens. */
const valueOf = (unit: Unit, byCost: boolean): number => priorityOf(unit, new Map(), byCost) * unit.cost;

/**
 * Keeps `unit` if it fits, with what it needs: a dependent clause comes with the clauses it depends on,
 * and the first unit of a section with its heading and tags. Returns the room left and the units kept,
 * or null when they do not fit.
 */
function take(unit: Unit, keep: Set<Unit>, covered: Map<string, number>, room: number, frames: Frames): { room: number; needed: Unit[] } | null {
  const needed = [unit];
  // A head that shows a block not kept ("Where `$X` is …" without its command) is not pulled in, nor the
  // heads above it: the unit comes without them.
  // (A loop of heads, which no pass should make, ends where it comes round.)
  for (let head = unit.head; head && !keep.has(head) && (!head.requires || keep.has(head.requires)) && !needed.includes(head); head = head.head) needed.push(head);
  const cost = needed.reduce((n, u) => n + u.cost, 0) + frames.cost(...needed);
  if (cost > room) return null;
  frames.open(...needed);
  for (const u of needed) {
    keep.add(u);
    cover(covered, u);
  }
  return { room: room - cost, needed };
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
 * Without a task, value per token decides a little (score / cost^0.3): many short specific rules
 * beat one long paragraph. With a task, relevance decides: a relevant long sentence holds the answer.
 * A block's value (code, an example) says nothing of the task: its size counts either way, so a schema
 * of 250 tokens in the middle of a prompt does not outrank its rules.
 */
const COST_WEIGHT = 0.3;

function priorityOf(unit: Unit, covered: Map<string, number>, byCost: boolean): number {
  const score = coveredScore(unit, covered);
  const pin = unit.pin ?? 0;
  return byCost || (unit.block && !unit.block.pinned && !unit.input) ? pin / Math.max(1, unit.pinCost ?? 1) ** COST_WEIGHT + (score - pin) / Math.max(1, unit.cost) ** COST_WEIGHT : score;
}

function coveredScore(unit: Unit, covered: Map<string, number>): number {
  if (unit.repeats !== undefined && covered.has(unit.repeats)) return REPEATED * unit.score;
  if (!unit.termScores || unit.termScores.size === 0) return unit.score;
  let loss = 0;
  for (const [term, value] of unit.termScores) loss += value * (1 - COVERED ** (covered.get(term) ?? 0));
  return unit.score - loss;
}
