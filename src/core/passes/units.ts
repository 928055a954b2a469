import { indentOf, isFixedSentence, isListItem, isStructural, opensLine, sentenceText, sentenceWords, type Block, type Doc, type Sentence } from '../doc';
import type { RankedSentence } from '../scoring/importance';
import { GREETING_WORDS, hasConstraint, isGreeting, isSpecific, metaPenalty } from '../scoring/rules';
import { isInstruction } from '../scoring/structure';
import { isUnspaced, STOPWORDS, terms, words } from '../text/words';
import { FIELD } from './dedupe';
import { isSaidToReader } from './rewrite';
import { endsOnColon, isLabel, isListLeadIn, LEAD_IN_LEVEL, SOURCE_HEADER } from './structure';
import { ASIDE_SHARE, closingRemarks, EXCEPTION, OTHER_BRANCH } from './clause-units';
import { MAIL_HEADER, MAIL_SUBJECT } from './requests';

/** What selection keeps or drops whole: sentences of a block, a list item or set, a clause, or a block. */
export interface Unit {
  cost: number;
  score: number;
  order: number;
  termScores?: Map<string, number>;
  /** The sentences the unit stands for (a list item is one unit of all its sentences). */
  sentences?: Sentence[];
  /** The prose block of `sentences`. */
  parent?: Block;
  /** Every prose block of a unit merged from several paragraphs (an example's section): frames open for each. */
  parents?: Block[];
  block?: Block;
  /** A clause of `sentences[0]` (index into its clauses) rather than the whole sentence. */
  clause?: number;
  /**
   * What the unit is kept only with: the clause a dependent clause hangs on, the list item a nested one
   * belongs to, the sentence "Then …" follows, a document's "[Doc 1]" title.
   */
  head?: Unit;
  /** A block the unit shows ("Below is the table …"): the unit is kept only once that block is. */
  requires?: Unit;
  /** The unit's text as a key (see select's markRepeats), where another unit says the same word for word. */
  repeats?: string;
  /** What `score` holds for the unit being pinned (see select): the rest is its own value. */
  pin?: number;
  /** The length `pin` is paid at (see select's priorityOf): its group's longest, not its own. */
  pinCost?: number;
  /** The text the request works on (see rankPointedInput): ranked with the request, whatever its length. */
  input?: boolean;
}

/**
 * The units of kept prose: a list item is one unit (a rule is kept whole or dropped whole); every other
 * sentence is one unit. Sentences are never cut into clauses here: a kept sentence keeps its "but",
 * "unless" and "which" (clauses are only the last resort when no whole unit fits, see select).
 */
