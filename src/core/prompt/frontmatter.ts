/**
 * YAML (`---`) or TOML (`+++`) front matter at the very start of a prompt: agent, instruction and
 * prompt files carry their settings there. Returns the end offset of the closing fence line (its line
 * break excluded), or 0 when the prompt has none.
 */
export function frontMatterEnd(text: string): number {
  const open = /^(?:\uFEFF)?(---|\+\+\+)[ \t]*\r?\n/.exec(text);
  if (!open) return 0;
  const fence = open[1]!;
  const close = new RegExp(`\\r?\\n${fence === '---' ? '(?:---|\\.\\.\\.)' : '\\+\\+\\+'}[ \\t]*(?=\\r?\\n|$)`, 'g');
  close.lastIndex = open[0].length - 1;
  const match = close.exec(text);
  return match ? match.index + match[0].length : 0;
}
