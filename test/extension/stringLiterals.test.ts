import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countTokens } from '../../src/core';
import type { AcceptOutcome, OptimizeOutcome, PromptOptimizerApi } from '../../src/extension/api';
import { CommandId } from '../../src/extension/commands';
import { closeAllEditors, discardAll, getApi } from './helpers';

const TS_HEAD = "const name = 'Ada';\nexport const PROMPT = `";
const TS_BODY = [
  'Hello ${name}! I would really like you to please take a careful look at the following quarterly report and, if at all possible, give me a very short summary of it.',
  'Basically, the main thing that I actually care about is that revenue grew by 42% to $1.7 trillion, and that the team in Berlin shipped the new API on 2024-03-01.',
  'It would also be really great if you could perhaps mention any risks that you happen to notice, but only if they are actually important in your opinion.',
  'Please answer in three bullet points and keep \\`inline code\\` as it is.',
].join('\n');
const TS_TAIL = '`;\nexport const other = "unchanged";\n';

const PY_HEAD = 'SYSTEM_PROMPT = """\\\n';
const PY_BODY = [
  'You are a careful code reviewer for a payment service.',
  'Hello! I would really like you to please take a careful look at every single change, and if at all possible, explain your reasoning in a very short way.',
  'Basically, the main thing that I actually care about is that nothing ever retries a \\"charge\\" request that is not idempotent.',
  'It would also be really great if you could perhaps mention naming problems that you happen to notice, but only if they are actually important.',
  'Never approve a change that lowers test coverage below 85%.',
].join('\n');
const PY_TAIL = '\n"""\nprint(SYSTEM_PROMPT)\n';

/** Optimizes with the cursor at `cursor` in a new `language` document, accepts, and returns the new literal body. */
async function optimizeLiteral(language: string, head: string, body: string, tail: string, cursor: number): Promise<string> {
  const document = await vscode.workspace.openTextDocument({ language, content: head + body + tail });
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const position = document.positionAt(head.length + cursor);
  editor.selection = new vscode.Selection(position, position);
  const outcome = (await vscode.commands.executeCommand(CommandId.Optimize, { budget: '50%' })) as OptimizeOutcome;
  assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
  const proposal = outcome.status === 'proposed' ? vscode.Uri.parse(outcome.proposal.proposalUri) : undefined;
  const accepted = (await vscode.commands.executeCommand(CommandId.Accept, proposal)) as AcceptOutcome;
  assert.equal(accepted.status, 'accepted', JSON.stringify(accepted));
  const text = document.getText();
  assert.ok(text.startsWith(head), `code before the literal unchanged:\n${text}`);
  assert.ok(text.endsWith(tail), `code after the literal unchanged:\n${text}`);
  const optimized = text.slice(head.length, text.length - tail.length);
  assert.ok(countTokens(optimized) < countTokens(body) * 0.75, `shorter:\n${optimized}`);
  return optimized;
}

describe('Optimize Prompt in a string literal', () => {
  let api: PromptOptimizerApi;
  before(async () => {
    api = await getApi();
  });
  afterEach(async () => {
    await discardAll(api);
    await closeAllEditors();
  });

  it('optimizes a TypeScript template literal in place: backticks, ${…} and escapes intact', async () => {
    const optimized = await optimizeLiteral('typescript', TS_HEAD, TS_BODY, TS_TAIL, 200);
    assert.doesNotMatch(optimized, /(^|[^\\])`/, 'no unescaped backtick inside');
    assert.ok(optimized.includes('\\`inline code\\`'), `escaped backticks kept:\n${optimized}`);
    assert.ok(optimized.includes('three bullet points'), 'the final request is kept');
    if (optimized.includes('name')) assert.ok(optimized.includes('${name}'), 'the placeholder is whole');
  });

  it('optimizes a Python triple-quoted prompt in place: quotes, line continuation and escapes intact', async () => {
    const optimized = await optimizeLiteral('python', PY_HEAD, PY_BODY, PY_TAIL, 100);
    assert.ok(!optimized.includes('"""'), 'no closing quotes inside');
    assert.ok(optimized.includes('85%'));
    if (optimized.includes('charge')) assert.ok(optimized.includes('\\"charge\\"'), `quotes escaped as the source did:\n${optimized}`);
  });

  it('leaves a cursor outside any literal to the usual whole-document question', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: "const a = 'x';\n" });
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    editor.selection = new vscode.Selection(0, 2, 0, 2);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize, { budget: '50%', wholeDocument: true })) as OptimizeOutcome;
    // The whole document is offered (or refused as already concise), never the literal alone.
    assert.ok(outcome.status !== 'proposed' || outcome.proposal.originalTokens === countTokens(document.getText()), JSON.stringify(outcome));
  });
});