export function sentenceUnits(doc: Doc, ranked: readonly RankedSentence[]): Unit[] {
  const rankOf = new Map<Sentence, RankedSentence>();
  for (const r of ranked) rankOf.set(r.sentence, r);
  // A sentence that leans on the one before ("That's important because …") needs it in a prompt, task or
  // not; in a text to read with a task, relevance decides (the answer may be in "It opened in 1990.").
  const instructed = doc.blocks.some((b) => b.sentences.some((s) => s.instruction));
  const leaning = doc.task.trim() === '' || instructed;
  // A prompt, which asks something (an article asks nothing): its account leans as an article's text need not.
  const asks = instructed || doc.blocks.some((b) => b.sentences.some((s) => s.request));
  let lastTurnEnd: Unit | undefined; // the last sentence of the transcript's last turn read
  const units: Unit[] = [];
  // A rule and the rule that weighs against it ("… lean towards HARASSMENT. On the other hand, don't
  // over-flag …"): one without the other says something else, so they are one unit (see below).
  const counterweights: [Unit, Unit][] = [];
  // What a speaker corrects, the correction and the short answer after it ("Let's do the 19th. Hmm, actually
  // no, scratch that, the 19th is the marathon. The 26th."): the old value alone is wrong.
  const corrections: Unit[][] = [];
  // Open list items by indentation: a nested item comes only with the item it belongs to.
  const parents: { indent: number; unit: Unit }[] = [];
  const position = new Map<Block, number>();
  doc.blocks.forEach((block, i) => position.set(block, i));
  let after = 0;
  // The last unit of the paragraph before, while no heading stands between: "Then mention it in your
  // summary." after a code block leans on the sentence that introduced the block.
  let carried: Unit | undefined;
  let lastItem: { indent: number; unit: Unit; end: number } | undefined;
  // A numbered list under a title or lead-in that calls it a procedure ("## Workflow", "Follow these
  // steps:"): a step is kept only with the step before it, so what is kept is the procedure's beginning,
  // never steps 1, 2, 5 and 6. A section's title says it for the lead-ins under it.
  let procedureSection = false;
  let procedure = false;
  let lastStep: { indent: number; unit: Unit } | undefined;
  // The section of an example ("### Example 1: Simple Flowchart", its "**User:**" line and what the agent
  // does): kept or dropped whole, like a labelled few-shot example (see closeExample).
  let example: ExampleSection | undefined;
  let glued: { indent: number; unit: Unit } | undefined;
  // A letter's salutation, waiting for the first unit of its text; and the units a field or salutation was
  // attached to, or attached to one, by a head (see below).
  let salutation: Unit | undefined;
  const attached: Unit[] = [];
  // A retrieved document's fields in their own tags ("<source>kb/plans/backups.md</source>", "<updated>…"),
  // waiting for the first unit of its text: they are kept only with it (see isField).
  let fields: Unit[] = [];
  for (const group of proseGroups(doc)) {
    // Structure between: a heading starts afresh; a list item turned lead-in ("2. **Deep dive**") closes
    // the items at its depth, so its own nested items belong to it, not to an item before it.
    const at = position.get(group[0]!)!;
    for (let k = after; k < at; k++) {
      const block = doc.blocks[k]!;
      // A document that ends with no text after its fields: they say nothing alone.
      if (block.tag?.closing && !isField(doc, k - 1)) {
        for (const field of fields) field.score = 0;
        fields = [];
      }
      if (block.kind !== 'heading') {
        if (example && holdsMaterial(block)) example.whole = false;
        continue;
      }
      // A section's heading, not a lead-in line.
      const titles = block.level !== LEAD_IN_LEVEL;
      if (titles && example && (block.level ?? 1) <= example.level) example = closeExample(units, example);
      if (titles && !example && EXAMPLE_TITLE.test(block.body)) example = { level: block.level ?? 1, from: units.length, whole: true };
      if (titles) procedureSection = PROCEDURE.test(block.body);
      procedure = procedureSection || PROCEDURE.test(block.body);
      lastStep = undefined;
      if (titles) carried = undefined;
      if (!isListLeadIn(block)) parents.length = 0;
      else while (parents.length > 0 && parents[parents.length - 1]!.indent >= indentOf(block.body)) parents.pop();
    }
    after = position.get(group[group.length - 1]!)! + 1;
    const kept = group.flatMap((block) => block.sentences.filter((s) => !s.removed));
    if (kept.length === 0) continue;
    const listItem = isListItem(group[0]!);
    const indent = indentOf(group[0]!.prefix);
    // A list item leans on the item just before it at its depth ("- Is the code testable?", then "- Does
    // it follow team conventions?"), other text on the paragraph before.
    const carriedIn = listItem ? (lastItem && lastItem.indent === indent && lastItem.end === at - 1 ? lastItem.unit : undefined) : carried;
    // A list on the line right after a paragraph ("**Architecture Decision Record (ADR)** - Save to …",
    // then "- Number sequentially") says more of it: its items are kept only with the paragraph.
    const previous = doc.blocks[at - 1];
    if (!listItem || lastItem?.end !== at - 1) glued = undefined;
    if (listItem && !glued && carried && carried.parent === previous && !isListItem(previous!) && !previous!.verbatim && (group[0]!.sepBefore.match(/\n/g)?.length ?? 0) === 1) glued = { indent, unit: carried };
    // The list just before, for a paragraph that names its items ("If you cannot explain these points, STOP").
    const afterList = !listItem && lastItem && lastItem.end === at - 1 ? lastItem.unit : undefined;
    carried = undefined;
    // A paragraph indented under the list item just before (a note, an image, a quote) is part of it.
    const continuation = !listItem && indent > 0 && lastItem?.end === at - 1 && parents.length > 0 && parents[0]!.indent < indent;
    if (!listItem && !continuation) parents.length = 0;
    while (parents.length > 0 && parents[parents.length - 1]!.indent >= indent) parents.pop();
    const parent = listItem || continuation ? parents[parents.length - 1]?.unit : undefined;
    // Talk about the prompt inside a rule ("I know this is repeating myself a bit.") is no part of it: it
    // stands alone, and never takes budget.
    const said = listItem && kept.length > 1 ? kept.filter((s) => rankOf.get(s)!.score < 0 && !isFixedSentence(s)) : [];
    for (const sentence of said.length < kept.length ? said : []) {
      const r = rankOf.get(sentence)!;
      units.push({ cost: sentence.tokens + JOIN_SENTENCE, score: r.score, order: r.order, termScores: r.termScores, sentences: [sentence], parent: group[0] });
      kept.splice(kept.indexOf(sentence), 1);
    }
    const first = units.length;
    if (listItem && kept.length > 1) {
      // A rule is kept whole, and a set of definitions ("BILLING: charges, refunds") is one unit; the
      // remark that closes a rule ("Isso gerou muita reclamação na última campanha.") is kept only with it.
      const remarks = group.length === 1 && !group[0]!.verbatim ? closingRemarks(kept, doc.english) : [];
      const rule = kept.slice(0, kept.length - remarks.length);
      const ranks = rule.map((s) => rankOf.get(s)!);
      const termScores = strongestTerms(ranks.map((r) => r.termScores));
      const score = setScore(ranks.map((r) => r.score));
      const opening = sentenceText(rule[0]!);
      const head = carriedIn && leaning && leansOn(opening, carriedIn, instructed) ? carriedIn : parent;
      const item: Unit = { cost: rule.reduce((n, s) => n + s.tokens, JOIN_LIST * group.length), score, order: ranks[0]!.order, termScores, sentences: rule, parent: group[0], head };
      units.push(item);
      for (const remark of remarks) units.push({ cost: remark.tokens + JOIN_SENTENCE, score: ASIDE_SHARE * score, order: rankOf.get(remark)!.order, termScores: rankOf.get(remark)!.termScores, sentences: [remark], parent: group[0], head: item });
    } else {
      let previous: Unit | undefined;
      let titled: Unit | undefined;
      // What the first sentence may lean on: the paragraph before's last unit.
      let leanOn: Unit | undefined = carriedIn;
      let turn: Unit | undefined; // the speaker's opening sentence of the line being read
      for (const sentence of kept) {
        const r = rankOf.get(sentence)!;
        const text = sentenceText(sentence);
        const whole: Unit = { cost: sentence.tokens + (listItem ? JOIN_LIST : JOIN_SENTENCE), score: r.score, order: r.order, termScores: r.termScores, sentences: [sentence], parent: group[0], head: parent };
        if (POINTS_AHEAD.test(text) || ANNOUNCES_EXAMPLES.test(text)) whole.score = 0;
        // "Then …", "That means …", "Without it …" says nothing without the sentence before it, and the
        // text of a retrieved document nothing without its "[Doc 1] …" title.
        // The final input stands on its own: "this match" in 'First request: "… provide commentary for this
        // match."' is the user's, not the sentence before's.
        // Nothing leans on a greeting: "This file is for any agent" after "Hey, welcome!" is deictic.
        // So does the question the prompt closes on: "I guess what I'm really asking is: why would the upgrade
        // make this start happening …?" asks it, with or without the paragraph before ("N'invente aucun autre
        // tarif." leans on the tariffs still).
        const before = sentence.input || (sentence.pinned && /[?？]\s*$/.test(text)) ? undefined : previous ?? leanOn;
        leanOn = undefined;
        // A prompt's remark in brackets ("(Refer to … for details.)") comes with its sentence; an article's
        // bracketed sentence may hold an answer of its own.
        // An exception that is a rule of its own ("ただし、…は使わないでください") stands alone.
        const exception = !!previous && before === previous && !sentence.instruction && EXCEPTION.test(text) && previous.sentences!.some((s) => s.instruction || hasConstraint(sentenceText(s), sentenceWords(s)));
        if (before && (exception || refersBack(text) || (leaning && (leansOn(text, before, instructed) || (asks && ((!sentence.instruction && GOES_ON.test(text)) || POINTS_BACK_WIDE.test(text))) || (before === previous && (VERB_OBJECT.test(text) || answersBefore(sentence))))) || (instructed && PARENTHETICAL.test(text))) && !talksToReader(before)) {
          whole.head = before;
          if (exception || (instructed && before === previous && COUNTERWEIGHT.test(text) && weighsAgainst(sentence, text))) counterweights.push([before, whole]);
        }
        const correcting = corrections.at(-1);
        if (previous && before === previous && CORRECTION.test(text)) {
          whole.head = previous;
          corrections.push([previous, whole]);
        }
        // "The 26th." after the correction completes it.
        else if (correcting && previous === correcting.at(-1) && !sentence.speaker && !opensLine(group[0]!, group[0]!.sentences.indexOf(sentence)) && text.split(/\s+/).length <= SHORT_ANSWER_WORDS) correcting.push(whole);
        // A quoted letter's sign-off ("Thanks, Dana") closes what is kept of it, never stands alone.
        else if (previous && group[0]!.suffix && sentence === kept[kept.length - 1] && isSaidToReader(text, doc.english)) whole.head = previous;
        else if (titled && !whole.head && !SOURCE_HEADER.test(text)) whole.head = titled;
        // "If you cannot explain these points, STOP …" is a rule of its own that comes with the list; "Use these
        // sections during Phase 2 …" says nothing without it, and waits for it.
        else if (afterList && sentence === kept[0] && LIST_REFERENCE.test(text) && !/[:：]\s*$/.test(text)) {
          if (hasConstraint(text)) whole.head = afterList;
          else whole.requires = afterList;
        }
        // "in model-driven apps." after "You can add code components to:" and its items: the sentence goes on.
        else if (afterList && sentence === kept[0] && /^\p{Ll}/u.test(text)) whole.head = afterList;
        // A transcript line's later sentences are the speaker's: they come with the name that opens it. A
        // reply ("Greta: Sure, I'll do it by Friday.") comes with the turn it answers.
        if (sentence.speaker) {
          // The question ends the turn before ("… Fátima, você traz uma proposta?"): the reply comes with
          // that turn's last sentence, and it with its speaker.
          // A turn that only acknowledges ("Daniel: Will do.", "Priya: Thanks, Daniel.") adds nothing to it.
          const acknowledges = ACKNOWLEDGES.test(text) && !continuesLine(kept, sentence);
          if (lastTurnEnd && !whole.head && (REPLY.test(text) || acknowledges)) {
            whole.head = lastTurnEnd;
            if (acknowledges) whole.score = 0;
          }
          // A turn that opens on its topic alone ("Luis: Code reviews. Some PRs waited …") says it only with
          // what follows on its line.
          else if (TOPIC_TURN.test(text) && continuesLine(kept, sentence)) whole.score = 0;
          // A bare question ("Me: What else?", "Me: And the timeline?") says nothing without its answer.
          else if (BARE_QUESTION.test(text) && !continuesLine(kept, sentence) && !isSpecific(text)) whole.score = 0;
          else if (GREETS_ROOM.test(text)) whole.score = 0;
          turn = whole;
        }
        else if (turn && !whole.head && opensLine(group[0]!, group[0]!.sentences.indexOf(sentence))) turn = undefined;
        else if (turn && !whole.head) whole.head = turn;
        // A document's fields, and a mail's header lines ("From: Sunita Rao", "Sent: …"; its subject,
        // "Subject: Postmortem INC-7731", says what the mail is about), come only with the text after them.
        const field = isField(doc, at) || (!!group[0]!.verbatim && MAIL_HEADER.test(text) && !MAIL_SUBJECT.test(text));
        if (fields.length > 0 && !field) {
          for (const unit of fields) if (!unit.head) (unit.head = whole), attached.push(unit);
          fields = [];
        }
        if (field) (whole.score = FIELD_SHARE * whole.score), fields.push(whole);
        // A quoted letter's salutation or signature on a line of its own ("Hi Jennifer,", "Best, Alex") is never
        // kept alone: a letter of "Alex,\n\nJennifer" says nothing. The salutation comes with the text after it.
        if (salutation && !whole.head) (whole.head = salutation), attached.push(whole);
        salutation = undefined;
        const letterLine = !!group[0]!.verbatim && kept.length === 1;
        if (letterLine && SALUTATION.test(text)) (whole.score = 0), (salutation = whole);
        else if (letterLine && SIGNATURE.test(text)) whole.score = 0;
        units.push(whole);
        if (turn) lastTurnEnd = whole;
        previous = units[units.length - 1];
        // The title is kept with its text, never alone (a score of 0 is never picked on its own), and so is
        // a lead-in with its items run into the paragraph ("Your roles include: - **Basics**: …").
        if (previous && sentence !== kept[kept.length - 1] && ((previous === units[first] && isTitle(text)) || /[:：]$/.test(text))) {
          previous.score = 0;
          titled = previous;
        }
        // A retrieved document's first sentence that opens on its header ("[Doc 1] Release notes v4.8.2: Fixed
        // …") is text and its title at once: the document's later sentences say whose they are only with it.
        else if (previous && SOURCE_HEADER.test(text)) {
          titled = previous;
          // "[Doc 4] Parks Department newsletter, August 2024." names its source and says nothing of its own:
          // a title over the text after it, never kept alone.
          if (sentence !== kept[kept.length - 1] && namesSourceOnly(text)) previous.score = 0;
        }
      }
    }
    if (glued && glued.indent === indent && units.length > first) units[first]!.head ??= glued.unit;
    if (!listItem && !continuation) (procedure = procedureSection), (lastStep = undefined);
    // A step that only forbids ("4. Do not add new dependencies.") is a rule set in the list, no step of the
    // sequence: it stands alone, and the next step follows the one before it.
    else if (procedure && units.length > first && STEP_MARKER.test(group[0]!.prefix) && !FORBIDS.test(sentenceText(units[first]!.sentences![0]!))) {
      if (lastStep && lastStep.indent === indent && lastItem?.end === at - 1) units[first]!.head ??= lastStep.unit;
      if (!lastStep || lastStep.indent >= indent) lastStep = { indent, unit: units[first]! };
    }
    if (listItem && units.length > first) parents.push({ indent, unit: units[first]! });
    else if (units.length > first) carried = units[units.length - 1];
    const end = position.get(group[group.length - 1]!)!;
    if (continuation) lastItem!.end = end;
    else lastItem = listItem && units.length > first ? { indent, unit: units[units.length - 1]!, end } : undefined;
  }
  if (example) {
    if (doc.blocks.slice(after).some(holdsMaterial)) example.whole = false;
    closeExample(units, example);
  }
  chainPriorities(doc, units);
  joinEnumerations(doc, units);
  joinClosedSets(doc, units);
  joinRecords(doc, units);
  // A field or salutation given its text for its head, where that text was since given it: no loop.
  for (const unit of attached) if (unit.head && leadsTo(unit.head, unit)) unit.head = undefined;
  for (const [rule, weight] of counterweights) if (units.includes(rule) && units.includes(weight)) mergeUnits(units, [rule, weight]);
  for (const parts of corrections) {
    if (!parts.every((unit) => units.includes(unit))) continue;
    // The line's speaker still comes with it.
    const head = parts[0]!.head;
    const merged = mergeUnits(units, parts);
    if (head && !parts.includes(head)) merged.head = head;
  }
  return units;
}

