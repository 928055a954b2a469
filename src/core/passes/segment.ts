import { indentOf, isListItem, isSpacer, isThematicBreak, opensLine, sentenceText, type Block, type Doc, type Piece, type Sentence } from '../doc';
import { promptRanges, TRIPLE_QUOTE_LINE, TRIPLE_QUOTE_TAG, type PromptRange } from '../prompt/layout';
import { introduces, isLabel, LEAD_IN_LEVEL, SOURCE_HEADER, SOURCE_LEVEL } from './structure';
import { pairTags } from '../prompt/tags';
import { ASKS, closingRule, FOREIGN_INPUT, MAIL_HEADER, NAMES_ABOVE, NEEDS, pinRequests, pointsBelow } from './requests';
import { leansWithin } from './units';
import { isInstruction } from '../scoring/structure';
import { isMeta } from '../scoring/rules';
import { findProtectedSpans, withUnsplit } from '../text/inline';
import { isEnglish, LANGUAGE_SAMPLE } from '../text/language';
import { roughWordCount } from '../text/words';
import { sentenceEnds } from '../text/sentences';
import type { CountedText, Tokenizer } from '../tokenizer';

/**
 * Pass 1: parse the prompt into blocks — front matter, protected blocks (code, data, tables, <keep>),
 * structure (headings, tag lines, paired), few-shot examples, and prose blocks of sentences whose
 * protected inline spans are locked pieces — and pin the final request and the role statement.
 * Lossless: rendering the result gives back the input, except that <keep> markers are dropped.
 */
export function segment(text: string, task: string, tokenizer: Tokenizer, counted: CountedText = tokenizer.countText(text), openOver = Infinity): Doc {
  const blocks: Block[] = [];
  let previousEnd = 0;
  // A ```markdown template larger than the whole budget could only be dropped whole: it is read as Markdown.
  const opens = openOver < Infinity ? (start: number, end: number) => counted.countSlice(start, end) > openOver : undefined;
  const ranges = promptRanges(text, opens);
  const english = isEnglish(proseOf(text, ranges));
  for (const range of ranges) {
    const sepBefore = text.slice(previousEnd, range.start);
    previousEnd = range.end;
    if (range.kind === 'prose') {
      // An indent the Markdown scan leaves in the text (Japanese "　" opening a paragraph) stays with the prefix.
      const contentStart = range.contentStart + (INDENT.exec(text.slice(range.contentStart, range.end))?.[0].length ?? 0);
      const content = text.slice(contentStart, range.end);
      const sentences = splitSentences(content, english, tokenizer, (from, to) => counted.countSlice(contentStart + from, contentStart + to));
      if (range.pinned) for (const sentence of sentences) sentence.pinned = true;
      blocks.push({ kind: 'prose', sepBefore, prefix: text.slice(range.start, contentStart), body: '', sentences, removed: false, tokens: 0 });
    } else {
      const body = range.kind === 'keep' ? unwrapKeep(text.slice(range.start, range.end)) : text.slice(range.start, range.end);
      const tokens = range.kind === 'keep' ? tokenizer.count(body) : counted.countSlice(range.start, range.end);
      const block: Block = { kind: range.kind, sepBefore, prefix: '', body, sentences: [], removed: false, tokens, pinned: range.pinned };
      if (range.tag) block.tag = { ...range.tag };
      if (range.kind === 'heading') block.level = headingLevel(body);
      blocks.push(block);
    }
  }
  pairTagBlocks(blocks);
  splitQuotedTails(blocks);
  splitDelimited(blocks);
  splitBracketTitles(blocks);
  detachQuotationMarks(markVerbatim(blocks), tokenizer);
  markTranscript(blocks);
  openQuotations(blocks, english, tokenizer);
  markSourceHeaders(blocks);
  markLeadIns(blocks);
  pinRequests(blocks, english);
  // Trailing line breaks and spaces after the last block are dropped: they carry no meaning.
  return { blocks, english, task, notes: { protectedDropped: false } };
}

/** The prose of the prompt, where its language shows: code, data and tables are no language's. */
function proseOf(text: string, ranges: readonly PromptRange[]): string {
  let prose = '';
  for (const range of ranges) {
    if (range.kind === 'prose' || range.kind === 'heading') prose += text.slice(range.contentStart, range.end) + '\n';
    if (prose.length >= LANGUAGE_SAMPLE) break;
  }
  return prose.trim() ? prose : text;
}

/** `block` cut after its sentence `k`: what follows starts a block of its own, after the separator between them. */
function splitAfter(block: Block, k: number): [Block, Block] {
  const sentences = block.sentences;
  const sep = sentences[k]!.sep;
  sentences[k]!.sep = '';
  return [{ ...block, sentences: sentences.slice(0, k + 1) }, { ...block, sepBefore: sep, prefix: '', sentences: sentences.slice(k + 1) }];
}

/** A prose block that the prompt layer reads as structure: kept verbatim, framing what follows it. */
function asHeading(block: Block, body: string, tokens: number, level: number): Block {
  return { kind: 'heading', sepBefore: block.sepBefore, prefix: '', body, sentences: [], removed: false, tokens, level };
}

