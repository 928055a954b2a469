import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { countTokens } from '../../src/core';
import type { AcceptOutcome, OptimizeOutcome } from '../../src/extension/api';
import { CommandId } from '../../src/extension/commands';
import type { PromptOptimizerApi } from '../../src/extension/api';
import { closeAllEditors, discardAll, getApi } from './helpers';

const FRONT_MATTER = ['---', "applyTo: '**/*.ts'", 'description: "Review rules: 42% of the budget, $1.7 trillion"', 'tools: [codebase, search]', '---', '', ''].join('\n');
const BODY = [
  '# Code review',
  '',
  'Hello! I would really like you to please take a careful and thorough look at every single change in this pull request before it is merged.',
  'Basically, the main thing that I actually care about is that nothing in the payment client retries a request that is not idempotent.',
  'It would also be really great if you could perhaps mention any naming problems that you happen to notice, but only if they are actually important.',
  '',
  '- Never approve a change that lowers test coverage below 85%.',
  '- Flag every call to `chargeWithRetry` that has no `Idempotency-Key` header.',
  '',
].join('\n');

describe('Optimize Prompt File', () => {
  const workspace = process.env.PO_TEST_WORKSPACE ?? '';
  let api: PromptOptimizerApi;

  before(async function () {
    if (!workspace) this.skip();
    api = await getApi();
  });

  afterEach(async () => {
    await discardAll(api);
    await closeAllEditors();
  });

  it('optimizes the body of an instructions file at 50%; the front matter stays byte-identical', async () => {
    const folder = join(workspace, '.github', 'instructions');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'review.instructions.md');
    writeFileSync(path, FRONT_MATTER + BODY);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    await vscode.window.showTextDocument(document, { preview: false });

    const outcome = (await vscode.commands.executeCommand(CommandId.OptimizePromptFile, { budget: '50%' })) as OptimizeOutcome;
    assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
    assert.equal(outcome.status === 'proposed' && outcome.proposal.originalTokens, countTokens(BODY.trimEnd()), 'only the body was sent');
    const proposal = outcome.status === 'proposed' ? vscode.Uri.parse(outcome.proposal.proposalUri) : undefined;
    const accepted = (await vscode.commands.executeCommand(CommandId.Accept, proposal)) as AcceptOutcome;
    assert.equal(accepted.status, 'accepted', JSON.stringify(accepted));

    const after = document.getText();
    assert.ok(after.startsWith(FRONT_MATTER), 'front matter and the blank line after it unchanged');
    const body = after.slice(FRONT_MATTER.length);
    assert.ok(countTokens(body) < countTokens(BODY), 'the body got shorter');
    assert.ok(body.endsWith('\n') && !body.endsWith('\n\n'), 'the final line break stays');
    for (const kept of ['85%', '`chargeWithRetry`', '`Idempotency-Key`']) assert.ok(body.includes(kept), `kept ${kept}`);
  });

  it('shows the file against the prompt-file token limit in the status-bar tooltip, and only for prompt files', async () => {
    const path = join(workspace, 'AGENTS.md');
    writeFileSync(path, FRONT_MATTER + BODY);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    await vscode.window.showTextDocument(document, { preview: false });
    const tokens = countTokens(document.getText());
    const snapshot = await api.refreshStatusBar();
    assert.match(snapshot.tooltip, new RegExp(`^Prompt file: ${tokens.toLocaleString('en-US')} of 2,000 tokens \\(${Math.round((tokens / 2000) * 100)}%\\)$`, 'm'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content: BODY }), { preview: false });
    assert.doesNotMatch((await api.refreshStatusBar()).tooltip, /Prompt file/);
  });

  it('refuses a file with nothing after its front matter', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: '---\ndescription: empty\n---\n' });
    await vscode.window.showTextDocument(document, { preview: false });
    const outcome = (await vscode.commands.executeCommand(CommandId.OptimizePromptFile)) as OptimizeOutcome;
    assert.equal(outcome.status, 'refused');
  });
});