// A speaker taking back what they said: "Actually, scratch that — …", "Enfin non, pardon, c'était en 2018",
// "Na verdade, não — até dia 12", "Bueno, no, perdón, fue el 6", "田中：すみません、訂正です。", after the speaker's name if any.
const CORRECTION = new RegExp(
  String.raw`^(?:[^:：\n]{1,40}[:：]\s*)?(?:(?:hmm+|um+|uh+|oh|ah|well|ok(?:ay)?|so|sorry|すみません|あ)[,.!、]?\s*)?` +
    String.raw`(?:actually,?\s+(?:no|wait|scratch that|let me correct|let['’]s say|make (?:it|that)|i meant)|scratch that|strike that|let me correct|correction\s*[:,—–-]|i meant|no,?\s+wait|wait,?\s+no|i misspoke|` +
    String.raw`na verdade,?\s+não|corrigindo|melhor dizendo|me enganei|perdón,?\s+(?:fue|es|era|son|eran|quise decir)|bueno,?\s+no|mejor dicho|corrijo|me equivoqué|` +
    String.raw`enfin non|non,?\s+pardon|pardon,?\s+c['’](?:était|est)|je me corrige|je voulais dire|je me suis trompée?|` +
    String.raw`nein,?\s+(?:warte|moment|halt|quatsch|sorry)|korrektur\s*:|ich korrigiere|ich meinte|ich habe mich vertan|` +
    String.raw`訂正(?:です|します|させて)|間違えました|いや、|更正|纠正一下|不对|说错了|口误)(?![\p{L}])`,
  'iu',
);
const SHORT_ANSWER_WORDS = 5;