function headingLevel(body: string): number {
  const atx = /^\s{0,3}(#{1,6})/.exec(body);
  if (atx) return atx[1]!.length;
  return /\n\s{0,3}=+\s*$/.test(body) ? 1 : 2; // setext
}

/**
 * A paragraph of one sentence ending in a colon right before a list or few-shot examples ("Rules:",
 * "Classify each ticket into one of these queues:") introduces them like a heading: it is structure,
 * kept while one of them is kept (level 7: below every Markdown heading).
 */
function markLeadIns(blocks: Block[]): void {
  let section = 0; // the level of the heading the block stands under
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.kind === 'heading') section = block.level ?? 1;
    const next = blocks[i + 1];
    if (block.kind !== 'prose' || block.sentences.length === 0 || !next) continue;
    // "Use when: exact search also returns bad results." under a heading says when its whole section
    // applies: kept with whatever is kept of the section.
    if (section > 0 && i > 0 && blocks[i - 1]!.kind === 'heading' && !isListItem(block) && block.sentences.length === 1 && APPLIES_WHEN.test(sentenceText(block.sentences[0]!))) {
      blocks[i] = asHeading(block, block.prefix + sentenceText(block.sentences[0]!), block.sentences[0]!.tokens, LEAD_IN_LEVEL);
      blocks[i]!.within = section;
      continue;
    }
    // A lead-in may also announce the sub-sections that follow it ("… follow this process:" before "### Step 1").
    const subsections = next.kind === 'heading' && (next.level ?? 1) > section && (next.level ?? 1) < SOURCE_LEVEL;
    if (!introduces(next) && !subsections && !titlesLeadIn(block, next, blocks[i + 2])) {
      // A bold title on a paragraph of its own over a paragraph ("**Linear Slider Control:**", then its
      // screenshot; "**Record Enhancement**", then its text) titles its section like a heading: it comes
      // with what is kept of the section, never alone.
      if (titlesParagraph(block, next)) blocks[i] = asHeading(block, sentenceText(block.sentences[0]!), block.sentences[0]!.tokens, SOURCE_LEVEL);
      continue;
    }
    const last = block.sentences[block.sentences.length - 1]!;
    // A request that shows its material ("I need weekly revenue … from this table in BigQuery:", then the
    // schema) is the prompt's request, not a title of the block: it stays prose, pinned, with its block.
    const said = sentenceText(last);
    if (next.kind !== 'prose' && !isListItem(block) && /[:：]$/.test(said) && (ASKS.test(said) || NEEDS.test(said))) {
      last.request = last.pinned = true;
      continue;
    }
    // The colon sentence that ends a paragraph of several ("Chat models can call tools. Use the APIs to:")
    // is split off as the lead-in; the sentences before it stay prose.
    if (block.sentences.length > 1) {
      if (isListItem(block) || !/[:：]$/.test(sentenceText(last)) || last.pinned) continue;
      // "If a test fails, do not delete it. Mark it with `it.skip` … in this form:" before its template stays
      // one paragraph: what announces the block says nothing without the sentence before (see select's
      // announceBlocks, which keeps it with the block, and with that sentence).
      if (next.kind !== 'prose' && leansWithin(sentenceText(last))) continue;
      blocks.splice(i, 1, ...splitAfter(block, block.sentences.length - 2));
      // A bold label on the line above ("**Step 5: Verify Setup**", then "After running the script, verify …:")
      // titles the lead-in: it is kept with what that introduces, never over nothing.
      const title = blocks[i]!;
      if (title.sentences.length === 1 && isLabel(sentenceText(title.sentences[0]!))) blocks[i] = asHeading(title, title.prefix + sentenceText(title.sentences[0]!), title.sentences[0]!.tokens, LEAD_IN_LEVEL);
      continue; // the lead-in is read next
    }
    const text = sentenceText(block.sentences[0]!);
    // A bold label titles what follows ("**mcp.json:**", "**Step 1: Create the directory**"); as a list item
    // ("4. **Implement fix**") only its own nested items.
    const nested = next.kind === 'prose' && indentOf(next.prefix) > indentOf(block.prefix);
    // So does a list item that is a bare title over its nested items ("- Output", then "  - Return JSON …").
    const label = (isLabel(text) && (!isListItem(block) || nested)) || (nested && isListItem(block) && isBareTitle(text));
    const colon = /[:：](?:\*\*|__|\*|_)?$/.test(text);
    if (!(label || colon || (!subsections && ANNOUNCES.test(text))) || text.split(/\s+/).length > 40 || block.sentences[0]!.pinned) continue;
    // "Generate a copilot-instructions.md file from the template below." asks something of its own: it
    // is an instruction that names the block, not its title (before a list, it is the list's lead-in).
    if (!label && !colon && next.kind !== 'prose' && !isListItem(block) && block.sentences[0]!.instruction) continue;
    // "Please read these carefully — I know it's a lot of rules, but …:" talks to the reader: the list
    // stands without it, and it goes like any other aside.
    if (isMeta(text)) continue;
    if (subsections && (isListItem(block) || (label && !/[:：](?:\*\*|__)?$/.test(text)))) continue;
    blocks[i] = asHeading(block, block.prefix + text, block.sentences[0]!.tokens + (block.prefix.trim() ? 1 : 0), LEAD_IN_LEVEL);
    if (subsections) blocks[i]!.within = section;
  }
}

