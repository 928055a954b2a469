/**
 * Agent instruction and prompt files: which files they are, and where their body starts. The front matter
 * (`applyTo`, `mode`, `tools`, `description` …) configures the agent, so Optimize Prompt File sends only
 * the body and writes only the body back.
 */
import { frontMatterEnd } from '../../core/prompt/frontmatter';

// VS Code prompt, instruction and chat mode files; agent files (Codex, Claude Code, skills); Cursor rules.
const SUFFIXES = ['.prompt.md', '.instructions.md', '.chatmode.md', '.mdc'];
const NAMES = ['agents.md', 'claude.md', 'skill.md', 'copilot-instructions.md'];

/** The same test as a `resourceFilename` regex, for package.json `when` clauses (a unit test keeps them equal). */
export const PROMPT_FILE_NAME_PATTERN = /(\.prompt\.md|\.instructions\.md|\.chatmode\.md|\.mdc)$|^(AGENTS|CLAUDE|SKILL|copilot-instructions)\.md$/i;

export function isPromptFile(path: string): boolean {
  const name = path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  return NAMES.includes(name) || SUFFIXES.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
}

/**
 * Offsets of the body: after the front matter and the blank lines that follow it, without trailing white
 * space (so the file's last line break stays). `start === end` when there is no body.
 */
export function promptBodyRange(text: string): { start: number; end: number } {
  let start = frontMatterEnd(text);
  if (start === 0 && text.charCodeAt(0) === 0xfeff) start = 1;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  let end = text.length;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}