// A document's field in a tag of its own: "<source>…</source>", "<updated>2024-11-02</updated>", "<title>…".
const FIELD_TAG = /^(?:source|url|link|updated|date|created|modified|published|title|author|id|version|path|file|filename|lang|language|type|category|tags?)$/i;
/** What a field adds to the document text it comes with, as a share of its own value. */
const FIELD_SHARE = 0.25;

/** Whether block `i` is a document's field: one line of quoted text between a field tag and its closing tag. */
function isField(doc: Doc, i: number): boolean {
  const block = doc.blocks[i];
  const open = doc.blocks[i - 1];
  return !!block && block.kind === 'prose' && !!block.verbatim && block.sentences.length === 1 && !!open?.tag && !open.tag.closing && open.tag.partner === doc.blocks[i + 1] && FIELD_TAG.test(open.tag.name);
}

/** `unit`, then each head it is kept only with, once each (a loop of heads, which no pass should make, ends). */
export function* withHeads(unit: Unit): Generator<Unit> {
  const seen = new Set<Unit>();
  for (let u: Unit | undefined = unit; u && !seen.has(u); u = u.head) {
    seen.add(u);
    yield u;
  }
}

/** Whether `to` is `unit` or one of the heads it is kept only with: a head there would make a loop. */
function leadsTo(unit: Unit, to: Unit): boolean {
  for (const u of withHeads(unit)) if (u === to) return true;
  return false;
}

// "Hi Jennifer,", "Dear Ms Patel,", "Alex,", "Liebe Frau Roth,", "Estimada Sra. Gómez:", "Bonjour Julien,".
const SALUTATION = /^(?:(?:Hi|Hello|Hey|Dear|Good (?:morning|afternoon|evening)|Hallo|Liebe[rs]?|Sehr geehrte[rs]?|Hola|Estimad[oa]s?|Querid[oa]s?|Bonjour|Bonsoir|Cher|Chère|Olá|Oi|Prezad[oa]s?|Car[oa])\s+\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2}\s*[,:]|\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2}\s*,)$/u;
// "Best, Alex", "Kind regards,\nLena", "Jennifer", "Un saludo, Marta", "Cordialement, Julien Marchand".
const SIGNATURE = /^(?:(?:Best|Best regards|Kind regards|Warm regards|Regards|Cheers|Thanks|Thank you|Many thanks|Sincerely|Yours|All the best|Viele Grüße|Liebe Grüße|Beste Grüße|Mit freundlichen Grüßen|Saludos|Un saludo|Atentamente|Cordialement|Bien à vous|Abraços?|Um abraço|Atenciosamente)[,!.]?\s+)?\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2}[.!]?$/u;

/**
 * The items of a closed set ("You can use these tools, and only these:", "Use exactly one of the following
 * labels:") are one unit: without one of them the lead-in forbids it. Items and what they already are
 * merged in (a rule with its remark) go together; a nested item makes it a structure, not a set.
 */
function joinClosedSets(doc: Doc, units: Unit[]): void {
  const blocks = doc.blocks.filter((b) => !b.removed);
  // Which unit holds each sentence: built once, and only for a prompt with a closed set.
  let ownerOf: Map<Sentence, Unit> | undefined;
  blocks.forEach((leadIn, i) => {
    if (!endsOnColon(leadIn) || !closesSet(leadIn)) return;
    const indent = indentOf(blocks[i + 1]?.prefix ?? '');
    const items: Block[] = [];
    for (let k = i + 1; k < blocks.length && blocks[k]!.kind === 'prose' && isListItem(blocks[k]!); k++) {
      if (indentOf(blocks[k]!.prefix) !== indent) return;
      items.push(blocks[k]!);
    }
    const inSet = new Set(items.flatMap((b) => b.sentences));
    if (!ownerOf) {
      ownerOf = new Map();
      for (const unit of units) for (const sentence of unit.sentences ?? []) ownerOf.set(sentence, unit);
    }
    const owners = [...new Set([...inSet].map((s) => ownerOf!.get(s)).filter((u): u is Unit => !!u))];
    if (owners.length < 2 || owners.some((unit) => unit.sentences!.some((s) => !inSet.has(s)))) return;
    owners.sort((a, b) => units.indexOf(a) - units.indexOf(b));
    mergeUnits(units, owners);
  });
}

/**
 * The items a lead-in enumerates ("The Swift SDK supports:", then "- macOS 13.0+", "- Linux (glibc and
 * musl)") are one unit: a list of names, versions or features read as complete, and without Linux it
 * says Linux is not supported. Only where every item is a short name, neither an instruction nor a rule,
 * or every item is a case ("- Critical → failed", "- No issues → completed"): a case map without its
 * failure cases tells the model that everything passes.
 */
function joinEnumerations(doc: Doc, units: Unit[]): void {
  const unitsOf = unitsByParagraph(units);
  const blocks = doc.blocks.filter((b) => !b.removed);
  blocks.forEach((leadIn, i) => {
    if (!endsOnColon(leadIn)) return;
    const items: Unit[] = [];
    const indent = indentOf(blocks[i + 1]?.prefix ?? '');
    let k = i + 1;
    for (; k < blocks.length && blocks[k]!.kind === 'prose' && isListItem(blocks[k]!) && indentOf(blocks[k]!.prefix) === indent; k++) {
      const own = unitsOf.get(blocks[k]!) ?? [];
      if (own.length !== 1) return;
      items.push(own[0]!);
    }
    // An item nested under one of them: a structured list, not an enumeration.
    if (items.length < 2 || (k < blocks.length && blocks[k]!.kind === 'prose' && indentOf(blocks[k]!.prefix) > indent)) return;
    const texts = items.map((unit) => unit.sentences!.map(sentenceText).join(' '));
    const named = items.every((unit) => unit.sentences!.length === 1 && isNamed(unit.sentences![0]!, doc.english));
    // Cases under an item ("- Status:", then "  - Critical → failed") decide one thing together; a glossary's
    // lines ("Glossary:", then "- streak → Serie") each stand alone.
    if (named || (isListLeadIn(leadIn) && texts.every((text) => CASE.test(text)))) mergeUnits(units, items);
  });
}

const MAX_NAME_WORDS = 6;
const MAPS = /\s(?:→|⇒|->|=>)\s/u;
// A case and what follows from it: "Critical → failed: …", "Simple (<1K users) → Security fundamentals".
const CASE = /^[^→⇒]{1,60}\s(?:→|⇒|->|=>)\s/u;

// A lead-in that closes its list: "and only these:", "exactly one of the following:", "nur diese:", "solo estos:",
// "uniquement les suivants :", "apenas estes:", "以下のいずれか", "仅限以下".
const CLOSED_SET = new RegExp(
  String.raw`(?<![\p{L}])(?:only (?:these|those|the following)|exactly (?:these|the following|one of)|one of (?:these|the following)|none other than|` +
    String.raw`nur (?:diese|die folgenden|folgende)|ausschließlich|genau (?:diese|eine[nrs]? (?:dieser|der folgenden))|` +
    String.raw`(?:solo|solamente|únicamente) (?:estos|estas|los siguientes|las siguientes)|uno de (?:estos|estas|los siguientes)|` +
    String.raw`(?:uniquement|seulement) (?:ces|les suivant)|exactement (?:ces|l['’]une?)|` +
    String.raw`(?:apenas|somente|só) (?:estes|estas|os seguintes|as seguintes)|um dos seguintes)(?![\p{L}])|のみ|いずれか|仅限|只能从|之一`,
  'iu',
);
const closesSet = (leadIn: Block): boolean => CLOSED_SET.test(leadIn.kind === 'heading' ? leadIn.body : leadIn.sentences.map(sentenceText).join(' '));