/** A bold label that is no instruction ("**Always ask:**" asks), alone in its paragraph, over a paragraph of text. */
function titlesParagraph(block: Block, next: Block): boolean {
  if (isListItem(block) || block.prefix.trim() !== '' || block.sentences.length !== 1 || block.sentences[0]!.instruction || block.sentences[0]!.pinned) return false;
  return isLabel(sentenceText(block.sentences[0]!)) && next.kind === 'prose' && !isListItem(next) && !next.verbatim;
}

/**
 * A bold label over a lead-in line that points back at it, and what that introduces: "**ALTERNATIVE:
 * Manual Icon Integration (Not Recommended)**", "Only use this if Python scripts are unavailable:", then
 * the steps. The label is a lead-in too, or it would go alone and "this" would be the way shown before.
 */
function titlesLeadIn(block: Block, next: Block, after: Block | undefined): boolean {
  if (isListItem(block) || block.sentences.length !== 1 || !isLabel(sentenceText(block.sentences[0]!))) return false;
  if (next.kind !== 'prose' || isListItem(next) || next.sentences.length !== 1 || !after || !introduces(after)) return false;
  const text = sentenceText(next.sentences[0]!);
  return /[:：]$/.test(text) && POINTS_AT_TITLE.test(text);
}
// "this" or "these" standing for what the title names: "Only use this if …:", "Use these when …:".
const POINTS_AT_TITLE = /(?<![\p{L}])(?:this|these|it|them)(?=\s+(?:if|when|only|unless|for|to|in|on|once|after|before)(?![\p{L}])|\s*[:：,])/iu;

// "Use when: …", "When to use: …", "Applies to: …", "Verwenden, wenn: …", "Usar cuando: …", "À utiliser quand : …".
const APPLIES_WHEN = /^[^\p{L}]*(?:use (?:this |it )?(?:when|if|for)|when to use(?: it| this)?|applies (?:to|when|if)|verwenden,? wenn|anwenden,? wenn|usar cuando|úsalo cuando|à utiliser (?:quand|lorsque|si)|usar quando)(?![\p{L}])[^:：\n]{0,12}[:：]/iu;

/** A few words with no sentence punctuation: "Output", "Error handling", "Wave review". */
const isBareTitle = (text: string): boolean => {
  const trimmed = text.trim();
  return trimmed.split(/\s+/).length <= 3 && !/[.!?;,。！？]$/u.test(trimmed);
};

/**
 * Material to quote: prose inside a <document>-like tag pair, a paragraph in quotation marks (a draft),
 * and a retrieved document under its title ("### Document 1", "[Doc 2] Refund policy") up to the next
 * heading as high: answers cite it, so it is never reworded. Returns the quotations over several paragraphs.
 */
function markVerbatim(blocks: Block[]): Block[][] {
  let depth = 0;
  let documentLevel = 0; // the level of the document title the text stands under; 0 outside one
  let titled = false; // the block before was a "[Doc 2] Refund policy" title alone
  const runs = quotationRuns(blocks);
  const inQuotation = new Set([...runs.flat(), ...betweenBreaks(blocks), ...forwardedMail(blocks)]);
  const quotedMaterial = blockquoteMaterial(blocks);
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const level = block.level ?? 1;
      if (documentLevel && level <= documentLevel) documentLevel = 0;
      const title = headingTitle(block);
      // (A label line that names the input, "Text to translate:", titles the one paragraph after it: see splitBracketTitles.)
      if ((DOCUMENT_TITLE.test(title) || MATERIAL_TITLE.test(title)) && level !== LEAD_IN_LEVEL) documentLevel = level;
      titled = false;
      continue;
    }
    if (block.tag?.partner && (block.tag.name === TRIPLE_QUOTE_TAG || VERBATIM_TAG.test(block.tag.name.toLowerCase()))) depth += block.tag.closing ? -1 : 1;
    else if (block.kind === 'prose') {
      // "[Doc 1] Release notes: Fixed …" is the document; a title alone names the paragraph after it.
      const first = sentenceText(block.sentences[0]!);
      const source = SOURCE_HEADER.test(block.prefix + first);
      if (depth > 0 || documentLevel || source || titled || quoted(block) || inQuotation.has(block) || quotedMaterial.has(block)) block.verbatim = true;
      titled = source && block.sentences.length === 1 && !/[.!?。！？]$/u.test(first);
    }
  }
  return runs;
}

