import { isListItem, isMaterial, isStructural, isThematicBreak, sentenceText, sentenceWords, type Block, type Doc, type Sentence } from '../doc';
import { wordInformation } from '../scoring/information';
import { STOPWORDS, words } from '../text/words';
import { lastAnswer } from '../prompt/examples';
import { TRIPLE_QUOTE_TAG } from '../prompt/layout';
import { endsOnColon, LEAD_IN_LEVEL } from './structure';
import { headingTitle, INPUT_TITLE } from './segment';
import { namedAbove, NAMES_WHERE, pointsBelow } from './requests';
import type { Unit } from './units';

/**
 * What ties selection's units together before it chooses: what a unit is kept only with (the block a
 * sentence shows, the announcement of a block), what ranks with the pinned units (the input a request
 * points at, the table it names), and which units repeat one another. Selection (select.ts) reads these
 * marks; they never keep or drop anything themselves, except a pointer to a block that went.
 */

/** `input`: ranked with the final input, above the other pinned units (see rankPointedInput). */
export type Entry = { unit: Unit; kept: boolean; pinned: boolean; input?: boolean };

/**
 * A lead-in that points back at the block right above it ("Default fix direction for every anti-pattern
 * above:" after the anti-pattern table) points at nothing once that block went: its items stay, without it.
 */
