import type { Mode } from './options';
import { words } from './text/words';

/**
 * The one shape every pass sees (as unified's tree): blocks of the prompt, prose split into
 * sentences, sentences into pieces; a piece is either protected (locked) or free text.
 */
export interface Piece {
  text: string;
  /** Protected inline span: never altered, only dropped with its whole sentence. */
  readonly locked: boolean;
  /** A user-marked <keep> span (markers already removed). */
  readonly kept?: boolean;
}

export interface Sentence {
  pieces: Piece[];
  /** Whitespace after the sentence inside its block. */
  sep: string;
  removed: boolean;
  /** Tokens of the sentence's current text; every pass that edits a sentence re-measures it. */
  tokens: number;
  /** An instruction to the model (must, never, do not, imperative…): kept in relaxed mode. */
  instruction: boolean;
  /** Holds a user-marked <keep> span: kept in relaxed mode, dropped only whole in strict mode. */
  readonly userKept: boolean;
  /** Importance from the last ranking, about 0–1.5; pruning takes words from low scores first. */
  score: number;
  /** The prompt's final request or input, or its role statement: ranked first, kept in relaxed mode. */
  pinned?: boolean;
  /**
   * What the prompt asks (its first question or instruction, a sentence holding a template slot such as
   * `${input:name}`): ranked first in strict mode, kept whatever the budget in relaxed mode.
   */
  request?: boolean;
  /** The input the prompt closes on ('My first request is "…"', a template slot): pinned, and above the role. */
  input?: boolean;
  /** Opens a turn of a transcript ("Carlos (tesoureiro): …"): the rest of its line is said by that speaker. */
  speaker?: boolean;
  /** What a sentence relaxed mode keeps whatever the budget leans on ("Les formules : …" before "N'invente aucun autre tarif."): kept with it. */
  leanedOn?: boolean;
}

/**
 * `prose` is compressible; every other kind is kept verbatim or dropped whole. `frontmatter` (YAML/TOML
 * header) and `example` (one few-shot example) are found by the prompt layer, not the Markdown scan.
 */
export type BlockKind = 'prose' | 'heading' | 'code' | 'data' | 'table' | 'keep' | 'markup' | 'frontmatter' | 'example';

/** An XML-like tag line (`<rules>`, `</rules>`): kept or dropped with its partner. */
export interface Tag {
  readonly name: string;
  readonly closing: boolean;
  /** The other tag of the pair; absent for a tag without a partner. */
  partner?: Block;
}

export interface Block {
  readonly kind: BlockKind;
  /** Line breaks that separated this block from the previous one. */
  sepBefore: string;
  /** Prose only: list marker, quote marker or indentation kept in front of the text. */
  prefix: string;
  /** Prose only: the closing quotation mark of a paragraph in quotation marks, kept after the text. */
  suffix?: string;
  /** Non-prose blocks: the exact text to emit. */
  readonly body: string;
  readonly sentences: Sentence[];
  removed: boolean;
  /** Non-prose blocks: tokens of `body` (plus prefix for prose is counted in sentences). */
  readonly tokens: number;
  /** Markup blocks that are one tag. */
  tag?: Tag;
  /** Headings: 1–6; lead-ins: LEAD_IN_LEVEL. */
  level?: number;
  /**
   * A lead-in that announces the sub-sections after it ("When implementing, **ALWAYS follow this
   * process**:" before "### Step 1"): the level of the section it stands in (0: none), where its own ends.
   */
  within?: number;
  /** A label line that names the text after it ("Text to translate:", "待翻译原文："): it titles that one paragraph. */
  titlesNext?: boolean;
  /** The prompt's final input (last `<question>` section, trailing "Input:" …): kept in relaxed mode. */
  pinned?: boolean;
  /** Prose quoted as material (inside `<document>`, `<contract>` …): dropped by sentence, never reworded. */
  verbatim?: boolean;
  /** A paragraph of a quotation over several: its marks, written around what is kept of them all. */
  quotation?: Quotation;
}