/** A heading's words without its Markdown marks or 【】 brackets: "## Source text" → "Source text". */
export const headingTitle = (block: Block): string => block.body.replace(/^\s*#+\s*/, '').replace(/^【(.*)】$/u, '$1').trim();

/**
 * A text the prompt shows between two thematic breaks after announcing it ("Esta es la carta que he
 * escrito:", "---", the letter, "---"), or names right after it ("上記の議事メモを…"): material to work
 * on, kept as written down to its sign-off.
 */
function betweenBreaks(blocks: readonly Block[]): Block[] {
  const quoted: Block[] = [];
  for (let i = 1; i < blocks.length; i++) {
    const lead = blocks[i - 1]!;
    if (!isThematicBreak(blocks[i]!) || lead.kind !== 'prose') continue;
    // Announced by a colon ("Esta es la carta que he escrito:"), or by a paragraph that points below it ("I need
    // to send the email below … Could you please rewrite it?").
    const announced = /[:：]\s*$/u.test(sentenceText(lead.sentences[lead.sentences.length - 1]!)) || lead.sentences.some((s) => pointsBelow(sentenceText(s)) || FOREIGN_INPUT.test(sentenceText(s)));
    const close = closingRule(blocks, i, MAX_QUOTED_PARAGRAPHS);
    if (close < 0) continue;
    // Or named from after it: "上記の議事メモを…要約してください", "extraia os dados da nota acima".
    const next = blocks[close + 1];
    if (!announced && !(next?.kind === 'prose' && next.sentences.some((s) => NAMES_ABOVE.test(sentenceText(s))))) continue;
    quoted.push(...blocks.slice(i + 1, close).filter((b) => b.kind === 'prose'));
    i = close;
  }
  return quoted;
}

/**
 * An email pasted under its header ("From: Jennifer Okafor <j.okafor@…>", "Date: …", "Subject: …"): its
 * salutation, body and signature, up to the quoted mail below it (a blockquote) or the next heading.
 */
function forwardedMail(blocks: readonly Block[]): Block[] {
  const mail: Block[] = [];
  let inside = false;
  for (const block of blocks) {
    const text = block.kind === 'prose' ? block.sentences.map((s) => sentenceText(s) + s.sep).join('') : '';
    if (block.kind === 'prose' && block.prefix.trim() === '' && (text.match(MAIL_FIELD) ?? []).length >= 2) {
      inside = true;
      mail.push(block);
    } else if (!inside || block.kind !== 'prose' || block.prefix.trim() !== '') inside = false;
    else mail.push(block);
  }
  return mail;
}
const MAIL_FIELD = new RegExp(MAIL_HEADER.source, 'gimu');

/**
 * The paragraphs of a blockquote that quotes material (an email to extract from, a letter to rewrite),
 * not one that calls out a note of the prompt's own ("> **Note**: …", "> [!WARNING]", "> Tip: …").
 */
function blockquoteMaterial(blocks: readonly Block[]): Set<Block> {
  const material = new Set<Block>();
  let callout: boolean | undefined; // of the blockquote being read; undefined outside one
  for (const block of blocks) {
    const inQuote = block.prefix.trimStart().startsWith('>') || isSpacer(block);
    if (!inQuote) {
      callout = undefined;
      continue;
    }
    if (block.kind !== 'prose') continue;
    callout ??= CALLOUT.test(sentenceText(block.sentences[0]!));
    if (!callout) material.add(block);
  }
  return material;
}
const CALLOUT = /^[^\p{L}\p{N}]*(?:\[![a-z]+\]|\*\*[^*\n]{1,30}\*\*|(?:note|notes|tip|tips|hint|warning|caution|important|info|attention|nb|n\.b\.|hinweis|achtung|wichtig|nota|aviso|importante|remarque|astuce|注意|重要|提示|ヒント)\s*[:：])|^[\u2139\u26a0\u2757\u{1F4A1}\u{1F525}\u2705\u274c]/iu;

/**
 * A transcript (meeting notes, a call): three lines or more that open with a speaker's name ("Ines: …",
 * "Carlos (tesoureiro): …"), two speakers at least. Each turn's opening sentence is marked: what follows
 * on its line is said by that speaker and comes only with it. A conversation, where a speaker speaks
 * again, is material too (never reworded, no aside dropped).
 */
function markTranscript(blocks: readonly Block[]): void {
  const turns: { block: Block; sentence: Sentence; name: string; words: number }[] = [];
  for (const block of blocks) {
    if (block.kind !== 'prose') continue;
    // A labelled list item ("- Security: …") is a rule, not a turn; the lines under an item's title may be
    // turns ("1. リリース日について", then "佐藤：…").
    const listed = isListItem(block);
    let line = '';
    let turn: (typeof turns)[number] | undefined;
    block.sentences.forEach((sentence, i) => {
      const opens = opensLine(block, i) && !(listed && i === 0);
      const text = sentenceText(sentence);
      const speaker = opens ? speakerOf(text) : null;
      if (opens) turn = undefined;
      if (speaker) {
        turn = { block, sentence, name: speaker.name, words: 0 };
        turns.push(turn);
        line = text.slice(speaker.said);
      } else line = text;
      if (turn) turn.words += roughWordCount(line);
    });
  }
  const names = new Set(turns.map((t) => t.name));
  // What a speaker says is a sentence or more; a record's fields ("ID: HR-112", "Effective: 2024-01-01") are not.
  const said = turns.reduce((n, t) => n + t.words, 0) / Math.max(1, turns.length);
  if (turns.length < MIN_TURNS || names.size < 2 || said < MIN_TURN_WORDS) return;
  // Notes where each speaks once ("Anya: …", "Ben: …") keep their lines together too; a conversation,
  // where someone speaks again, is also material.
  const conversation = names.size < turns.length;
  for (const { block, sentence } of turns) {
    sentence.speaker = true;
    if (conversation) block.verbatim = true;
  }
}

/** Where what a turn's opening sentence says begins, after its time and speaker ("[09:03] Rafael: "); 0 for none. */
export const turnLabelLength = (text: string): number => (speakerOf(text)?.said ?? -1) + 1;

/** The speaker a line opens with and where what they say begins; null for none, or for a label ("Note:", "注意："). */
function speakerOf(line: string): { name: string; said: number } | null {
  // A turn may open on its time: "[19h32] Síndico Carlos: …", "[09:02] Claire Martin : …", "(14:05) Ana: …".
  const time = TURN_TIME.exec(line)?.[0].length ?? 0;
  const text = line.slice(time);
  const latin = SPEAKER.exec(text);
  if (latin) return NOT_A_SPEAKER.test(latin[1]!) ? null : { name: latin[1]!, said: time + latin[0].length - 1 };
  const wide = WIDE_SPEAKER.exec(text);
  return wide && !WIDE_LABELS.test(wide[1]!) ? { name: wide[1]!, said: time + wide[0].length - 1 } : null;
}

const TURN_TIME = /^[[(]?\d{1,2}[:h.]\d{2}(?::\d{2})?[\])]?[ \t]+/;

// "Ines: …", "Regina (presidente): …", "Dr. Okafor: …": a name of up to three capitalised words, not in
// capitals ("MANDATORY:", "VAT Reg No:"); French sets a space before the colon ("Élise Delacroix : …").
const SPEAKER = /^((?:\p{Lu}[\p{Ll}'’.-][\p{L}'’.-]*)(?: \p{Lu}[\p{Ll}'’.-][\p{L}'’.-]*){0,2})(?: \([^)\n]{1,40}\))?[ \u00a0\u202f]?:\s+\S/u;
// "王磊：…", "陈静（测试）：…", "佐藤さん：…", "タナカ：…": a Chinese or Japanese name and a colon (not "注意：").
const WIDE_SPEAKER = /^((?:[\p{Script=Han}]{2,4}|[\p{Script=Han}\p{Script=Hiragana}]{1,5}さん|[\p{Script=Katakana}ー・]{2,10}))(?:（[^）\n]{1,20}）|\([^)\n]{1,20}\))?[：:]\s*[^\s：:]/u;
// A prompt's own labels in Chinese and Japanese, which are no speakers: "注意：", "要求：", "出力形式：".
const WIDE_LABELS = /^(?:注意|重要|说明|說明|备注|要求|示例|例子|输入|输出|问题|回答|答案|背景|目标|任务|规则|格式|提示|步骤|结果|总结|摘要|标题|内容|日期|时间|地点|负责人|ルール|入力|出力|質問|目的|タスク|形式|出力形式|ポイント|前提|条件|参考|結論|要約|手順|結果|件名|本文|日時|場所|担当|補足|備考)$/u;
/** Words a speaker says in a turn, on average. */
const MIN_TURN_WORDS = 5;
// Labels of a prompt's own sections and examples, which are no speakers.
const NOT_A_SPEAKER = /^(?:note|notes|important|example|examples|input|output|question|answer|q|a|user|assistant|system|human|ai|bot|rules?|task|context|format|tip|warning|step|summary|subject|email|transcript|document|source|text|result|response|reply|title|description|goal|role|data|schema|table|query|request|instructions?|feedback|review|label|category|status|priority|date|time|owner|action|decision|risk)$/i;
const MIN_TURNS = 3;

