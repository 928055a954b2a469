import { checkpoint, isFixedBlock, isFixedSentence, isListItem, isMaterial, isProtected, isStructural, render, sentenceText, type Block, type Doc, type Sentence } from '../doc';
import type { Tokenizer } from '../tokenizer';
import { MaxHeap } from '../scoring/heap';
import { rankSentences } from '../scoring/importance';
import { hasConstraint, isMeta, isSpecific, metaPenalty, ruleValue } from '../scoring/rules';
import { isInstruction } from '../scoring/structure';
import { lastAnswer } from '../prompt/examples';
import { clauseText, keepClauses, type Clause } from '../text/clauses';
import { remeasure, type Pass, type PassContext } from './context';
import { Frames } from './frames';
import { isLabel, LEAD_IN_LEVEL } from './structure';
import { asideUnits, clauseUnits, CONSEQUENCE, sentenceUnits, type Unit } from './units';

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

/** Whether a sentence instructs, constrains or says something specific by itself. */
function saysOwn(sentence: Sentence): boolean {
  if (sentence.instruction) return true;
  const text = sentenceText(sentence);
  return hasConstraint(text) || isSpecific(text);
}

/** `input`: ranked with the final input, above the other pinned units (see rankPointedInput). */
type Entry = { unit: Unit; kept: boolean; pinned: boolean; input?: boolean };

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
    else add({ cost, score: block.kind === 'example' ? EXAMPLE_SCORE + (examples++ === 0 ? FIRST_EXAMPLE : 0) : BLOCK_SCORE, order: entries.length, block }, isFixedBlock(block), !!block.pinned);
  }
  markRepeats(entries);
  markAnswers(entries);
  announceBlocks(doc, entries);
  rankPointedInput(doc, entries);
  rankNamedTable(doc, entries, budget);
  pointAtBlocks(doc, entries, strict);
  keepWhatKeptLeansOn(entries);
  const units: Unit[] = [];
  const fixedUnits: Unit[] = []; // kept whatever the budget (relaxed: pinned and protected content)
  const pinnedUnits = new Set<Unit>();
  for (const { unit, kept, pinned, input } of entries) {
    if (kept && !strict) fixedUnits.push(unit);
    else units.push(pinned ? Object.assign(unit, { score: unit.score + PINNED + (input || isInput(unit) ? PINNED : 0) }) : unit);
    if (pinned && !(kept && !strict)) pinnedUnits.add(unit);
  }
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
      .filter((u) => !keep.has(u) && !u.block && u.clause === undefined && u.sentences?.length === 1 && u.score > 0 && u.cost > room && !u.requires && (!u.head || keep.has(u.head)))
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
  keepOnly(doc, units, keep, clausesOf, tokenizer, frames);
  if (room >= REFILL_SHARE * budget) refill(doc, units, { keep, covered, frames, byCost, filler }, clausesOf, { budget, tokenizer });
}