export interface Quotation {
  readonly open: string;
  readonly close: string;
  readonly blocks: readonly Block[];
}

export interface Doc {
  readonly blocks: Block[];
  /** Whether English-only passes may run. */
  readonly english: boolean;
  readonly task: string;
  /** What passes report back to the controller. */
  readonly notes: { protectedDropped: boolean };
}

/** Code, data or a table: material the prompt shows, kept or dropped whole. */
export const isMaterial = (block: Block): boolean => block.kind === 'code' || block.kind === 'data' || block.kind === 'table';

/** Headings and markup lines: structure, kept while the content they frame is kept. */
export const isStructural = (block: Block): boolean => block.kind === 'heading' || block.kind === 'markup';

/** The level of a lead-in line ("Rules:"): its section is the list right after it. */
export const LEAD_IN_LEVEL = 7;
/** A list marker with its indentation: "- ", "  2. ", "b) ". */
export const LIST_MARKER = /^\s*(?:(?:[-*+•]|\d{1,3}[.)]|[a-zA-Z][.)])\s|[・●])/;
/** A list item: its prefix is a list marker ("- ", "2. ", "b) "). */
export const isListItem = (block: Block): boolean => LIST_MARKER.test(block.prefix);
/** Whether sentence `i` of a prose block starts a line: the first, or after a line break. */
export const opensLine = (block: Block, i: number): boolean => i === 0 || block.sentences[i - 1]!.sep.includes('\n');
/** The width of the whitespace that opens `text`: a list item's depth. */
export const indentOf = (text: string): number => /^\s*/.exec(text)![0].length;

/** Blocks kept or dropped whole whose loss breaks the budget promise in strict mode (soft limit). */
export const isProtected = (block: Block): boolean => block.kind !== 'prose' && block.kind !== 'example' && !isStructural(block);

/**
 * What relaxed mode keeps whatever the budget, in prose: the role, what the prompt asks (its request, its
 * final input), <keep> text. A code block that fills the budget leaves the request with it, not alone.
 */
export const isFixedSentence = (sentence: Sentence): boolean => !!sentence.pinned || sentence.userKept || !!sentence.request;

/**
 * What relaxed mode keeps whatever the budget, as a block: protected blocks and front matter, and an
 * example that is the final input or holds code (code too).
 */