// A section title naming the text the prompt works on: "## Source text", "## Transcript", "【翻訳対象】",
// "待翻译原文：". INPUT_TITLE names the one text the request is about; retrieved documents are sources.
const INPUT_TEXT_WORDS =
  '(?:the |our )?(?:source text|original text|text to (?:translate|summari[sz]e|review|proofread|rewrite|edit|check|correct|classify)|input text|' +
  'originaltext|ausgangstext|zu übersetzender text|text zum übersetzen|zu prüfender text|texto original|texto (?:a|para) (?:traducir|resumir|revisar|corregir|traduzir|corrigir)|texto de origen|texto fuente|' +
  'texte source|texte original|texte (?:à|a) (?:traduire|résumer|corriger|relire)|texto de origem|texto fonte|' +
  '原文|本文|翻訳対象|翻訳する(?:文章|テキスト)|翻訳原稿|対象(?:の)?(?:文章|テキスト)|(?:待|要|需要)?翻译的?(?:原文|内容|文本|文字)|(?:待|要|需要)(?:总结|润色|校对|改写|处理|审阅)的?(?:原文|内容|文本|文字)|原文内容)';
const INPUT_TITLE_WORDS = `(?:${INPUT_TEXT_WORDS}|(?:the |our )?(?:transcript|article|passage|excerpt))`;
export const INPUT_TITLE = new RegExp(`^${INPUT_TITLE_WORDS}\\s*[:：]?$`, 'iu');
// As a label line, only what names one text ("Text to translate:"): "Transcript:" comes before many turns.
const INPUT_LABEL = new RegExp(`^${INPUT_TEXT_WORDS}\\s*[:：]$`, 'iu');
const MATERIAL_TITLE = new RegExp(`^(?:${INPUT_TITLE_WORDS}|(?:retrieved|search) (?:context|documents?|results|passages))\\s*[:：]?$`, 'iu');
/**
 * A 【…】 title on a line of its own ("【翻訳対象】", then the text) is a heading (level 6, as a retrieved
 * document's title): it comes with the section under it, never alone. So is a label that names the text
 * to work on ("待翻译原文：", "Text to translate:"): what follows it is that text, quoted as written.
 */
