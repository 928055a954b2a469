import { indentOf, isListItem, isMaterial, isStructural, LEAD_IN_LEVEL, LIST_MARKER, sentenceText, type Block, type Doc } from '../doc';

export { LEAD_IN_LEVEL };
/** A lead-in line that ends on its colon ("Follow these steps:", "**Setup**:"): it introduces what follows it. */
export const endsOnColon = (block: Block): boolean => block.kind === 'heading' && block.level === LEAD_IN_LEVEL && /[:：](?:\*\*)?\s*$/.test(block.body);
/** The level of a retrieved document's title ("[Doc 1] …"): its section is that document's text. */
export const SOURCE_LEVEL = 6;
// "[Doc 1] Conditions générales …", "Document 2: Rate limits", "Source 3 – FAQ": the title of a retrieved
// document, over the blocks that hold it.
export const SOURCE_HEADER = /^(?:\[(?:doc(?:ument)?|dokument|documento|source|quelle|fuente|fonte|context|passage|ref)\s*(?:\d+|[A-Z])(?:\s*[–—:-][^\]\n]*)?\]|【(?:资料|文档|文件|参考资料|資料|文書)\s*\d+】|\[\d+\]\s*(?:source|document|doc|title|quelle|fuente|fonte|来源|出典)\s*[:：]\s*(?=\S)|(?:doc(?:ument)?|source|passage)\s*\d+\s*[:：–—-]|(?:source|document|excerpt|passage|fuente|quelle|documento|extrait|trecho|来源|出典)\s*[:：]\s*(?=\S))/iu;

/** What a lead-in line may introduce: list items, examples, code, data and tables. */
export const introduces = (block: Block): boolean =>
  block.kind === 'example' || isMaterial(block) || (block.kind === 'prose' && isListItem(block));

/** Pinned content (the final question after the documents) belongs to no document. */
const pinnedContent = (b: Block): boolean => !!b.pinned || (b.kind === 'prose' && b.sentences.some((s) => s.pinned));

const LABEL = /^(?:\*\*|__)[^*_\n]+(?:\*\*|__)[:：]?$/u;

/** A bold label, list marker or not: "**Implement fix (if requested)**", "4. **Deep dive**:". */
export const isLabel = (text: string): boolean => LABEL.test(text.replace(LIST_MARKER, '').trim());

/** "Task:", "Output:", "Constraints:": a label alone on the line that opens its paragraph. */
export const LABEL_LINE = /^[^\p{L}]*[\p{L}][\p{L} ]{0,24}[:：]$/u;

/**
 * Whether `block` ends the section of `heading`: a heading as high, or what is not part of a lead-in or a
 * document. A lead-in that is itself a list item ("- Look for:", "2. **Deep dive**") holds only what is
 * nested under it; other lead-ins hold the list, examples or code that follow, list lead-ins included.
 */
function endsSection(heading: Block, block: Block, next = false): boolean {
  const level = heading.level ?? 1;
  if (level === LEAD_IN_LEVEL) {
    if (heading.titlesNext) return !next;
    // "- Example migration pattern:" and, unindented on the next line, its code: the code is the item's.
    if (isListLeadIn(heading)) return !nestedUnder(heading, block) && !(next && block.kind !== 'prose' && introduces(block));
    // A lead-in indented inside a list item ("   **Quick start:** If you have the path inline:") ends with it.
    if (indentOf(heading.body) > 0 && indentOfBlock(block) < indentOf(heading.body)) return true;
    // A lead-in to sub-sections holds them all, up to a heading of its own section's level.
    if (heading.within !== undefined) return block.kind === 'heading' && block.level !== LEAD_IN_LEVEL && (block.level ?? 1) <= heading.within;
    // A bold label titles the lead-in right after it too: "**ALTERNATIVE: Manual Icon Integration (Not
    // Recommended)**", then "Only use this if Python scripts are unavailable:" and its steps.
    if (block.kind === 'heading') return !isListLeadIn(block) && !(next && isLabel(heading.body) && isPlainLeadIn(block));
    return !introduces(block);
  }
  if (block.kind === 'heading' && (block.level ?? 1) <= level) return true;
  // The next document ends a document's text, as a title line or as a paragraph that opens with its own.
  return level === SOURCE_LEVEL && (pinnedContent(block) || (block.kind === 'markup' && !!block.tag) || opensSource(block));
}

const opensSource = (block: Block): boolean => block.kind === 'prose' && block.sentences.length > 0 && SOURCE_HEADER.test(block.prefix + sentenceText(block.sentences[0]!));

/** A lead-in line of its own that is no label ("Only use this if …:"): what a label before it may title. */
const isPlainLeadIn = (block: Block): boolean => block.level === LEAD_IN_LEVEL && block.within === undefined && !isLabel(block.body);

/** A lead-in that is a list item with its marker: "   - Look for:", "4. **Implement fix**". */
export const isListLeadIn = (block: Block): boolean => block.kind === 'heading' && block.level === LEAD_IN_LEVEL && LIST_MARKER.test(block.body);