export const isFixedBlock = (block: Block): boolean =>
  block.kind === 'example' ? !!block.pinned || /^\s*(?:```|~~~)/m.test(block.body) : isProtected(block);

/** A block that renders as nothing now: removed, or prose whose every sentence went. */
export const isGone = (block: Block): boolean => block.removed || (block.kind === 'prose' && block.sentences.every((s) => s.removed));

export function sentenceText(sentence: Sentence): string {
  const pieces = sentence.pieces;
  if (pieces.length === 1) return pieces[0]!.text;
  // Every pass and every score reads the text many times: join it once while its pieces are unchanged
  // (a joined string is flattened once by the first pattern that reads it, not at every call).
  const cached = textCache.get(sentence);
  if (cached !== undefined && cached.pieces === pieces && samePieces(cached.parts, pieces)) return cached.text;
  const parts = pieces.map((piece) => piece.text);
  const text = parts.join('');
  textCache.set(sentence, { pieces, parts, text });
  return text;
}

const textCache = new WeakMap<Sentence, { pieces: readonly Piece[]; parts: readonly string[]; text: string }>();

function samePieces(parts: readonly string[], pieces: readonly Piece[]): boolean {
  if (parts.length !== pieces.length) return false;
  for (let i = 0; i < parts.length; i++) if (parts[i] !== pieces[i]!.text) return false;
  return true;
}

// Dedupe and ranking both read a sentence's words; passes run one after another on unchanged text.
const wordsCache = new WeakMap<Sentence, { text: string; words: string[] }>();

/** Lower-cased words of the sentence's current text (see `words`), scanned once per text. */
export function sentenceWords(sentence: Sentence): string[] {
  const text = sentenceText(sentence);
  const cached = wordsCache.get(sentence);
  if (cached && cached.text === text) return cached.words;
  const scanned = words(text);
  wordsCache.set(sentence, { text, words: scanned });
  return scanned;
}

export function keptSentences(doc: Doc): Sentence[] {
  const kept: Sentence[] = [];
  for (const block of doc.blocks) {
    if (block.removed || block.kind !== 'prose') continue;
    for (const sentence of block.sentences) if (!sentence.removed) kept.push(sentence);
  }
  return kept;
}

/** Kept sentences that word edits may touch: not those of quoted material (see Block.verbatim). */
export function editableSentences(doc: Doc): Sentence[] {
  const kept: Sentence[] = [];
  for (const block of doc.blocks) {
    if (block.removed || block.kind !== 'prose' || block.verbatim) continue;
    for (const sentence of block.sentences) if (!sentence.removed) kept.push(sentence);
  }
  return kept;
}

/**
 * Sentences word-level lossy passes may edit: editable ones, without what relaxed mode keeps whatever
 * the budget (the role, the final request, <keep> text), which stays as the user wrote it.
 */
export function wordEditable(doc: Doc, mode: Mode): Sentence[] {
  const sentences = editableSentences(doc);
  return mode === 'strict' ? sentences : sentences.filter((s) => !isFixedSentence(s));
}

/**
 * The document's editable state now, and a function that brings it back: the lossy passes run again
 * from here on a tighter budget instead of cutting further into what a first run left.
 */
export function checkpoint(doc: Doc): () => void {
  const blocks = doc.blocks.map((block) => ({ block, removed: block.removed, prefix: block.prefix, body: block.body }));
  const sentences = doc.blocks.flatMap((block) =>
    block.sentences.map((sentence) => ({ sentence, pieces: sentence.pieces.map((p) => ({ ...p })), removed: sentence.removed, tokens: sentence.tokens, sep: sentence.sep })),
  );
  const { protectedDropped } = doc.notes;
  return () => {
    for (const { block, removed, prefix, body } of blocks) Object.assign(block, { removed, prefix, body });
    // Fresh copies: word passes edit pieces in place.
    for (const { sentence, pieces, removed, tokens, sep } of sentences) Object.assign(sentence, { pieces: pieces.map((p) => ({ ...p })), removed, tokens, sep });
    doc.notes.protectedDropped = protectedDropped;
  };
}

function renderBlock(block: Block): string {
  if (block.kind !== 'prose') return block.body;
  let text = '';
  let pending: string | null = null; // the separator owed before the next kept sentence
  for (const sentence of block.sentences) {
    const own = sentenceText(sentence);
    if (sentence.removed || own.length === 0) {
      // A line break among the separators of what went stays: a transcript keeps one turn per line.
      if (pending !== null && sentence.sep.includes('\n') && !pending.includes('\n')) pending = sentence.sep;
      continue;
    }
    if (pending !== null) text += pending;
    text += own;
    // The separator as written: CJK sentences join with none, and must not gain one.
    pending = sentence.sep || (endsWide(own) ? '' : ' ');
  }
  return text === '' ? '' : block.prefix + text + (block.suffix ?? '');
}

/** Ends with a full-width mark or CJK character, after which scripts without spaces need none. */
const endsWide = (text: string): boolean => /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]$/u.test(text);

/** The prompt text the document stands for now. */
export function render(doc: Doc): string {
  let out = '';
  // The widest gap of the blocks that went since the last one written: "Rules:\n\n1. …" that lost its
  // first item keeps its blank line before the second.
  let gap = '';
  const blocks = doc.blocks;
  const stray = strayRules(blocks);
  const keptOf = new Map<Quotation, Block[]>(); // the kept paragraphs of each quotation over several
  const texts = blocks.map((block, i) => (block.removed || isStraySpacer(blocks, i) || stray.has(block) ? '' : renderBlock(block)));
  const numbers = renumbered(doc, texts);
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    let text = texts[i]!;
    const number = numbers.get(block);
    if (number !== undefined && text !== '') text = text.replace(NUMBERED, (_, indent: string) => indent + number);
    if (text !== '' && block.quotation) {
      let kept = keptOf.get(block.quotation);
      if (!kept) keptOf.set(block.quotation, (kept = block.quotation.blocks.filter((b) => !b.removed && renderBlock(b) !== '')));
      text = withQuotationMarks(block, text, kept);
    }
    if (text === '') {
      if (lineBreaks(block.sepBefore) > lineBreaks(gap)) gap = block.sepBefore;
      continue;
    }
    // "I need weekly revenue … from this table:" kept without the table ends as a sentence.
    // An answer slot ("Queue:") and quoted material stay as written.
    if (block.kind === 'prose' && !block.verbatim && i + 1 < blocks.length && isGone(blocks[i + 1]!)) text = closeAnnouncement(text, block);
    if (isListItem(block) && !block.verbatim) text = closeList(blocks, i, texts, text);
    // After a gap, the block keeps its indentation; a block that went on the line of one that went
    // ("… tools. Use the APIs to:") starts its line.
    const indent = block.sepBefore.includes('\n') ? /[ \t]*$/.exec(block.sepBefore)![0] : '';
    if (out !== '') out += lineBreaks(gap) > lineBreaks(block.sepBefore) ? gap.replace(/[ \t]+$/, '') + indent : block.sepBefore;
    out += text;
    gap = '';
  }
  return out;
}

const lineBreaks = (gap: string): number => gap.split('\n').length - 1;

// A numbered item's marker ("2. ", "  3) ") and a sentence that refers to an item by its number ("see step 3",
// "rule 2", "Schritt 4", "第3条"): with one, numbers are names, and stay as written.
const NUMBERED = /^([ \t]*)\d{1,3}(?=[.)][ \t])/;
const REFERS_TO_NUMBER = /(?<![\p{L}])(?:steps?|rules?|items?|points?|stages?|phases?|schritte?s?|regeln?|punkte?s?|pasos?|reglas?|puntos?|étapes?|règles?|passos?|regras?|pontos?)\s+#?\d|(?<![\p{L}\d])#\d|第\s*\d+\s*[条步项点]/iu;
const refersToNumbers = new WeakMap<Doc, boolean>();
// A list whose numbers rank ("Cleanup priorities, in order:", "nach Priorität"): priority 5 never becomes 1.
const RANKING = /priorit|ranked|ranking|in (?:this |that |the following )?order(?! to)|order of|most important first|wichtigkeit|rangfolge|reihenfolge|importancia|en orden|importance|dans l['’]ordre|importância|na ordem|优先|優先|顺序|順番|重要度/iu;

/** Whether the lead-in or heading right above the list item at `at` says its numbers rank. */
function ranks(blocks: readonly Block[], at: number): boolean {
  let k = at - 1;
  while (k >= 0 && blocks[k]!.kind === 'prose' && LIST_MARKER.test(blocks[k]!.prefix)) k--;
  const lead = blocks[k];
  if (!lead) return false;
  return RANKING.test(lead.kind === 'prose' ? lead.sentences.map(sentenceText).join(' ') : lead.body);
}

/**
 * New numbers for the kept items of a numbered list that lost some ("1. 2. 4." reads "1. 2. 3."): a run of
 * items at one indent, numbered one after another, counts on from its first number. Nested items and an
 * item's later paragraphs may stand between two items of the run; anything else ends it.
 */
function renumbered(doc: Doc, texts: readonly string[]): Map<Block, number> {
  const numbers = new Map<Block, number>();
  let refers = refersToNumbers.get(doc);
  if (refers === undefined) {
    refers = doc.blocks.some((b) => b.kind === 'prose' && b.sentences.some((s) => REFERS_TO_NUMBER.test(sentenceText(s))));
    refersToNumbers.set(doc, refers);
  }
  if (refers) return numbers;
  let run: { indent: number; last: number; next: number; gap: boolean; ranks: boolean } | null = null;
  doc.blocks.forEach((block, i) => {
    // Quoted material (a contract's items) stays as written: its numbers are data, not the prompt's order.
    // An item that leads its own nested list ("6. Error codes shown in the app:") is a lead-in line, its
    // number in its text: one of the run all the same.
    const numbered = block.kind === 'prose' && !block.verbatim ? block.prefix : block.kind === 'heading' && block.level === LEAD_IN_LEVEL ? block.body : null;
    const marker = numbered === null ? null : NUMBERED.exec(numbered);
    const indent = numbered === null ? 0 : /^[ \t]*/.exec(numbered)![0].length;
    if (!marker) {
      // What stands inside an item (deeper, or its next paragraph) keeps the run; anything else ends it.
      if (!(block.kind === 'prose' && run !== null && /^[ \t]*/.exec(block.prefix)![0].length > run.indent)) run = null;
      return;
    }
    const written = Number(numbered!.slice(marker[1]!.length, marker[0].length));
    if (run && indent > run.indent) return;
    if (!run || indent !== run.indent || written !== run.last + 1) run = { indent: marker[1]!.length, last: written, next: written, gap: false, ranks: ranks(doc.blocks, i) };
    else run.last = written;
    if (texts[i] === '') {
      run.gap = true;
      return;
    }
    if (!run.ranks && (run.gap || run.next !== written)) numbers.set(block, run.next);
    run.next++;
  });
  return numbers;
}
/** Whether the block's last kept sentence ends in a protected piece (a <keep> span, a literal): never edited. */
const endsLocked = (block: Block): boolean => {
  const last = block.sentences.filter((s) => !s.removed).pop();
  return !last || last.pieces.length === 0 || last.pieces[last.pieces.length - 1]!.locked;
};
/**
 * "… from this table in BigQuery:" with nothing after it ends on a period. Only a sentence of a few words
 * does: a label alone on its line ("Queue:", "Input:") is an answer slot.
 */
function closeAnnouncement(text: string, block: Block): string {
  const end = text.trimEnd().length;
  const colon = text[end - 1];
  if ((colon !== ':' && colon !== '：') || endsLocked(block)) return text;
  const line = text.slice(text.lastIndexOf('\n', end - 1) + 1, end - 1);
  const wide = colon === '：' && /[\u3040-\u9fff]/.test(line);
  if (!/[\p{L}\p{N})\]」”"'`]$/u.test(line) || (wide ? line.length < 6 : line.trim().split(/\s+/).length < 4)) return text;
  return text.slice(0, end - 1) + (colon === '：' ? '。' : '.') + text.slice(end);
}