/** A list item that only names something ("visionOS 1.0+", "Error analytics and stack traces", "Sub grids"). */
function isNamed(sentence: Sentence, english: boolean): boolean {
  const text = sentenceText(sentence);
  // "« le Client » → "the Customer"": a glossary's entry maps one name to another, a rule of its own.
  if (/[.:;!?。：]\s*$|[:：]\s/.test(text) || MAPS.test(text) || sentence.instruction || isInstruction(text, english) || hasConstraint(text)) return false;
  return words(text).length <= MAX_NAME_WORDS;
}

/**
 * A record's fields ("ID: HR-112", "Title: Parental Leave Policy (v3.1)", "Applies to: all offices") are
 * one unit with the text they head: the fields never stand alone over nothing, and what is kept of the
 * text keeps the ID it is cited by and the version it belongs to.
 */
function joinRecords(doc: Doc, units: Unit[]): void {
  const unitsOf = unitsByParagraph(units);
  let record: Unit | undefined; // the record whose text runs on, up to the next heading or block
  let text = false; // whether the record's text has begun
  for (const block of doc.blocks) {
    if (block.removed) continue;
    if (block.kind !== 'prose') {
      record = undefined;
      continue;
    }
    const own = unitsOf.get(block) ?? [];
    const whole = own.length === block.sentences.filter((s) => !s.removed).length;
    // A field on a line of its own right after the record ("Applies to: all offices") is one of its fields.
    if (whole && (isRecord(block, 2) || (record && !text && isRecord(block, 1)))) {
      record = mergeUnits(units, record && !text ? [record, ...own] : own);
      text = false;
      continue;
    }
    if (!record || own.length === 0) continue;
    text = true;
    // Like a title, the record is kept with its text, never alone: a score of 0 is never picked on its own.
    record.score = 0;
    for (const unit of own) unit.head ??= record;
  }
}

/**
 * A numbered list under a title or lead-in that orders it by priority ("## Analysis Priority", "in order
 * of importance:") says its first items matter most: an item that states no rule or fact of its own
 * ("3. Eliminate duplicate patterns") is kept only with the such item before it, so what is kept of them
 * is the list's beginning, never priority 5 alone. A specific rule further down ("5. Never delete
 * `migrations/` …") stands on its own.
 */
function chainPriorities(doc: Doc, units: readonly Unit[]): void {
  const unitsOf = unitsByParagraph(units);
  const blocks = doc.blocks.filter((b) => !b.removed);
  blocks.forEach((title, i) => {
    if (title.kind !== 'heading' || !PRIORITY.test(title.body)) return;
    const indent = indentOf(blocks[i + 1]?.prefix ?? '');
    let before: Unit | undefined;
    for (let k = i + 1; k < blocks.length && blocks[k]!.kind === 'prose' && STEP_MARKER.test(blocks[k]!.prefix) && indentOf(blocks[k]!.prefix) === indent; k++) {
      const own = unitsOf.get(blocks[k]!);
      if (own?.length !== 1) continue;
      const text = own[0]!.sentences!.map(sentenceText).join(' ');
      if (hasConstraint(text) || isSpecific(text)) continue;
      if (before) own[0]!.head ??= before;
      before = own[0];
    }
  });
}

const PRIORITY = /(?<![\p{L}])(?:priority|priorities|prioriti[sz]ed|in order of (?:importance|priority)|most important first|priorität(?:en)?|prioridad(?:es)?|priorités?|prioridades?)(?![\p{L}])|優先|优先/iu;

/** The prose units of each paragraph, in order. */
function unitsByParagraph(units: readonly Unit[]): Map<Block, Unit[]> {
  const unitsOf = new Map<Block, Unit[]>();
  for (const unit of units) {
    if (!unit.parent || unit.block) continue;
    const own = unitsOf.get(unit.parent);
    if (own) own.push(unit);
    else unitsOf.set(unit.parent, [unit]);
  }
  return unitsOf;
}

/** Replaces `parts` in `units` by one unit worth its best part and a little of each other one. */
function mergeUnits(units: Unit[], parts: readonly Unit[]): Unit {
  const merged: Unit = {
    cost: parts.reduce((n, u) => n + u.cost, 0),
    score: setScore(parts.map((u) => u.score)),
    termScores: strongestTerms(parts.map((u) => u.termScores ?? new Map<string, number>())),
    order: parts[0]!.order,
    sentences: parts.flatMap((u) => u.sentences ?? []),
    parent: parts[0]!.parent,
  };
  const parents = [...new Set(parts.flatMap((u) => u.parents ?? (u.parent ? [u.parent] : [])))];
  if (parents.length > 1) merged.parents = parents;
  const gone = new Set(parts);
  for (const unit of units) if (unit.head && gone.has(unit.head)) unit.head = merged;
  const at = units.indexOf(parts[0]!);
  const rest = units.filter((unit, i) => i > at && !gone.has(unit));
  units.length = at;
  units.push(merged, ...rest);
  return merged;
}

/** A set is worth its best part, and a little of each other one: it says more than one item. */
function setScore(scores: readonly number[]): number {
  const best = Math.max(...scores);
  return best + MORE_OF_A_UNIT * (scores.reduce((n, v) => n + Math.max(0, v), 0) - best);
}

/** Each task term at the most any part holds it. */
function strongestTerms(parts: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const terms = new Map<string, number>();
  for (const part of parts) for (const [term, value] of part) terms.set(term, Math.max(terms.get(term) ?? 0, value));
  return terms;
}

/** A paragraph of `least` or more lines that are each a field ("Label: value"). */
function isRecord(block: Block, least: number): boolean {
  const kept = block.sentences.filter((s) => !s.removed);
  return !isListItem(block) && kept.length >= least && kept.every((s, i) => FIELD.test(sentenceText(s)) && (i === kept.length - 1 || s.sep.includes('\n')));
}

