/** XML-like tags that frame a prompt's sections: `<instructions>`, `</example>`, `<document index="1">`. */
export interface TagInfo {
  readonly name: string;
  readonly closing: boolean;
}

const TAG = /^<(\/?)(\p{L}[\p{L}\p{N}_.-]*)(?:\s[^<>]*)?>$/u;
const OPEN_AT_START = /^<(\p{L}[\p{L}\p{N}_.-]*)(?:\s[^<>\n]*)?>/u;
const CLOSE_AT_END = /<\/(\p{L}[\p{L}\p{N}_.-]*)>$/u;

/** The tag a whole line is, if it is one (self-closing tags frame nothing and are not). */
export function tagOf(line: string): TagInfo | null {
  const m = TAG.exec(line.trim());
  if (!m || line.trim().endsWith('/>')) return null;
  return { name: m[2]!.toLowerCase(), closing: m[1] === '/' };
}

/**
 * Tags that open or close a line of prose (`<question>What is X?</question>`): the length of the
 * opening tag at the start and of the closing tag at the end, when the text holds their partner.
 * Tags in the middle of a sentence stay there, in the sentence that holds them both.
 */
export function edgeTags(line: string, whole: string): { open: number; close: number } {
  const open = OPEN_AT_START.exec(line);
  const close = CLOSE_AT_END.exec(line);
  // <keep> spans are the user's own protection, handled by the inline scan.
  const openLength = open && open[1] !== 'keep' && whole.includes(`</${open[1]}>`) ? open[0].length : 0;
  const closeLength = close && close[1] !== 'keep' && close.index >= openLength && new RegExp(`<${close[1]}[\\s>]`).test(whole) ? close[0].length : 0;
  return { open: openLength, close: closeLength };
}

/** Pairs opening and closing tags by name, innermost first; returns partner indices (−1: none). */
export function pairTags(tags: readonly (TagInfo | null)[]): number[] {
  const partner = tags.map(() => -1);
  const stack: number[] = [];
  tags.forEach((tag, i) => {
    if (!tag) return;
    if (!tag.closing) {
      stack.push(i);
      return;
    }
    for (let s = stack.length - 1; s >= 0; s--) {
      if (tags[stack[s]!]!.name !== tag.name) continue;
      partner[i] = stack[s]!;
      partner[stack[s]!] = i;
      stack.length = s; // tags left open inside are unpaired
      return;
    }
  });
  return partner;
}