/**
 * The items of one sentence run over a list ("… dass sie:", "- … klingt,", "- … nennt,", "- … endet."): where
 * the last ones went, the last kept one takes the period the sentence ended with ("- höchstens 150 Wörter
 * lang ist," was left hanging).
 */
function closeList(blocks: readonly Block[], at: number, texts: readonly string[], text: string): string {
  if (!/[,;，；]\s*$/.test(text) || endsLocked(blocks[at]!)) return text;
  const indent = indentOf(blocks[at]!.prefix);
  let last = at;
  for (let k = at + 1; k < blocks.length; k++) {
    const block = blocks[k]!;
    if (block.kind !== 'prose' || !isListItem(block) || indentOf(block.prefix) < indent) break;
    if (indentOf(block.prefix) > indent) continue;
    if (texts[k] !== '') return text; // a later item of the run is kept
    last = k;
  }
  const ending = last === at ? undefined : /[.。!！]\s*$/.exec(sentenceText(blocks[last]!.sentences[blocks[last]!.sentences.length - 1]!))?.[0].trim();
  return ending ? text.replace(/[,;，；](\s*)$/, `${ending}$1`) : text;
}

/** A kept paragraph of a quotation over several, with the opening mark if it is the first kept, the closing one if the last. */
function withQuotationMarks(block: Block, text: string, kept: readonly Block[]): string {
  const { open, close } = block.quotation!;
  if (kept[0] === block) text = block.prefix + open + text.slice(block.prefix.length);
  if (kept[kept.length - 1] === block) text += close;
  return text;
}

