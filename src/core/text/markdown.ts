import MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';

/**
 * markdown-it's CommonMark block parser, used without its core chain: no normalize pass, no inline
 * parsing, no rendering. The scanner (blocks.ts) steps its block rules one block at a time over a
 * StateBlock built once per prompt; token `map`s give the line ranges.
 *
 * Built once at module load (a MarkdownIt instance compiles its rule chains on first use).
 * HTML blocks are on: prompts use XML-like tags (`<instructions>`). Link reference definitions are
 * off: a line `[1]: some note` stays text instead of vanishing from the token stream.
 */
const md = new MarkdownIt('default', { html: true });
md.block.ruler.disable('reference');

export type { StateBlock };
export type { default as Token } from 'markdown-it/lib/token.mjs';

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** The enabled block rules, in CommonMark priority order (table, code, fence, … paragraph last). */
export const BLOCK_RULES: readonly BlockRule[] = md.block.ruler.getRules('');

/** The rules that may interrupt a paragraph (fence, blockquote, hr, list, html_block, heading, table). */
export const PARAGRAPH_TERMINATORS: readonly BlockRule[] = md.block.ruler.getRules('paragraph');

/** Line tables of `src` (which must use `\n` line breaks only) for the block rules. */
export function blockState(src: string): StateBlock {
  return new md.block.State(src, md, {}, []);
}