export function dropPointersAbove(doc: Doc): void {
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
export function keepWhatKeptLeansOn(entries: readonly Entry[]): void {
  const entryOf = new Map<Unit, Entry>();
  for (const entry of entries) entryOf.set(entry.unit, entry);
  for (const entry of entries) {
    if (!entry.kept) continue;
    for (let head = entry.unit.head, unit = entry.unit; head; unit = head, head = head.head) {
      const leaned = entryOf.get(head);
      if (!leaned || leaned.kept || head.parent !== unit.parent) break;
      leaned.kept = true;
      // The last resort of the pipeline drops the least valuable sentence first, and in relaxed mode never what is leaned on.
      const dependent = Math.max(...unit.sentences!.map((s) => s.score));
      for (const sentence of head.sentences!) (sentence.score = Math.max(sentence.score, dependent)), (sentence.leanedOn = true);
    }
  }
}

/**
 * The final input, pinned like the role and the closing request but ranked above them: where only one
 * fits, "First request: "I need a story on perseverance."" says more than "Act as a storyteller."
 */
export const isInput = (unit: Unit): boolean => !!unit.block?.pinned || !!unit.sentences?.some((s) => s.input);

/**
 * The input a request points at ("Could you translate these UI strings …?" before the strings' JSON,
 * "Pourriez-vous traduire cette clause …" before « … »): where one block of material follows the
 * request, strict mode ranks both above the other pinned units. A prompt to translate without its text
 * asks nothing.
 */
export function rankPointedInput(doc: Doc, entries: readonly Entry[], strict: boolean): void {
  rankDocumentNamedAbove(doc, entries);
  // The request, or the pinned sentence the prompt closes on ("Por favor, extraia os dados da nota acima.").
  const closing = doc.blocks.filter((b) => b.kind === 'prose' && !b.removed && !b.verbatim).at(-1);
  const asking = (s: Sentence) => !!s.request || (s.pinned && closing?.sentences.includes(s));
  const pointing = (s: Sentence) => asking(s) && !s.removed && (POINTS_AT.test(sentenceText(s)) || pointsBelow(sentenceText(s)) || POINTS_BACK.test(sentenceText(s)) || namesWhere(sentenceText(s)));
  const at = doc.blocks.findIndex((b) => b.kind === 'prose' && b.sentences.some(pointing));
  if (at < 0) return;
  const after = doc.blocks.slice(at + 1).filter((b) => !b.removed);
  // Retrieved documents, a quoted draft: the text to work on where no block of material follows.
  let material = after.filter((b) => isMaterial(b) || isQuotation(b));
  // "この下書きを…書き直して", "Review this diff" after the diff, "Could you write a test module for it?"
  // after the function, "请提取上述合同中的信息" after the contract between two rules: the text just before.
  let documents = false;
  // A pasted text over several paragraphs just before the request: the request's input, as one block would be.
  let pasted = false;
  if (material.length === 0) {
    const before = doc.blocks.slice(0, at).filter((b) => !b.removed && !isStructural(b)).at(-1);
    const run = delimitedRun(doc.blocks.slice(0, at).filter((b) => !b.removed), 'before');
    if (run) (material = run), (pasted = true);
    else if (before && (isQuotation(before) || isMaterial(before))) material = [before];
  }
  if (material.length === 0) {
    // A text between delimiter lines (`"""`, `---`) after the request is its input too.
    const run = delimitedRun(after, 'after');
    if (run) (material = run), (pasted = true);
    else (documents = true), (material = after.filter((b) => b.kind === 'prose' && b.verbatim));
  }
  if (material.length !== 1 && !pasted) return;
  const inMaterial = new Set(material);
  // The request and its input rank first, the request (shorter, and saying what to do) usually before.
  // Documents' sentences rank with the other pinned units in strict mode, after the request: they are
  // many, each short, and the request alone still asks where their best sentences alone ask nothing. In
  // relaxed mode they compete by value: by length, a short one that answers nothing would win.
  for (const entry of entries) {
    const request = entry.unit.parent === doc.blocks[at] && !!entry.unit.sentences?.some(pointing);
    const input = inMaterial.has((entry.unit.block ?? entry.unit.parent)!);
    if (request || (input && !documents)) entry.pinned = entry.input = true;
    // A sentence kept only with another (a speaker's topic, a title: a score of 0) stays so.
    else if (strict && input && entry.unit.score > 0) entry.pinned = true;
  }
}

/**
 * The verbatim paragraphs of a text between two delimiter lines (`"""`, `---`): the first such text in
 * `blocks` (the blocks after the request) or the one they end on (the blocks before it).
 */
function delimitedRun(blocks: readonly Block[], where: 'before' | 'after'): Block[] | undefined {
  const delimiter = (b: Block | undefined) => !!b && (isThematicBreak(b) || b.tag?.name === TRIPLE_QUOTE_TAG);
  const quoted = (b: Block | undefined) => b?.kind === 'prose' && b.verbatim;
  let end = where === 'before' ? blocks.length - 1 : blocks.findIndex((b, i) => delimiter(b) && quoted(blocks[i + 1]));
  if (end < 0 || !delimiter(blocks[end])) return undefined;
  const step = where === 'before' ? -1 : 1;
  let k = end + step;
  while (quoted(blocks[k])) k += step;
  const run = blocks.slice(Math.min(end, k) + 1, Math.max(end, k));
  // After the request, the only quoted text there: retrieved documents in their own sections compete by value.
  const others = where === 'after' && blocks.some((b) => quoted(b) && !run.includes(b));
  return run.length > 0 && delimiter(blocks[k]) && !others ? run : undefined;
}

/**
 * The one document the request names above it ("Could you write the release notes from the changelog
 * above?" after `<document title="Changelog export">`): the input to work from, ranked with the request in
 * both modes, as the text to translate is. Retrieved documents a question only draws on compete by value.
 */
function rankDocumentNamedAbove(doc: Doc, entries: readonly Entry[]): void {
  const request = doc.blocks.flatMap((b) => (b.kind === 'prose' ? b.sentences : [])).find((s) => !s.removed && (s.request || s.pinned) && namedAbove(sentenceText(s)));
  const name = request && namedAbove(sentenceText(request));
  if (!name) return;
  const at = doc.blocks.findIndex((b) => b.sentences.includes(request!));
  const titled = doc.blocks.slice(0, at).filter((b) => b.kind === 'markup' && b.tag && !b.tag.closing && b.tag.partner && b.body.toLowerCase().includes(name));
  if (titled.length !== 1) return;
  const end = doc.blocks.indexOf(titled[0]!.tag!.partner!);
  const inside = new Set(doc.blocks.slice(doc.blocks.indexOf(titled[0]!) + 1, end));
  for (const entry of entries) if ((entry.unit.block && inside.has(entry.unit.block)) || (entry.unit.parent && inside.has(entry.unit.parent) && entry.unit.score > 0)) entry.pinned = true;
}

/**
 * The text under a title that names it as the input ("## Text to translate", "## Transcript", the paragraph
 * after "待翻译原文："):
 * what the prompt is about, ranked with the request in both modes while it takes at most two thirds of
 * the budget. A longer one competes by value (all of it would leave no room for what to do with it).
 */
export function rankTitledInput(doc: Doc, entries: readonly Entry[], budget: number): void {
  const at = doc.blocks.findIndex((b) => b.kind === 'heading' && !b.removed && INPUT_TITLE.test(headingTitle(b)));
  if (at < 0) return;
  const title = doc.blocks[at]!;
  const level = title.level ?? 1;
  const inside = new Set<Block>();
  for (let k = at + 1; k < doc.blocks.length; k++) {
    const block = doc.blocks[k]!;
    if (block.kind === 'heading' && (block.level ?? 1) <= level) break;
    if (block.kind === 'prose' && block.verbatim) inside.add(block);
    // A label line ("Text to translate:") titles the one paragraph after it.
    if (title.titlesNext) break;
  }
  const input = entries.filter((e) => e.unit.parent && inside.has(e.unit.parent) && e.unit.score > 0);
  if (input.length === 0 || input.reduce((n, e) => n + e.unit.cost, 0) > budget * INPUT_SHARE) return;
  for (const entry of input) entry.pinned = entry.input = true;
}
/** The share of the budget titled input may take and still rank first: the rest is the request and its rules. */
const INPUT_SHARE = 2 / 3;

/**
 * A prompt's one table that its text names ("Use the numbers from the table only", "die 2 Punkte aus der
 * Tabelle") is the data it asks about: strict mode ranks it with the pinned units while it takes at most
 * half of the budget (a larger one would leave no room for what to do with it).
 */
export function rankNamedTable(doc: Doc, entries: readonly Entry[], budget: number): void {
  const tables = doc.blocks.filter((b) => !b.removed && b.kind === 'table');
  if (tables.length !== 1) return;
  const named = doc.blocks.some((b) => b.kind === 'prose' && !b.verbatim && b.sentences.some((s) => !s.removed && TABLE_WORD.test(sentenceText(s))));
  if (!named) return;
  for (const entry of entries) if (entry.unit.block === tables[0] && entry.unit.cost <= budget / 2) entry.pinned = true;
}
// Not a database's table, named by its identifier: "in die Tabelle `rechnung_archiv`", "the `orders` table".
const TABLE_WORD = /(?<![\p{L}]|`\s?)(?:table|tabelle|vergleichstabelle|tabla|tableau|tabela)(?![\p{L}]|\s?`)|表格|预算表|の表|表を/iu;

// "these UI strings", "cette clause", "diesen Text", "este correo", "esse texto", "この文章", "这段代码".
const POINTS_AT = /(?<![\p{L}])(?:this|these|the following|the attached|cette|ces|cet|diese[nmrs]?|folgenden?|este|esta|estos|estas|esse|essa|esses|essas)(?![\p{L}])|この|これら|以下の|这段|这个|这些|下面的/iu;
// What a request does to the block before it, by pronoun: "… a test module for it", "translate it", "Könntest du sie prüfen".
// What the prompt itself says, by where it stands: "seguindo o esquema abaixo", "the rules above", "下面的JSON结构".
const OWN_WORDS = /(?<![\p{L}])(?:schema|esquema|sch[ée]ma|formato?|template|plantilla|modelo|vorlage|rules?|regeln?|règles?|reglas?|regras?|instructions?|instrucciones|instruções|anweisungen|examples?|exemples?|ejemplos?|exemplos?|beispiele?|steps?|schritte|étapes|pasos|passos)(?![\p{L}])|格式|结构|模板|规则|要求|示例|形式|ルール|例/iu;
/** Whether the text names what it works on by where it stands, not the prompt's own format or rules. */
function namesWhere(text: string): boolean {
  const where = NAMES_WHERE.exec(text);
  return !!where && !OWN_WORDS.test(text.slice(Math.max(0, where.index - 30), where.index + where[0].length + 12));
}
const POINTS_BACK = /(?<![\p{L}])(?:(?:for|on|of|about|to|with|from|against|into|over) (?:it|them)|(?:test|document|refactor|review|translate|summari[sz]e|explain|fix|optimi[sz]e|rewrite|debug|check|analy[sz]e|improve|shorten|clean up|convert) (?:it|them))(?![\p{L}])/iu;
// A quotation of some length, labelled or not: "Clause 11.2 : « En cas de manquement … »", "「佐々木様 …」".
const QUOTATION = /^[^«"“„「『]{0,40}[«"“„「『][^»"”“」』]{60,}[»"”“」』]\s*$/u;
const isQuotation = (block: Block): boolean =>
  block.kind === 'prose' && !isListItem(block) && block.sentences.length === 1 && QUOTATION.test(sentenceText(block.sentences[0]!));

/**
 * A sentence that ends its paragraph with a colon announces the block after it ("Las tablas son estas:"
 * before the schema, "My draft:" before the quoted draft): it comes only with that block, never alone,
 * and relaxed mode keeps it with a block it keeps.
 */
export function announceBlocks(doc: Doc, entries: Entry[]): void {
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
 * A lead-in that ends on a colon right before a block ("1. Run the scan script from the target project
 * root:", then the command) shows that block: what else stands under it ("Where `$SKILL_ROOT` is …",
 * "Works on Windows, macOS, and Linux.") speaks of the block, and is kept only once the block is.
 */
export function leanOnShownBlocks(doc: Doc, entries: readonly Entry[], leadInOf: (unit: Unit) => Block | undefined, strict: boolean): void {
  const shown = new Map<Block, Unit>();
  const blockUnit = blockUnits(entries, strict);
  doc.blocks.forEach((leadIn, i) => {
    const next = doc.blocks[i + 1];
    if (leadIn.removed || !endsOnColon(leadIn) || !next || !isMaterial(next)) return;
    const unit = blockUnit.get(next);
    if (unit) shown.set(leadIn, unit);
  });
  if (shown.size === 0) return;
  for (const { unit, pinned } of entries) {
    if (pinned || !unit.sentences || unit.requires) continue;
    const leadIn = leadInOf(unit);
    const block = leadIn && shown.get(leadIn);
    if (block) unit.requires = block;
  }
}

/**
 * Each block's unit, for what shows or speaks of the block to wait for; null for a block relaxed mode
 * keeps whatever the budget (it is there for them anyway).
 */
function blockUnits(entries: readonly { unit: Unit; kept: boolean }[], strict: boolean): Map<Block, Unit | null> {
  const blockUnit = new Map<Block, Unit | null>();
  for (const { unit, kept } of entries) if (unit.block) blockUnit.set(unit.block, kept && !strict ? null : unit);
  return blockUnit;
}

/**
 * "Below is the table our finance team sent.", "Here is the schema below", "the function above": a
 * sentence that shows the reader a block is kept only with that block (the nearest one that way, in its
 * section), and never pulls it in: without the block, it points at nothing.
 */
export function pointAtBlocks(doc: Doc, entries: readonly { unit: Unit; kept: boolean }[], strict: boolean): void {
  const blockUnit = blockUnits(entries, strict);
  if (blockUnit.size === 0) return;
  const index = new Map<Block, number>();
  doc.blocks.forEach((block, i) => index.set(block, i));
  for (const { unit, kept } of entries) {
    if (kept || unit.block || unit.sentences?.length !== 1 || !unit.parent) continue;
    const text = sentenceText(unit.sentences[0]!);
    // "Use exactly these levels." in the paragraph right before the table it names, "Keep new handlers in this
    // shape." opening the one right after the code: without the block, the rule points at nothing.
    if (ENDS_ON_SHOWN.test(text)) {
      const at = index.get(unit.parent)!;
      const after = doc.blocks[at + 1];
      const before = unit.parent.sentences[0] === unit.sentences[0] ? doc.blocks[at - 1] : undefined;
      const shown = after && blockUnit.has(after) ? after : before && blockUnit.has(before) ? before : undefined;
      if (shown) {
        const target = blockUnit.get(shown);
        if (target) unit.requires = target;
        continue;
      }
    }
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
// A sentence that ends on what it shows next: "… these levels.", "… in this shape.", "… in this format:",
// "… diese Stufen.", "… estos niveles.", "… ce format.", "… este formato.".
const ENDS_ON_SHOWN = /(?<![\p{L}])(?:this|these|the following|diese[nmrs]?|folgenden?|este|esta|estos|estas|ce|cet|cette|ces|esse|essa|esses|essas)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s*[.:：]?\s*$/iu;
// "Where `$SKILL_ROOT` is the absolute path …" after a command: says what a name in the block above means.
const DEFINES_ABOVE = /^[^\p{L}`$]*where\s+(?:`[^`]+`|\$\w+)\s+(?:is|are|stands for|means)(?![\p{L}])/iu;
const SHOWN_ABOVE = new RegExp(`^[^\\p{L}]*(?:the|this|my|our) ${SHOWN}s?\\s+(?:above|acima|ci-dessus|oben)(?![\\p{L}])`, 'iu');

/** What a repeat of a kept unit adds (its section's scope, not its words): see markRepeats. */
export const REPEATED = 0.25;

/**
 * A rule repeated under each section ("- Work silently without announcements until complete." in every
 * phase) stays at 100% (dedupe leaves list items of other sections alone); where the budget is short,
 * its second copy is worth little beside what no kept unit says yet. Such copies are written alike (a
 * case or spacing variant is rare enough to count as new). Keys start with a NUL character, which no task
 * term holds.
 */
export function markRepeats(entries: readonly Entry[]): void {
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
export function markAnswers(entries: readonly Entry[]): void {
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
 * A prompt's one code or data block whose names its own sentences use ("ciudad", "total_gastado",
 * `order_id`): what they ask is about it (a schema to query, a function to review), and each sentence
 * that names it adds to its value. Said in English, a name is a rare word or shaped like an identifier ("name" and
 * "file" are everywhere); in the other languages, code's words are names where its prose uses them.
 */
export function rankNamedBlocks(doc: Doc, entries: readonly Entry[]): void {
  const shown = entries.filter((e) => e.unit.block && (e.unit.block.kind === 'code' || e.unit.block.kind === 'data'));
  // One block is what the prompt works on; among several (an agent file's examples), naming one is showing it.
  if (shown.length !== 1) return;
  const { unit } = shown[0]!;
  const names = new Set(words(unit.block!.body).filter((w) => isName(w, doc.english)));
  let naming = 0;
  for (const block of doc.blocks) {
    if (block.kind !== 'prose' || block.verbatim || block.removed) continue;
    for (const sentence of block.sentences) if (!sentence.removed && sentenceWords(sentence).some((w) => names.has(w))) naming++;
  }
  unit.score += NAMED_BY * Math.min(MAX_NAMING, naming);
}
const NAMED_BY = 0.25;
const MAX_NAMING = 4;
const MIN_NAME = 4;
const RARE = 0.75;
const IDENTIFIER = /[_\d]|[a-z][A-Z]/;
const isName = (word: string, english: boolean): boolean =>
  word.length >= MIN_NAME && !STOPWORDS.has(word) && !CODE_WORDS.has(word) && /\p{L}/u.test(word) && (!english || IDENTIFIER.test(word) || wordInformation(word) >= RARE);
// Keywords and types that any code or schema holds: no name of this one.
const CODE_WORDS = new Set(
  ('select from where create table insert update delete join left right inner outer group order limit having null true false return ' +
    'function const async await class import export interface string number boolean varchar integer bigint decimal numeric text date ' +
    'datetime timestamp primary foreign references default index unique auto_increment json object array print self none elif while ' +
    'public private static void package func main error errors value values type types string int float double char bool struct ' +
    'http https test tests file files name data list items item count distinct case when then else between like exists union')
    .split(' '),
);