const isQuote = (block: Block): boolean => block.kind === 'prose' && block.prefix.trimStart().startsWith('>');

/** A ">" line that spaced paragraphs of a quote whose paragraph before or after it went. */
function isStraySpacer(blocks: readonly Block[], i: number): boolean {
  if (!isSpacer(blocks[i]!)) return false;
  const kept = (from: number, step: number, spacers: boolean): Block | undefined => {
    for (let k = from; k >= 0 && k < blocks.length; k += step) if (!isGone(blocks[k]!) && (spacers || !isSpacer(blocks[k]!))) return blocks[k];
    return undefined;
  };
  const before = kept(i - 1, -1, false);
  const after = kept(i + 1, 1, false);
  // One spacer between two kept paragraphs of the quote: the first.
  return !before || !after || !isQuote(before) || !isQuote(after) || kept(i - 1, -1, true) !== before;
}

/**
 * The thematic breaks ("---") that separated text that went: nothing kept between one and the break (or
 * the start) before it, or nothing kept after it, unless it closes a quote. A run of them is no separator,
 * and a break that opens the output would read as front matter. One pass forward, then the last block.
 */
function strayRules(blocks: readonly Block[]): Set<Block> {
  const stray = new Set<Block>();
  let previous: Block | undefined; // the last block written
  let went = false; // whether something went since it
  for (const block of blocks) {
    if (isGone(block)) went = true;
    else if (isThematicBreak(block) && went && (!previous || isThematicBreak(previous))) stray.add(block);
    else (previous = block), (went = false);
  }
  let last = blocks.length - 1;
  while (last >= 0 && isGone(blocks[last]!)) last--;
  // The last break stays when it closes the quote a kept break opened ("---", the letter, "---"); breaks
  // between sections ("---", "## C") open nothing.
  let opened = false;
  for (let k = 0; k < last; k++) {
    const block = blocks[k]!;
    if (block.kind === 'heading' && !isGone(block)) opened = false;
    else if (isThematicBreak(block) && !isGone(block) && !stray.has(block)) opened = !opened;
  }
  if (last >= 0 && last < blocks.length - 1 && isThematicBreak(blocks[last]!) && !opened) stray.add(blocks[last]!);
  return stray;
}

/** A thematic break ("---", "* * *") on a line of its own. */
export const isThematicBreak = (block: Block): boolean => block.kind === 'markup' && /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(block.body);

export const isSpacer = (block: Block): boolean => block.kind === 'markup' && /^[ \t]*>[ \t>]*$/.test(block.body);

/** Estimated tokens of the rendered text from per-unit counts, without re-tokenizing. */
export function estimateTokens(doc: Doc): number {
  let total = 0;
  let first = true;
  for (const block of doc.blocks) {
    if (block.removed) continue;
    let blockTokens = block.tokens;
    if (block.kind === 'prose') {
      blockTokens = 0;
      for (const sentence of block.sentences) if (!sentence.removed) blockTokens += sentence.tokens;
      if (blockTokens === 0) continue;
      blockTokens += (block.prefix.trim() ? 1 : 0) + (block.suffix ? 1 : 0);
    }
    total += blockTokens + (first ? 0 : 1);
    first = false;
  }
  return total;
}