/** Marks the units `keep` holds as kept and the others as removed (see apply), and the structure that follows. */
function keepOnly(doc: Doc, units: readonly Unit[], keep: ReadonlySet<Unit>, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer, frames: Frames): void {
  apply(doc, units, keep, clausesOf, tokenizer);
  frames.dropUnopened();
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
  const whole = (unit: Unit): boolean => unit.clause === undefined && (!unit.head || keep.has(unit.head) || whole(unit.head));
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

/**
 * A lead-in that points back at the block right above it ("Default fix direction for every anti-pattern
 * above:" after the anti-pattern table) points at nothing once that block went: its items stay, without it.
 */
function dropPointersAbove(doc: Doc): void {
  doc.blocks.forEach((block, i) => {
    if (block.removed || block.kind !== 'heading' || block.level !== LEAD_IN_LEVEL || !ABOVE.test(block.body)) return;
    const before = doc.blocks[i - 1];
    if (before?.removed && before.kind !== 'prose' && !isStructural(before)) block.removed = true;
  });
}
const ABOVE = /(?<![\p{L}])(?:above|oben|ci-dessus|arriba|acima)(?![\p{L}])/iu;

/**
 * What relaxed mode keeps whatever the budget keeps what it leans on: "Mark it with `it.skip` and put a
 * comment … in exactly this form:", kept with its template, is kept with "If a migrated test fails …, do
 * not delete the test." before it in its paragraph, or it would read as a rule for every test.
 */
function keepWhatKeptLeansOn(entries: readonly Entry[]): void {
  const entryOf = new Map<Unit, Entry>();
  for (const entry of entries) entryOf.set(entry.unit, entry);
  for (const entry of entries) {
    if (!entry.kept) continue;
    for (let head = entry.unit.head, unit = entry.unit; head; unit = head, head = head.head) {
      const leaned = entryOf.get(head);
      if (!leaned || leaned.kept || head.parent !== unit.parent) break;
      leaned.kept = true;
      // The last resort of the pipeline drops the least valuable sentence first: never what is leaned on.
      const dependent = Math.max(...unit.sentences!.map((s) => s.score));
      for (const sentence of head.sentences!) sentence.score = Math.max(sentence.score, dependent);
    }
  }
}

/**
 * The final input, pinned like the role and the closing request but ranked above them: where only one
 * fits, "First request: "I need a story on perseverance."" says more than "Act as a storyteller."
 */
const isInput = (unit: Unit): boolean => !!unit.block?.pinned || !!unit.sentences?.some((s) => s.input);

/**
 * The input a request points at ("Could you translate these UI strings …?" before the strings' JSON,
 * "Pourriez-vous traduire cette clause …" before « … »): where one block of material follows the
 * request, strict mode ranks both above the other pinned units. A prompt to translate without its text
 * asks nothing.
 */
function rankPointedInput(doc: Doc, entries: readonly Entry[]): void {
  const pointing = (s: Sentence) => !!s.request && !s.removed && POINTS_AT.test(sentenceText(s));
  const at = doc.blocks.findIndex((b) => b.kind === 'prose' && b.sentences.some(pointing));
  if (at < 0) return;
  const material = doc.blocks.slice(at + 1).filter((b) => !b.removed && (isMaterial(b) || isQuotation(b)));
  if (material.length !== 1) return;
  // The request and its input rank first, the request (shorter, and saying what to do) usually before.
  for (const entry of entries) {
    const request = entry.unit.parent === doc.blocks[at] && !!entry.unit.sentences?.some(pointing);
    if (request || (entry.unit.block ?? entry.unit.parent) === material[0]) entry.pinned = entry.input = true;
  }
}

/**
 * A prompt's one table that its text names ("Use the numbers from the table only", "die 2 Punkte aus der
 * Tabelle") is the data it asks about: strict mode ranks it with the pinned units while it takes at most
 * half of the budget (a larger one would leave no room for what to do with it).
 */
function rankNamedTable(doc: Doc, entries: readonly Entry[], budget: number): void {
  const tables = doc.blocks.filter((b) => !b.removed && b.kind === 'table');
  if (tables.length !== 1) return;
  const named = doc.blocks.some((b) => b.kind === 'prose' && !b.verbatim && b.sentences.some((s) => !s.removed && TABLE_WORD.test(sentenceText(s))));
  if (!named) return;
  for (const entry of entries) if (entry.unit.block === tables[0] && entry.unit.cost <= budget / 2) entry.pinned = true;
}
const TABLE_WORD = /(?<![\p{L}])(?:table|tabelle|vergleichstabelle|tabla|tableau|tabela)(?![\p{L}])|表格|预算表|の表|表を/iu;

// "these UI strings", "cette clause", "diesen Text", "este correo", "esse texto", "この文章", "这段代码".
const POINTS_AT = /(?<![\p{L}])(?:this|these|the following|the attached|cette|ces|cet|diese[nmrs]?|folgenden?|este|esta|estos|estas|esse|essa|esses|essas)(?![\p{L}])|この|これら|以下の|这段|这个|这些|下面的/iu;
// A quotation of some length, labelled or not: "Clause 11.2 : « En cas de manquement … »".
const QUOTATION = /^[^«"“„]{0,40}[«"“„][^»"”“]{60,}[»"”“]\s*$/u;
const isQuotation = (block: Block): boolean =>
  block.kind === 'prose' && !isListItem(block) && block.sentences.length === 1 && QUOTATION.test(sentenceText(block.sentences[0]!));

/**
 * A sentence that ends its paragraph with a colon announces the block after it ("Las tablas son estas:"
 * before the schema, "My draft:" before the quoted draft): it comes only with that block, never alone,
 * and relaxed mode keeps it with a block it keeps.
 */
function announceBlocks(doc: Doc, entries: Entry[]): void {
  const entryOf = new Map<Block, Entry[]>();
  for (const entry of entries) {
    const owner = entry.unit.block ?? entry.unit.parent;
    if (!owner) continue;
    const list = entryOf.get(owner);
    if (list) list.push(entry);
    else entryOf.set(owner, [entry]);
  }
  doc.blocks.forEach((block, i) => {
    const next = doc.blocks[i + 1];
    if (block.removed || block.kind !== 'prose' || !next || next.removed || !(next.kind !== 'prose' || next.verbatim)) return;
    const last = block.sentences.filter((s) => !s.removed).pop();
    if (!last || !/[:：]\s*$/.test(sentenceText(last))) return;
    const announced = entryOf.get(next) ?? [];
    // The request that shows its material ("I need weekly revenue … from this table:", pinned) keeps its
    // value, and the material ranks with it.
    if (last.request && last.pinned) for (const entry of announced) entry.pinned = true;
    if (last.pinned) return;
    const announcer = entryOf.get(block)?.find((e) => e.unit.sentences?.length === 1 && e.unit.sentences[0] === last);
    if (!announcer || announced.length === 0) return;
    announcer.unit.score = 0;
    for (const entry of announced) {
      if (!entry.unit.head) entry.unit.head = announcer.unit;
      if (entry.kept) announcer.kept = true;
    }
  });
}

/**
 * "Below is the table our finance team sent.", "Here is the schema below", "the function above": a
 * sentence that shows the reader a block is kept only with that block (the nearest one that way, in its
 * section), and never pulls it in: without the block, it points at nothing.
 */
function pointAtBlocks(doc: Doc, entries: readonly { unit: Unit; kept: boolean }[], strict: boolean): void {
  // A block relaxed mode keeps whatever the budget is there for what shows it.
  const blockUnit = new Map<Block, Unit | null>();
  for (const { unit, kept } of entries) if (unit.block) blockUnit.set(unit.block, kept && !strict ? null : unit);
  if (blockUnit.size === 0) return;
  const index = new Map<Block, number>();
  doc.blocks.forEach((block, i) => index.set(block, i));
  for (const { unit, kept } of entries) {
    if (kept || unit.block || unit.sentences?.length !== 1 || !unit.parent) continue;
    const text = sentenceText(unit.sentences[0]!);
    // What leans on the sentence before ("Where `$X` is …" after "Run the script:") may still explain a block.
    if (unit.head && !DEFINES_ABOVE.test(text)) continue;
    // "Then ask: …" right after the context map that "First, respond with a context map:" showed: the
    // next step of what the block shows, kept only with it.
    const next = THEN.test(text) && unit.parent.sentences[0] === unit.sentences[0] && blockUnit.get(doc.blocks[index.get(unit.parent)! - 1]!);
    if (next) unit.requires = next;
    const way = SHOWN_BELOW.test(text) ? 1 : SHOWN_ABOVE.test(text) || DEFINES_ABOVE.test(text) ? -1 : 0;
    if (way === 0) continue;
    for (let k = index.get(unit.parent)! + way; k >= 0 && k < doc.blocks.length; k += way) {
      const block = doc.blocks[k]!;
      if (block.kind === 'heading' && block.level !== LEAD_IN_LEVEL) break;
      const target = blockUnit.get(block);
      if (target !== undefined) {
        if (target) unit.requires = target;
        break;
      }
    }
  }
}

const THEN = /^[^\p{L}]*(?:then|afterwards|after that|next|dann|danach|luego|después|ensuite|puis|depois|em seguida)(?![\p{L}])/iu;

// What a prompt shows as a block.
const SHOWN = '(?:table|schema|code|snippet|function|query|json|log|logs|diff|config|yaml|sql|script|component|hook|class|stack trace|traceback|tabela|tabla|tableau|tabelle|esquema|schéma|código)';
// Only a sentence that opens presenting the block says nothing without it: "Below is the table …",
// "Here is the code below", "The schema above …"; "… return JSON, following the schema below, so that
// …" asks something of its own.
const SHOWN_BELOW = new RegExp(`^[^\\p{L}]*(?:(?:(?:below|here) (?:is|are)|here['’]s|i['’]ve pasted|i have pasted|i['’]ve attached) (?:the|my|our|a|an) (?:[\\p{L}-]+\\s+){0,2}${SHOWN}s?|(?:the|this|my|our) ${SHOWN}s?\\s+(?:below|abaixo|ci-dessous|unten))(?![\\p{L}])`, 'iu');
// "Where `$SKILL_ROOT` is the absolute path …" after a command: says what a name in the block above means.
const DEFINES_ABOVE = /^[^\p{L}`$]*where\s+(?:`[^`]+`|\$\w+)\s+(?:is|are|stands for|means)(?![\p{L}])/iu;
const SHOWN_ABOVE = new RegExp(`^[^\\p{L}]*(?:the|this|my|our) ${SHOWN}s?\\s+(?:above|acima|ci-dessus|oben)(?![\\p{L}])`, 'iu');

const MIN_CLAUSE_ROOM = 8;
const MAX_CLAUSE_SENTENCES = 16;

/** Whether a clause instructs or holds a constraint or something specific, is no aside, and cuts no code span. */
function saysSomething(unit: Unit, texts: readonly string[]): boolean {
  const text = texts[unit.clause!]!;
  // A later clause alone ("keep the list alphabetical") leans on the first unless it states a rule or a
  // fact of its own ("it should only retry on ConnectionError"), or tells the model with its own subject
  // what to do (", you have to write a prompt about it": a comma splice).
  const said = unit.clause === 0 ? text : text.replace(SEPARATOR_OPENING, '');
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

/** What a repeat of a kept unit adds (its section's scope, not its words): see markRepeats. */
const REPEATED = 0.25;

/**
 * A rule repeated under each section ("- Work silently without announcements until complete." in every
 * phase) stays at 100% (dedupe leaves list items of other sections alone); where the budget is short,
 * its second copy is worth little beside what no kept unit says yet. Such copies are written alike (a
 * case or spacing variant is rare enough to count as new). Keys start with a NUL character, which no task
 * term holds.
 */
function markRepeats(entries: readonly Entry[]): void {
  // Texts of one length first: most units have a length no other unit has, and their text is never hashed.
  const byLength = new Map<number, Unit[]>();
  for (const { unit } of entries) {
    if (!unit.sentences || unit.block || unit.clause !== undefined) continue;
    const length = unit.sentences.reduce((n, s) => n + sentenceText(s).length + 1, 0);
    const list = byLength.get(length);
    if (list) list.push(unit);
    else byLength.set(length, [unit]);
  }
  for (const units of byLength.values()) {
    if (units.length < 2) continue;
    const byText = new Map<string, Unit[]>();
    for (const unit of units) {
      const key = '\u0000' + unit.sentences!.map(sentenceText).join('\n');
      const same = byText.get(key);
      if (same) same.push(unit);
      else byText.set(key, [unit]);
    }
    for (const [key, same] of byText) if (same.length > 1) for (const unit of same) unit.repeats = key;
  }
}

/**
 * Few-shot examples that give the same answer ("→ positiv" twice): the second teaches less than an
 * example of a label no kept example shows yet ("→ gemischt"), so it counts as a repeat once one is kept.
 */
function markAnswers(entries: readonly Entry[]): void {
  for (const { unit } of entries) {
    if (unit.block?.kind !== 'example') continue;
    const answer = shortAnswer(unit.block.body);
    if (answer) unit.repeats ??= '\u0001' + answer;
  }
}

/** The answer of an example when it is a label ("Queue: BILLING", "… → positiv"): a few words, folded. */
function shortAnswer(body: string): string | undefined {
  const words = lastAnswer(body)?.split(/\s+/).filter(Boolean) ?? [];
  return words.length > 0 && words.length <= MAX_LABEL_WORDS ? words.join(' ').toLowerCase() : undefined;
}
const MAX_LABEL_WORDS = 3;

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
  for (let head = unit.head; head && !keep.has(head) && (!head.requires || keep.has(head.requires)); head = head.head) needed.push(head);
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
  return byCost || (unit.block && !unit.block.pinned) ? score / Math.max(1, unit.cost) ** COST_WEIGHT : score;
}

function coveredScore(unit: Unit, covered: Map<string, number>): number {
  if (unit.repeats !== undefined && covered.has(unit.repeats)) return REPEATED * unit.score;
  if (!unit.termScores || unit.termScores.size === 0) return unit.score;
  let loss = 0;
  for (const [term, value] of unit.termScores) loss += value * (1 - COVERED ** (covered.get(term) ?? 0));
  return unit.score - loss;
}