function splitBracketTitles(blocks: Block[]): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const title = block.sentences[0];
    if (block.kind !== 'prose' || block.prefix.trim() !== '' || !title) continue;
    const text = sentenceText(title);
    const labelled = INPUT_LABEL.test(text.trim()) && (block.sentences.length > 1 || blocks[i + 1]?.kind === 'prose');
    if (!BRACKET_TITLE.test(text) && !labelled) continue;
    if (block.sentences.length > 1 && !title.sep.includes('\n')) continue;
    titleOver(blocks, i, sentenceText(title), labelled ? LEAD_IN_LEVEL : SOURCE_LEVEL);
    // The label's text is the paragraph after it: what follows that may be the prompt's own words again.
    if (labelled) (blocks[i]!.titlesNext = true), (blocks[i + 1]!.verbatim = true);
  }
}

/** Block `i`'s first sentence, ending its line, as a document's title (`body`) over the rest of its text. */
function titleOver(blocks: Block[], i: number, body: string, level = SOURCE_LEVEL): void {
  const block = blocks[i]!;
  const heading = asHeading(block, body, block.sentences[0]!.tokens, level);
  blocks.splice(i, 1, ...(block.sentences.length > 1 ? [heading, splitAfter(block, 0)[1]] : [heading]));
}

// A title in lenticular brackets opening its line, as Chinese and Japanese prompts mark sections: "【用語集】".
const BRACKET_TITLE = /^【([^】\n]{1,20})】$/u;

// "Title: Billing FAQ", "Titel: …", "标题：…": a document's title field.
const TITLE_LINE = /^(?:title|titel|título|titre|titolo|标题|タイトル)\s*[:：]\s*\S/iu;

// "Document 1", "Doc 2: Refund policy", "Source 3 – Wiki": the title of a retrieved document.
const DOCUMENT_TITLE = /^(?:doc(?:ument)?|source|passage)\s*\d+(?:\s*[:：–—-].*)?$/i;

// The marks that open and close a quotation, in the scripts the product reads.
const OPENING_MARK = '["“„«「『]';
const CLOSING_MARK = '["”“»」』]';
const QUOTED = new RegExp(`^${OPENING_MARK}[\\s\\S]*${CLOSING_MARK}$`, 'u');

/**
 * "My draft:" and, on the next line, the draft in quotation marks: two blocks, so that the quote is
 * material (verbatim) and the line announcing it goes with it.
 */
function splitQuotedTails(blocks: Block[]): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.kind !== 'prose' || block.prefix.trim() !== '' || block.sentences.length < 2) continue;
    const k = block.sentences.findIndex((s, j) => j < block.sentences.length - 1 && /[:：]$/.test(sentenceText(s)) && s.sep.includes('\n'));
    if (k < 0) continue;
    const tail = block.sentences.slice(k + 1);
    // The quotation may close in a later paragraph (see quotationRuns).
    if (!isQuotation(tail) && !OPENS_QUOTE.test(sentenceText(tail[0]!))) continue;
    blocks.splice(i, 1, ...splitAfter(block, k));
  }
}

/**
 * Text between two lines of triple quotes (`"""`), the delimiter prompt guides recommend for input
 * ("Résumé:\n\"\"\"\nPriya Ramanathan …\n\"\"\""): a block of its own, quoted material whose delimiters
 * are its prefix and suffix, written whenever a line of it is kept and never on their own.
 */
function splitDelimited(blocks: Block[]): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.kind !== 'prose' || block.prefix.trim() !== '' || block.sentences.length < 3) continue;
    const delimits = (s: Sentence) => TRIPLE_QUOTE_LINE.test(sentenceText(s));
    const open = block.sentences.findIndex((s) => delimits(s) && s.sep.includes('\n'));
    const close = open < 0 ? -1 : block.sentences.findIndex((s, j) => j > open + 1 && delimits(s) && sentenceText(s) === sentenceText(block.sentences[open]!));
    if (close < 0) continue;
    const parts: Block[] = [];
    let quoted = block; // from the opening delimiter on
    if (open > 0) [parts[0], quoted] = splitAfter(block, open - 1);
    let after: Block | undefined;
    if (close + 1 < block.sentences.length) [quoted, after] = splitAfter(quoted, close - open);
    const [opening, ...inner] = quoted.sentences;
    const closing = inner.pop()!;
    const last = inner[inner.length - 1]!;
    parts.push({ ...quoted, prefix: block.prefix + sentenceText(opening!) + opening!.sep, suffix: last.sep + sentenceText(closing), sentences: inner, verbatim: true });
    last.sep = '';
    if (after) parts.push(after);
    blocks.splice(i, 1, ...parts);
    i += parts.length - 1;
  }
}


