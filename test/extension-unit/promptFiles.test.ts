import * as assert from 'node:assert/strict';
import { isPromptFile, PROMPT_FILE_NAME_PATTERN, promptBodyRange } from '../../src/extension/logic/promptFiles';

describe('extension/logic/promptFiles', () => {
  const files: [string, boolean][] = [
    ['/repo/.github/prompts/review.prompt.md', true],
    ['/repo/.github/instructions/ts.instructions.md', true],
    ['C:\\repo\\.github\\chatmodes\\plan.chatmode.md', true],
    ['/repo/AGENTS.md', true],
    ['/repo/CLAUDE.md', true],
    ['/repo/.claude/skills/pdf/SKILL.md', true],
    ['/repo/.cursor/rules/style.mdc', true],
    ['/repo/.github/copilot-instructions.md', true],
    ['/repo/README.md', false],
    ['/repo/notes.prompt.txt', false],
    ['/repo/.mdc', false],
    ['/repo/MY-AGENTS.md', false],
  ];
  for (const [path, expected] of files) {
    it(`${expected ? 'is' : 'is not'} a prompt file: ${path}`, () => {
      assert.equal(isPromptFile(path), expected);
      const name = path.split(/[\\/]/).pop()!;
      if (name !== '.mdc') assert.equal(PROMPT_FILE_NAME_PATTERN.test(name), expected, 'the when-clause pattern agrees');
    });
  }

  it('finds the body after YAML front matter and its blank lines, without the final line break', () => {
    const text = '---\napplyTo: "**/*.ts"\ndescription: TS rules\n---\n\nUse strict mode.\nNever use any.\n';
    const { start, end } = promptBodyRange(text);
    assert.equal(text.slice(0, start), '---\napplyTo: "**/*.ts"\ndescription: TS rules\n---\n\n');
    assert.equal(text.slice(start, end), 'Use strict mode.\nNever use any.');
    assert.equal(text.slice(end), '\n');
  });

  it('takes the whole text when there is no front matter, and CRLF and TOML front matter too', () => {
    assert.deepEqual(promptBodyRange('Be brief.\n'), { start: 0, end: 9 });
    const crlf = '---\r\nmode: agent\r\n---\r\nDo it.\r\n';
    const range = promptBodyRange(crlf);
    assert.equal(crlf.slice(range.start, range.end), 'Do it.');
    const toml = '+++\ntitle = "x"\n+++\nBody.';
    assert.equal(toml.slice(promptBodyRange(toml).start), 'Body.');
  });

  it('has an empty body for front matter alone, and an unclosed fence is no front matter', () => {
    const only = '---\ndescription: x\n---\n';
    const range = promptBodyRange(only);
    assert.equal(range.start, range.end);
    assert.equal(promptBodyRange('---\nnot closed\n').start, 0);
  });
});

describe('package.json: Optimize Prompt File in the editor context menu', () => {
  it('shows for exactly the prompt file names (the same pattern as the code)', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const entry = pkg.contributes.menus['editor/context'].find((e: { command: string }) => e.command === 'promptOptimizer.optimizePromptFile');
    assert.ok(entry, 'in editor/context');
    const clause = /resourceFilename =~ \/(.+)\/i$/.exec(entry.when)?.[1];
    assert.equal(clause, PROMPT_FILE_NAME_PATTERN.source);
  });
});

describe('extension/logic/format: a prompt file against its token limit', () => {
  const display = { tokens: 1234, estimated: false, characters: 5000, model: 'gpt-4o', encoding: 'o200k_base', budget: 1000, selections: 0 };

  it('shows the share of the limit, or how far over it the file is', async () => {
    const { promptFileLine } = await import('../../src/extension/logic/format');
    assert.equal(promptFileLine(1234, 2000), 'Prompt file: 1,234 of 2,000 tokens (62%)');
    assert.equal(promptFileLine(2500, 2000), 'Prompt file: 2,500 of 2,000 tokens, 500 over the limit');
    assert.equal(promptFileLine(1234, 2000, '\u2248'), 'Prompt file: \u22481,234 of 2,000 tokens (62%)');
  });

  it('adds the line to the tooltip only for prompt files, with the whole file when a selection is shown', async () => {
    const { formatStatusTooltip } = await import('../../src/extension/logic/format');
    assert.doesNotMatch(formatStatusTooltip(display), /Prompt file/);
    assert.match(formatStatusTooltip({ ...display, promptFileLimit: 2000 }), /^Prompt file: 1,234 of 2,000 tokens \(62%\)$/m);
    assert.match(formatStatusTooltip({ ...display, tokens: 10, documentTokens: 3000, selections: 1, promptFileLimit: 2000 }), /^Prompt file: 3,000 of 2,000 tokens, 1,000 over the limit$/m);
  });
});