/** Whether `block` stands indented under the list item `item` (a lead-in whose text holds its marker). */
function nestedUnder(item: Block, block: Block): boolean {
  return indentOfBlock(block) > indentOf(item.body);
}

const indentOfBlock = (block: Block): number => (block.kind === 'prose' ? indentOf(block.prefix) : indentOf(block.body));

/** A block that says something: prose with a kept sentence, or any kept block other than structure. */
const hasContent = (block: Block, now: boolean): boolean => {
  if (now && block.removed) return false;
  if (block.kind === 'prose') return block.sentences.some((s) => !(now && s.removed));
  return !isStructural(block);
};

/**
 * Drops each opening tag without a partner (its closing tag missing, or inside a code block) whose text,
 * what follows it up to the next tag line, had content and has none left. Returns the tokens freed.
 */
export function dropUnpairedTags(doc: Doc): number {
  const blocks = doc.blocks;
  let freed = 0;
  blocks.forEach((block, i) => {
    if (!block.tag || block.tag.closing || block.tag.partner || block.removed) return;
    let end = i + 1;
    while (end < blocks.length && !blocks[end]!.tag) end++;
    if (emptied(blocks, i + 1, end)) {
      block.removed = true;
      freed += block.tokens + 1;
    }
  });
  return freed;
}

/** Whether blocks [from, to) had content and have none left. */
function emptied(blocks: readonly Block[], from: number, to: number): boolean {
  let had = false;
  for (let k = from; k < to; k++) {
    const block = blocks[k]!;
    if (hasContent(block, true)) return false;
    had ||= hasContent(block, false);
  }
  return had;
}

/**
 * Drops the tag pairs and headings whose section had content and has none left, innermost first, so
 * that no tag loses its partner and no heading stands over nothing. Returns the tokens freed.
 */
export function dropEmptyStructure(doc: Doc): number {
  const blocks = doc.blocks;
  let freed = 0;
  const drop = (block: Block) => {
    block.removed = true;
    freed += block.tokens + 1;
  };
  // Tags: an opening tag sees its partner later; inner pairs close first, so scanning by closing tag
  // visits them innermost first.
  blocks.forEach((block, close) => {
    const open = block.tag?.closing ? block.tag.partner : undefined;
    if (!open || open.removed || block.removed) return;
    if (emptied(blocks, blocks.indexOf(open) + 1, close)) (drop(open), drop(block));
  });
  freed += dropUnpairedTags(doc);
  // Headings, last first: a section ends at the next heading of the same or a higher level.
  for (let h = blocks.length - 1; h >= 0; h--) {
    const heading = blocks[h]!;
    if (heading.kind !== 'heading' || heading.removed) continue;
    let end = h + 1;
    while (end < blocks.length && !endsSection(heading, blocks[end]!, end === h + 1)) end++;
    if (emptied(blocks, h + 1, end)) drop(heading);
  }
  return freed;
}

/**
 * The headings, tag pairs and lead-ins each block stands under, innermost last: a unit whose frame was
 * dropped as empty must not come back without it. A heading's own entry holds its parent headings.
 */
export function framesOf(doc: Doc): Map<Block, Block[]> {
  const frames = new Map<Block, Block[]>();
  const headings: Block[] = [];
  const tags: Block[] = [];
  const opened: number[] = []; // how many headings were open where each open tag opened
  const leadIns: Block[] = [];
  let previous: Block | undefined;
  for (const block of doc.blocks) {
    while (leadIns.length > 0 && endsSection(leadIns[leadIns.length - 1]!, block, leadIns[leadIns.length - 1] === previous)) leadIns.pop();
    previous = block;
    while (headings.length > 0 && headings[headings.length - 1]!.level === SOURCE_LEVEL && endsSection(headings[headings.length - 1]!, block)) headings.pop();
    if (block.kind === 'heading') {
      const level = block.level ?? 1;
      if (level === LEAD_IN_LEVEL) leadIns.push(block);
      else {
        // A heading ends every lead-in but one that announced the sub-sections it opens.
        for (let k = leadIns.length - 1; k >= 0; k--) if (leadIns[k]!.within === undefined || level <= leadIns[k]!.within!) leadIns.splice(k, 1);
        while (headings.length > 0 && (headings[headings.length - 1]!.level ?? 1) >= level) headings.pop();
        // A heading stands in its parents' sections: an empty one ("### Feature B") goes when they go.
        if (headings.length > 0 || tags.length > 0) frames.set(block, [...headings, ...tags]);
        headings.push(block);
      }
      continue;
    }
    if (block.tag?.partner) {
      if (!block.tag.closing) (tags.push(block), opened.push(headings.length));
      else if (tags[tags.length - 1] === block.tag.partner) {
        tags.pop();
        // A heading inside the pair ("## Resources" in a template fence) ends with it.
        headings.length = Math.min(headings.length, opened.pop()!);
      }
      continue;
    }
    frames.set(block, [...headings, ...tags, ...leadIns]);
  }
  return frames;
}