/**
 * Paragraphs of a quotation that spans several (a draft letter: its first paragraph opens the quote,
 * its last closes it), when the closing mark comes within a few paragraphs of plain prose.
 */
function quotationRuns(blocks: readonly Block[]): Block[][] {
  const runs: Block[][] = [];
  const opens = (block: Block) => block.sentences.length > 0 && OPENS_QUOTE.test(sentenceText(block.sentences[0]!));
  const closes = (block: Block) => block.sentences.length > 0 && CLOSES_QUOTE.test(sentenceText(block.sentences[block.sentences.length - 1]!));
  for (let i = 0; i < blocks.length; i++) {
    const open = blocks[i]!;
    if (open.kind !== 'prose' || open.prefix.trim() !== '' || !opens(open) || closes(open)) continue;
    for (let j = i + 1; j < blocks.length && j <= i + MAX_QUOTED_PARAGRAPHS; j++) {
      const block = blocks[j]!;
      // A quoted text may hold a list ("I. Selon Sartre, …" in a quoted essay), not a blockquote or a heading.
      if (block.kind !== 'prose' || block.prefix.trimStart().startsWith('>') || opens(block)) break;
      if (closes(block)) {
        runs.push(blocks.slice(i, j + 1));
        i = j;
        break;
      }
    }
  }
  return runs;
}

/**
 * The marks of a quotation over several paragraphs move out of its first and last sentences into the
 * run's `quotation`: the renderer writes them around whatever of the quotation is kept, so a draft that
 * lost its first or last paragraph still opens and closes.
 */
function detachQuotationMarks(runs: readonly Block[][], tokenizer: Tokenizer): void {
  for (const run of runs) {
    const first = run[0]!.sentences[0]!;
    const last = run[run.length - 1]!.sentences[run[run.length - 1]!.sentences.length - 1]!;
    const head = first.pieces[0]!;
    const tail = last.pieces[last.pieces.length - 1]!;
    const open = OPENS_QUOTE.exec(head.text)?.[0];
    const close = CLOSES_QUOTE.exec(tail.text)?.[0];
    if (head.locked || tail.locked || !open || !close) continue;
    first.pieces[0] = { ...head, text: head.text.slice(open.length) };
    const end = last.pieces.length - 1;
    last.pieces[end] = { ...last.pieces[end]!, text: last.pieces[end]!.text.slice(0, -close.length) };
    first.tokens = tokenizer.count(sentenceText(first));
    last.tokens = tokenizer.count(sentenceText(last));
    const quotation = { open, close, blocks: run };
    for (const block of run) block.quotation = quotation;
  }
}

const OPENS_QUOTE = new RegExp(`^${OPENING_MARK}`, 'u');
const CLOSES_QUOTE = new RegExp(`${CLOSING_MARK}$`, 'u');
const MAX_QUOTED_PARAGRAPHS = 12;

/**
 * A paragraph in quotation marks (a draft to rewrite) is read as one literal: its marks move to the
 * block's prefix and suffix and its sentences become units of their own, so that a tight budget drops a
 * sentence of the draft rather than the whole of it. Its words stay as written (it is verbatim).
 */
function openQuotations(blocks: readonly Block[], english: boolean, tokenizer: Tokenizer): void {
  for (const block of blocks) {
    if (block.kind !== 'prose' || !block.verbatim || block.sentences.length !== 1 || !quoted(block)) continue;
    const [sentence] = block.sentences as [Sentence];
    if (sentence.pieces.length !== 1 || !sentence.pieces[0]!.locked || sentence.userKept) continue;
    const text = sentenceText(sentence);
    // The marks keep the spaces inside them, as French writes them: "« Bonjour, … ? »".
    const [, open, inner, close] = /^(.\s*)([\s\S]*?)(\s*.)$/u.exec(text)!;
    const sentences = splitSentences(inner!, english, tokenizer, (from, to) => tokenizer.count(inner!.slice(from, to)));
    if (sentences.length < 2) continue;
    sentences[sentences.length - 1]!.sep += sentence.sep;
    for (const s of sentences) s.pinned = sentence.pinned;
    block.prefix += open;
    block.suffix = close;
    block.sentences.splice(0, 1, ...sentences);
  }
}

function quoted(block: Block): boolean {
  return block.prefix.trim() === '' && block.sentences.length > 0 && isQuotation(block.sentences);
}

/** Sentences that together stand in quotation marks. */
const isQuotation = (sentences: readonly Sentence[]): boolean => QUOTED.test(sentences.map((s) => sentenceText(s) + s.sep).join('').trim());

function pairTagBlocks(blocks: Block[]): void {
  const partner = pairTags(blocks.map((b) => b.tag ?? null));
  partner.forEach((j, i) => {
    if (j >= 0) blocks[i]!.tag!.partner = blocks[j];
  });
}