// A speaker's name and a topic of at most three words: "Luis: Code reviews.", "Greta: Staging."
const TOPIC_TURN = /^[^:]{1,60}:\s*(?:[\p{L}\p{N}'’-]+\s*){1,3}[.!]?$/u;
const BARE_QUESTION = /^[^:]{1,60}:\s*(?:[\p{L}\p{N}'’,-]+\s*){1,6}[?？]$/u;
// A turn that answers the one before: "Hana: Yes, please.", "Greta: Sure, …", "Ines: Hugely.".
const REPLY = /^[^:]{1,60}:\s*(?:yes|yeah|yep|no|nope|sure|ok|okay|right|exactly|definitely|absolutely|agreed|same|me too|hugely|of course|thanks|ja|nein|genau|sí|si|claro|vale|oui|non|d'accord|sim|não|claro|pode deixar|trago)(?![\p{L}])|^[^：:]{1,12}[：:]\s*(?:好的|好|没问题|没意见|可以|行|收到|同意|对|嗯|はい|了解|承知|わかりました|分かりました|大丈夫|いいえ|賛成)/iu;

// "Paulo Mendes: Combinado.", "Javier: Vale.", "王磊：收到。" too.
const ACKNOWLEDGES =
  /^[^:]{1,60}:\s*(?:thanks|thank you|will do|on it|sounds good|got it|noted|perfect|great|ok|okay|sure|cool|combinado|beleza|fechado|certo|perfeito|vale|de acuerdo|perfecto|entendido|hecho|d['’]accord|ça marche|parfait|entendu|einverstanden|alles klar|passt|gut|danke)(?:,?\s+\p{Lu}[\p{L}'’-]*)?[\s.!]*$|^[^：:]{1,12}[：:]\s*(?:好的|收到|没问题|了解です|了解しました|承知しました|わかりました|分かりました)[。！!]*$/iu;
// A turn that only greets the room: "Renata Souza: Bom dia, pessoal.", "Sam: Morning all!", "王磊：大家好。".
const GREETS_ROOM =
  new RegExp(
    `^[^:]{1,60}:\\s*(?:(?:good )?morning|bom dia|boa tarde|buenos días|buenas(?: tardes)?|guten morgen|guten tag|moin|${GREETING_WORDS.join('|')})` +
      "(?:,?\\s*(?:all|everyone|everybody|team|folks|guys|pessoal|gente|a todos|todos|à tous|tout le monde|zusammen|alle|\\p{Lu}[\\p{L}'’-]*))?[\\s.!]*$|^[^：:]{1,12}[：:]\\s*(?:大家好|各位好|おはようございます|こんにちは|お疲れ様です)[。！!]*$",
    'iu',
  );

/** A retrieved document's header sentence that only names its source: "[Doc 2] Local newspaper, 3 May 2024." */
function namesSourceOnly(text: string): boolean {
  const rest = text.replace(SOURCE_HEADER, '').trim();
  return !/[:：]/.test(rest) && rest.split(/\s+/).length <= MAX_SOURCE_NAME_WORDS;
}
const MAX_SOURCE_NAME_WORDS = 10;

/**
 * "[Doc 1] Refund policy" titles what follows, and so does a bold label opening a paragraph ("**Step 5:
 * Verify setup**"); "[Doc 1] Release notes v4.8.2: Fixed …." is text itself.
 */
const isTitle = (text: string): boolean => (SOURCE_HEADER.test(text) && !/[.!?。！？]$/u.test(text)) || isLabel(text) || isCapitalTitle(text);

/** A clause title in capitals opening its paragraph: "CLÁUSULA SEGUNDA – DO PRAZO.", "SECTION 4. PAYMENT." */
function isCapitalTitle(text: string): boolean {
  // Only cased letters (a Chinese sentence with "NFL" in it is no title), every one a capital; most
  // sentences show a small letter at once.
  if (/\p{Ll}/u.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 6 && /^\p{Lu}+$/u.test(letters) && text.split(/\s+/).length <= MAX_TITLE_WORDS;
}
const MAX_TITLE_WORDS = 12;

/** Says nothing without the sentence before: "Then …", "It is cleared …", "Always note them in CONCERNS.md." */
const leansOnPrevious = (text: string): boolean =>
  CONTINUES.test(text) || pointsAtThose(text) || IN_THAT_CASE.test(text) || ((OBJECT_PRONOUN.test(text) || LATE_OBJECT.test(text)) && text.split(/\s+/).length <= MAX_LEANING_WORDS);
// The case the sentence before names, inside the sentence: "Weise in so einem Fall kurz auf den Widerspruch hin."
const IN_THAT_CASE =
  /(?<![\p{L}])(?:in (?:that|such a|this|which) case|in such cases|in so einem fall|in solchen fällen|in diesem fall|in dem fall|dans ce cas|dans un tel cas|en ce cas|en ese caso|en tal caso|en este caso|en esos casos|nesse caso|neste caso|em tal caso|nesses casos)(?![\p{L}])|这种情况下|此时|その場合|この場合/iu;

/**
 * A question or reply of a word or two in a paragraph ("Anything else? ... No?", "Agreed.") answers the
 * sentence before: alone, "No?" read as a rule with its "no".
 */
const answersBefore = (sentence: Sentence): boolean => {
  if (sentence.speaker || sentence.pinned) return false;
  const scanned = sentenceWords(sentence);
  const text = sentenceText(sentence);
  // A pause ("…", "...") goes on with what it follows; other marks alone (a closing quote) are structure.
  if (scanned.length === 0) return /^[.…\s]+$/.test(text);
  // A short question or a bare reply; a terse rule ("JSON only.", "No paragraphs.") stands on its own.
  return scanned.length <= 2 && !isUnspaced(text) && (/[?？]\s*$/.test(text) || scanned.every((w) => REPLY_WORDS.has(w)));
};
const REPLY_WORDS = new Set('yes no ok okay agreed right sure great fine exactly indeed true correct good perfect absolutely definitely'.split(' '));

// What opens the instruction that weighs against the rule before: "On the other hand, please don't over-flag …".
const COUNTERWEIGHT = /^[^\p{L}]*(?:on the other hand|that said|at the same time|conversely|however)(?![\p{L}])/iu;
/** An instruction, or a constraint said to the model ("please don't …", "you never …"), not an article's "did not". */
const weighsAgainst = (sentence: Sentence, text: string): boolean =>
  sentence.instruction || (hasConstraint(text, sentenceWords(sentence)) && SAID_TO_MODEL.test(text));
const SAID_TO_MODEL = /(?<![\p{L}])(?:please|you|your|don't|don’t|do not|never)(?![\p{L}])/iu;

/** Says nothing without the sentence before it in its paragraph (see leansOnPrevious and VERB_OBJECT). */
export const leansWithin = (text: string): boolean => leansOnPrevious(text) || VERB_OBJECT.test(text);

// "If you cannot clearly explain these points, STOP", "Use these sections during Phase 2": "these" or "the
// above" with a plural noun, in the paragraph right after a list, names the list's items.
const LIST_REFERENCE = /(?<![\p{L}])(?:these|the above)\s+(?:\p{L}+\s+)?\p{L}{3,}s(?![\p{L}])(?!\s*(?:below|that follow|:))/iu;

// "(Refer to https://learn.microsoft.com/… for details.)": a sentence in brackets remarks on the one before.
const PARENTHETICAL = /^\s*[(（][^()（）]*(?:[(（][^()（）]*[)）][^()（）]*)*[)）][.。]?\s*$/u;

// "Never edit those files by hand": "those" with its noun points back, unless a clause or place says
// which ("those files that …", "those files listed below"); "treat those as …" points within.
// "Don't try to handle those yourself.": "those" alone, with no noun or clause of its own, stands for what
// the sentence before names.
function pointsAtThose(text: string): boolean {
  if (!/those/i.test(text)) return false;
  if (BARE_THOSE.test(text)) return true;
  for (const m of text.matchAll(DISTAL)) {
    const next = m[1]!.toLowerCase();
    if (!STOPWORDS.has(next) ? !WHICH.has((m[2] ?? '').toLowerCase()) : REFLEXIVE.has(next)) return true;
  }
  return false;
}
const BARE_THOSE = /(?<![\p{L}])those\s*(?:[.,;:!?)]|$)/iu;
const REFLEXIVE = new Set(['yourself', 'yourselves', 'myself', 'ourselves', 'themselves', 'again', 'first', 'too', 'either', 'instead', 'directly', 'manually', 'now']);
const DISTAL = /(?<![\p{L}])those\s+(\p{L}+)(?:\s+(\p{L}+))?/giu;
const WHICH = new Set(['who', 'that', 'which', 'whose', 'where', 'with', 'of', 'in', 'on', 'from', 'for', 'listed', 'named', 'mentioned', 'below', 'above', 'described', 'marked', 'shown']);
// "Don't just say "this should work" — actually run them.": a short sentence's object is the last one's.
const LATE_OBJECT = /(?<![\p{L}])them(?![\p{L}])/iu;

// Nor on thanks or talk about the prompt: "Really appreciate it. (Count experience from 2015 to 2024.)".
const talksToReader = (unit: Unit): boolean => !!unit.sentences?.every((s) => isGreeting(sentenceText(s)) || metaPenalty(sentenceText(s), s) > 0);

/** Whether `text` says nothing without `before`: an opener that leans on it, or a demonstrative it names. */
const leansOn = (text: string, before: Unit, prompt = false): boolean =>
  leansOnPrevious(text) || pointsBack(text, before, prompt ? PROMPT_DEMONSTRATIVE : DEMONSTRATIVE) || BARE_DEMONSTRATIVE.test(text) || (prompt && (namesOther(text, before) || pointsBackWide(text, before)));

// "…この変更を必ずお伝えください。" after "…毎月27日に変更になります。", "该费用…" after "…收取服务费": a demonstrative
// inside a Chinese or Japanese sentence, whose noun (its first two characters) the sentence before names.
const WIDE_DEMONSTRATIVE = /(?:この|その|これらの|それらの|该|这个|这些|这项|这种|此)(\p{Script=Han}{2})/gu;
const pointsBackWide = (text: string, previous: Unit): boolean =>
  isUnspaced(text) && namedBefore(text, previous, WIDE_DEMONSTRATIVE, (before, noun) => before.includes(noun), '');

// "Andere Tarifpreise kennst du nicht.", "N'invente aucun autre tarif.", "Quote no other prices.": beyond
// what the sentence before names.
const OTHER = /(?<![\p{L}])(?:other|andere[nrms]?|autres?|otr[oa]s?|outr[oa]s?)\s+(\p{L}{4,})/giu;
// A compound names its head first: "Tarifpreise" beside "Tarif".
const namesOther = (text: string, previous: Unit): boolean => namedBefore(text, previous, OTHER, (before, noun) => opensWordIn(before, noun.slice(0, 5)));
// "… can't be done well with these, tell me": "these" with no noun after it is what the sentence before named.
const BARE_DEMONSTRATIVE = /(?<![\p{L}])(?:with|of|from|among|beyond|besides|outside|than|by)\s+(?:these|those)(?=\s*[,.;:!?)]|\s*$)/iu;

/** Whether the sentence after `sentence` goes on with the same speaker's line. */
function continuesLine(kept: readonly Sentence[], sentence: Sentence): boolean {
  const next = kept[kept.indexOf(sentence) + 1];
  return next !== undefined && !next.speaker;
}

interface ExampleSection {
  level: number;
  /** Index of the section's first unit. */
  from: number;
  /** Prose only: a code block or table in it is a unit of its own, so the section is left as it is. */
  whole: boolean;
}

/** A block of an example's section that is a unit of its own (code, a table, an example). */
const holdsMaterial = (block: Block): boolean => !block.removed && block.kind !== 'prose' && !isStructural(block);

/** Merges the units of an example's section into one; returns undefined (no section open). */
function closeExample(units: Unit[], example: ExampleSection): undefined {
  const parts = units.slice(example.from);
  if (example.whole && parts.length > 1 && parts.every((u) => !u.block && !u.clause)) mergeUnits(units, parts);
  return undefined;
}

// "### Example 1: Simple Flowchart", "## Example", "### Beispiel 2": one example's section, not "### Examples".
const EXAMPLE_TITLE = /^#{1,6}\s*(?:\*\*|__)?(?:example|sample|beispiel|ejemplo|exemple|exemplo|例|示例)\s*\d*\s*(?:[:：.]|(?:\*\*|__)?\s*$)/i;

// What names a procedure in a title or lead-in; its steps are numbered (STEP_MARKER).
const PROCEDURE = /(?<![\p{L}])(?:steps?|step-by-step|workflow|process|procedure|phase \d+|in (?:this|the following) order|ordered|schritte|ablauf|vorgehen(?:sweise)?|arbeitsablauf|pasos|proceso|procedimiento|flujo de trabajo|étapes|procédure|processus|déroulement|passos|etapas|processo|procedimento|fluxo)(?![\p{L}])|步骤|流程|手順|ステップ/iu;
const STEP_MARKER = /^\s*\d{1,3}[.)]\s/;
const FORBIDS = /^[^\p{L}]*(?:never|do not|don['’]t|avoid|nie|niemals|keine?n?|nunca|no|jamais|ne|n['’]|não|evite|evita)(?![\p{L}])|^[^\p{L}]*(?:不要|不得|禁止|切勿|请勿|严禁)/iu;

// Says nothing but that something follows: "以下の内容でお願いします。", "See below.", "如下。".
const POINTS_AHEAD = /^(?:(?:please )?see (?:below|the following)|as follows|以下の?(?:内容|通り|とおり)?で?(?:お願いします|お願いいたします|よろしくお願いします)|(?:具体)?(?:内容|要求|情况)?如下|siehe unten|ver abajo|voir ci-dessous|veja abaixo)[.。!！]?$/iu;
// That examples follow, and the input after them: the examples show it, or, dropped, leave it pointing at nothing.
// "I'll give you some labelled examples first and then the new ticket.", "Vou te passar uns exemplos … e depois a nota nova."
const ANNOUNCES_EXAMPLES = /^[^\p{L}]*(?:i(?:'ll|’ll| will) (?:give|show|send|paste) you|here are|below are|te paso|te voy a pasar|vou te passar|vou passar|je vous (?:donne|mets)|je te (?:donne|mets)|ich gebe (?:dir|ihnen))\s+(?:\p{L}+\s+){0,3}?(?:examples?|ejemplos?|exemplos?|exemples?|beispiele?)(?![\p{L}])(?:[^.!?。]*)[.!?。]?$/iu;

// Says it of what the sentence before shows, with a task too: "Something along those lines is perfect".
const REFERS_BACK = /(?<![\p{L}])(?:along (?:those|these|the same) lines|(?:something|anything) like (?:that|this|those)|like that one)(?![\p{L}])/iu;
// Read on every sentence that has one before it: the pattern only where its words can be.
const refersBack = (text: string): boolean => LIKE_OR_ALONG.test(text) && REFERS_BACK.test(text);
const LIKE_OR_ALONG = /like|along/iu;

/**
 * "How will you handle this situation?" after "… a crisis where a product recall is necessary.": a
 * demonstrative whose noun the sentence before names points back at it.
 */
function pointsBack(text: string, previous: Unit, demonstrative: RegExp): boolean {
  return text.includes('th') && namedBefore(text, previous, demonstrative, (before, noun) => !STOPWORDS.has(noun) && opensWordIn(before, noun.slice(0, Math.max(4, noun.length - 2))));
}

/**
 * Whether a noun `pattern` finds in `text` (its first group, lower-cased) is named by the sentences of
 * `previous`, as `named` reads their lower-cased text (joined by `join`).
 */
function namedBefore(text: string, previous: Unit, pattern: RegExp, named: (before: string, noun: string) => boolean, join = ' '): boolean {
  let before: string | undefined;
  for (const m of text.matchAll(pattern)) {
    before ??= previous.sentences!.map(sentenceText).join(join).toLowerCase();
    if (named(before, m[1]!.toLowerCase())) return true;
  }
  return false;
}

/** Whether a word of `text` starts with `stem` (the stem is not preceded by a letter). */
function opensWordIn(text: string, stem: string): boolean {
  for (let at = text.indexOf(stem); at !== -1; at = text.indexOf(stem, at + 1)) if (at === 0 || !LETTER.test(text[at - 1]!)) return true;
  return false;
}
const LETTER = /\p{L}/u;
const DEMONSTRATIVE = /(?<![\p{L}])(?:this|these|those)\s+(\p{L}{3,})/giu;
// In a prompt's steps "that" points back too: "2. Import and use that Client Component directly …" after
// "1. Move all client-only logic into a dedicated Client Component". An article's "that" is mostly a
// conjunction ("held that paddling didn't …").
const PROMPT_DEMONSTRATIVE = /(?<![\p{L}])(?:this|these|those|that)\s+(\p{L}{3,})/giu;

// A short instruction about what the sentence before names: "Always note them …", "Fix it first.", "Make
// sure they're not competing articles.".
const OBJECT_PRONOUN = /^[^\p{L}]*(?:[\p{L}'’]+\s+){1,3}(?:it|them|they|their)(?![\p{L}])/iu;
const MAX_LEANING_WORDS = 10;
// The object of the verb that opens an instruction, whatever its length, is in the sentence before it in
// its paragraph: "… do not delete the test. Mark it with `it.skip` and put a comment directly above it …";
// not the "it" of "Make it clear that …" or "Keep it short". A list item's "Address it to …" names the
// deliverable, not the item before.
const VERB_OBJECT = /^[^\p{L}]*(?!(?:make|keep|let|take|get|leave)\s)\p{L}+\s+(?:it|them)\s+(?!(?:clear|short|simple|brief|concise|easy|sure|open|in mind|as is)(?![\p{L}]))/iu;

// Openers that lean on the sentence before ("Then …", "It is cleared …", "Does it …", "These files …"): kept only with
// it (without a task; with one, relevance decides), so no kept sentence points at nothing.
const CONTINUES = new RegExp(
  `^[^\\p{L}]*(?:(?:(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have)\\s+)?(?:it|its|they|their|them|this|these|those|such|he|she|that)(?:['’](?:s|re))?(?=\\s)|then|that means|this means|that is|without (?:it|this|that)|however|nevertheless|nonetheless|therefore|hence|as a result|in contrast|by contrast|on the other hand|das heißt|dann|es decir|entonces|c'est-à-dire|alors|ou seja|então|${OTHER_BRANCH})(?![\\p{L}])|^(?:然后|否则|也就是说|这种情况下|在这种情况下|つまり|その場合)`,
  'iu',
);

// In a prompt, a Chinese or Japanese sentence that opens on a pronoun or demonstrative points at the one before,
// as "It …" and "This …" do ("她强调这个问题…"); an article's "这是…" mostly introduces its own subject.
const POINTS_BACK_WIDE = /^(?:(?:这|那)(?:个|些|样|种)?|它|他|她|他们|她们|该|これ|それ|この|その|彼|彼女)/u;

// What goes on from the sentence before in a prompt's account ("But because the chip supplier …", "具体的には、…",
// "また、ビルド時に…"); a rule that opens so ("Also, avoid superlatives") stands on its own, and so does an
// article's sentence (its "But …" may hold an answer).
const GOES_ON = /^[^\p{L}]*(?:(?:but|specifically|in particular|aber|pero|mais|mas)(?![\p{L}])|但是|可是|不过|具体来说|しかし|具体的には|また、)/iu;

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
// The steps of a procedure ("1. **Measure First**: …", "2. **Delete Safely**: …") go together, instructions
// or not: a procedure without one of its steps is another procedure. Labelled bullets are rules each.
const NUMBERED = /^\s*\d+[.)]\s/;
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
    block.kind === 'prose' && !block.removed && isListItem(block) && block.sentences.length === 1 && (!block.sentences[0]!.instruction || NUMBERED.test(block.prefix)) &&
    block.sentences[0]!.tokens <= MAX_SET_ITEM_TOKENS && DEFINITION.test(block.sentences[0]!.pieces.map((p) => p.text).join(''));
  const indent = (block: Block) => /^\s*/.exec(block.prefix)![0];
  let run: Block[] = [];
  const flush = () => {
    if (run.length >= 2 && run.length <= MAX_SET_ITEMS) groups.push(run);
    else for (const block of run) groups.push([block]);
    run = [];
  };
  const enumerations = semicolonRuns(doc);
  doc.blocks.forEach((block, i) => {
    if (block.removed || block.kind !== 'prose') return;
    const enumeration = enumerations.get(block);
    if (enumeration) {
      flush();
      if (enumeration[0] === block) groups.push(enumeration);
      return;
    }
    if (isItem(block) && (run.length === 0 || (doc.blocks[i - 1] === run[run.length - 1] && indent(block) === indent(run[0]!)))) {
      run.push(block);
      return;
    }
    flush();
    if (isItem(block)) run.push(block);
    else groups.push([block]);
  });
  flush();
  return groups;
}

/**
 * "Capture: - the exact command; - commit SHA; - stdout, stderr, and exit status.": list items that end in
 * a semicolon are the parts of one sentence, kept or dropped together. Maps each item to its run.
 */
function semicolonRuns(doc: Doc): Map<Block, Block[]> {
  const runs = new Map<Block, Block[]>();
  let run: Block[] = [];
  const flush = () => {
    // Every item but the last ends in a semicolon, two at least (one may be a slip); the last closes the sentence.
    if (run.length >= 3 && run.length <= MAX_SET_ITEMS) for (const block of run) runs.set(block, run);
    run = [];
  };
  doc.blocks.forEach((block, i) => {
    const item = block.kind === 'prose' && !block.removed && isListItem(block) && block.sentences.length > 0;
    const last = run[run.length - 1];
    const continues = item && last !== undefined && doc.blocks[i - 1] === last && indentOf(block.prefix) === indentOf(last.prefix) && ENDS_CLAUSE.test(lastText(last));
    if (!continues) flush();
    if (item) run.push(block);
    if (item && !ENDS_CLAUSE.test(lastText(block))) flush();
  });
  flush();
  return runs;
}
const ENDS_CLAUSE = /[;；]\s*(?:(?:and|or|und|oder|et|ou|y|o|e)\s*)?$/iu;
// Only the end matters: the last piece of the last sentence.
const lastText = (block: Block): string => block.sentences[block.sentences.length - 1]!.pieces.at(-1)?.text ?? '';