// Material to quote, not to reword: its sentences may go, their words stay as written. The tag names
// a text ("<notice>", "<rapport>", "<cover_letter>", "<source_text>"): its last word is such a noun
// ("<data_handling_rules>" holds rules).
const VERBATIM_TAG = /(?:^|[_.-])(?:documents?|doc|ticket|review|comment|feedback|complaint|inquiry|enquiry|contract|lease|agreement|invoice|receipt|clause|quote|source|transcript|context|text|email|mail|article|passage|excerpt|data|input|draft|entwurf|borrador|brouillon|rascunho|letter|message|notice|announcement|memo|report|rapport|bericht|informe|relatorio|relatório|post|essay|story|speech|script|chat|conversation|thread|log|page|chapter|original|content|copy|bio|resume|cv|manual|lyrics|poem|abstract|paper)$/;

// A sentence that announces what follows ("The labels are the following five.", "分類ラベルは次の5つです。").
const ANNOUNCES = /\b(?:the following|as follows|below|these (?:\w+ )?(?:rules|options|values|labels|categories|steps|queues)|here (?:are|is) (?:some |a few |(?:two|three|four|five|six) |an? )?(?:examples?|samples?)|folgende[nrs]?|siguientes?|suivante?s?|seguintes?)\b|次の|以下|如下|下面|下列/iu;

/**
 * A line that titles a retrieved document and is followed by its text is a heading (level 6): the
 * document's blocks stand under it, so a dropped document takes its title along and a kept one keeps
 * it; "[Doc 1]" never ends up over Doc 2's text. A document on one line stays prose.
 */
function markSourceHeaders(blocks: Block[]): void {
  // A retrieved document's title on its own line over its text ("Title: Billing FAQ — Refund Windows\n
  // Customers on …"): the title frames the text, and goes once none of it is kept.
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const title = block.sentences[0];
    if (block.kind !== 'prose' || !block.verbatim || block.sentences.length < 2 || !title || !title.sep.includes('\n')) continue;
    const text = block.prefix + sentenceText(title);
    if (!TITLE_LINE.test(text) || text.split(/\s+/).length > 25) continue;
    titleOver(blocks, i, text);
  }
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (block.kind !== 'prose' || block.sentences.length === 0 || !next || next.kind === 'heading') return;
    const text = block.prefix + block.sentences.map((s) => sentenceText(s) + s.sep).join('').trimEnd();
    if (!SOURCE_HEADER.test(text) || text.includes('\n') || text.split(/\s+/).length > 25) return;
    if (next.kind === 'prose' && SOURCE_HEADER.test(next.prefix + sentenceText(next.sentences[0]!))) return;
    const tokens = block.sentences.reduce((n, s) => n + s.tokens, 0);
    blocks[i] = asHeading(block, text, tokens, SOURCE_LEVEL);
  });
}

function unwrapKeep(raw: string): string {
  return raw.replace(/^\s*<keep>(\r?\n)?/, '').replace(/(\r?\n)?<\/keep>\s*$/, '');
}

const WHITESPACE = /\s/;
const INDENT = /^[^\S\n\r]+/;

/** `countContent(from, to)` counts content.slice(from, to), from the count of the whole text. */
function splitSentences(content: string, english: boolean, tokenizer: Tokenizer, countContent: (from: number, to: number) => number): Sentence[] {
  const spans = findProtectedSpans(content);
  const sentences: Sentence[] = [];
  let start = 0;
  for (const end of sentenceEnds(content, withUnsplit(content, spans))) {
    // The sentence is the range without its surrounding whitespace (what trim() would remove).
    let from = start;
    while (from < end && WHITESPACE.test(content[from]!)) from++;
    let to = end;
    while (to > from && WHITESPACE.test(content[to - 1]!)) to--;
    if (to > from) {
      const pieces = toPieces(content, from, to, spans);
      const text = pieces.length === 1 ? pieces[0]!.text : pieces.map((piece) => piece.text).join('');
      if (sentences.length > 0) sentences[sentences.length - 1]!.sep += content.slice(start, from);
      sentences.push({ pieces, sep: content.slice(to, end), removed: false, tokens: text.length === to - from ? countContent(from, to) : tokenizer.count(text), instruction: isInstruction(text, english), userKept: pieces.some((p) => p.kept), score: 1 });
    } else if (sentences.length > 0) {
      sentences[sentences.length - 1]!.sep += content.slice(start, end);
    }
    start = end;
  }
  return sentences;
}

function toPieces(content: string, from: number, to: number, spans: readonly { start: number; end: number }[]): Piece[] {
  const pieces: Piece[] = [];
  let cursor = from;
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue;
    if (span.start > cursor) pieces.push({ text: content.slice(cursor, span.start), locked: false });
    const raw = content.slice(Math.max(span.start, from), Math.min(span.end, to));
    const kept = raw.startsWith('<keep>') && raw.endsWith('</keep>');
    pieces.push({ text: kept ? raw.slice(6, -7) : raw, locked: true, kept });
    cursor = Math.min(span.end, to);
  }
  if (cursor < to) pieces.push({ text: content.slice(cursor, to), locked: false });
  return pieces;
}
