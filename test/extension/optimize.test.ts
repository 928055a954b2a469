import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countTokens, resolveBudget } from '../../src/core';
import type { AcceptOutcome, OptimizeOutcome, ProposalInfo } from '../../src/extension/api';
import { CommandId } from '../../src/extension/commands';
import { formatDiffTitle } from '../../src/extension/logic/format';
import { activeTab, closeAllEditors, discardAll, getApi, openDocument, PROMPT, selectLines, setSetting } from './helpers';

async function optimizeSelection(editor: vscode.TextEditor, budget?: string): Promise<ProposalInfo> {
  await vscode.window.showTextDocument(editor.document, { preview: false, viewColumn: editor.viewColumn });
  const outcome = (budget === undefined
    ? await vscode.commands.executeCommand(CommandId.Optimize)
    : await vscode.commands.executeCommand(CommandId.OptimizeWithBudget, budget)) as OptimizeOutcome;
  assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
  if (outcome.status !== 'proposed') throw new Error('unreachable');
  return outcome.proposal;
}

async function proposalText(proposal: ProposalInfo): Promise<string> {
  return (await vscode.workspace.openTextDocument(vscode.Uri.parse(proposal.proposalUri))).getText();
}

describe('optimize, diff, accept and discard', () => {
  afterEach(async () => {
    await discardAll(await getApi());
    await closeAllEditors();
  });

  it('opens a diff titled with the token counts, and Accept replaces the selection as one undoable edit', async () => {
    const editor = await openDocument();
    const selection = selectLines(editor, 2, 4);
    const original = editor.document.getText(selection);
    const before = editor.document.getText();
    const proposal = await optimizeSelection(editor, '40%');

    // Title: "Prompt: 1,234 → 567 tokens (−54.1%)", from the real counts.
    assert.equal(proposal.originalTokens, countTokens(original, 'gpt-4o'));
    assert.equal(proposal.title, formatDiffTitle({ ...proposal, budgetTokens: resolveBudget('40%', proposal.originalTokens) }));
    assert.match(proposal.title, /^Prompt: [\d,]+ → [\d,]+ tokens? \((−|\+)?\d+\.\d%\)/);
    const tab = activeTab();
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the active tab is a diff');
    assert.equal(tab.label, proposal.title);
    assert.equal(tab.input.modified.toString(), proposal.proposalUri);
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), original);

    const optimized = await proposalText(proposal);
    assert.equal(countTokens(optimized, 'gpt-4o'), proposal.optimizedTokens);

    const start = editor.document.offsetAt(selection.start);
    const end = editor.document.offsetAt(selection.end);
    const accepted = (await vscode.commands.executeCommand(CommandId.Accept)) as AcceptOutcome;
    assert.equal(accepted.status, 'accepted');
    assert.equal(editor.document.getText(), before.slice(0, start) + optimized + before.slice(end));
    assert.equal((await getApi()).pending().length, 0);
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)), 'the diff is closed');

    // One undo step restores the original.
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), before);
  });

  it('refuses to accept after the document changed, and loses nothing', async () => {
    const editor = await openDocument();
    selectLines(editor, 2, 3);
    const proposal = await optimizeSelection(editor);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(editor.document.uri, new vscode.Position(0, 0), 'Edited. ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const afterEdit = editor.document.getText();

    const outcome = (await vscode.commands.executeCommand(CommandId.Accept, vscode.Uri.parse(proposal.proposalUri))) as AcceptOutcome;
    assert.equal(outcome.status, 'refused');
    assert.equal(outcome.status === 'refused' && outcome.reason, 'changed');
    assert.equal(editor.document.getText(), afterEdit);
    assert.deepEqual((await getApi()).pending().map((p) => p.proposalUri), [proposal.proposalUri], 'the proposal stays open');
  });

  it('Discard closes the diff and leaves the text untouched', async () => {
    const editor = await openDocument();
    selectLines(editor, 2, 5);
    const before = editor.document.getText();
    const proposal = await optimizeSelection(editor);
    const outcome: any = await vscode.commands.executeCommand(CommandId.Discard);
    assert.equal(outcome.status, 'discarded');
    assert.equal(outcome.proposalUri, proposal.proposalUri);
    assert.equal(editor.document.getText(), before);
    assert.equal((await getApi()).pending().length, 0);
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)));
  });

  it('closing the diff tab counts as discard', async () => {
    const api = await getApi();
    const editor = await openDocument();
    selectLines(editor, 2, 2);
    await optimizeSelection(editor);
    const tab = activeTab();
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff);
    await vscode.window.tabGroups.close(tab);
    for (let i = 0; i < 100 && api.pending().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(api.pending().length, 0);
    assert.deepEqual(api.contextKeys(), { diffActive: false, hasPending: false });
  });

  it('keeps pending optimizations of different documents apart', async () => {
    const a = await openDocument(PROMPT);
    selectLines(a, 2, 2);
    const aBefore = a.document.getText();
    const aSelection = a.selection;
    const proposalA = await optimizeSelection(a);

    const b = await openDocument(`Intro line.\n\n${PROMPT}`);
    selectLines(b, 5, 6);
    const bBefore = b.document.getText();
    const bSelection = b.selection;
    const proposalB = await optimizeSelection(b);
    assert.equal((await getApi()).pending().length, 2);
    const textA = await proposalText(proposalA);
    const textB = await proposalText(proposalB);

    const acceptedB = (await vscode.commands.executeCommand(CommandId.Accept, vscode.Uri.parse(proposalB.proposalUri))) as AcceptOutcome;
    assert.equal(acceptedB.status, 'accepted');
    assert.equal(a.document.getText(), aBefore, 'document A is untouched');
    assert.equal(b.document.getText(), bBefore.slice(0, offsetIn(bBefore, bSelection.start)) + textB + bBefore.slice(offsetIn(bBefore, bSelection.end)));

    const acceptedA = (await vscode.commands.executeCommand(CommandId.Accept, vscode.Uri.parse(proposalA.originalUri))) as AcceptOutcome;
    assert.equal(acceptedA.status, 'accepted');
    assert.equal(a.document.getText(), aBefore.slice(0, offsetIn(aBefore, aSelection.start)) + textA + aBefore.slice(offsetIn(aBefore, aSelection.end)));
  });

  it('explains instead of failing on whitespace-only and huge input and on the proposal itself', async () => {
    const editor = await openDocument('Title\n   \n\t\nEnd');
    selectLines(editor, 1, 2);
    const whitespace = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
    assert.equal(whitespace.status, 'refused');
    assert.match(whitespace.status === 'refused' ? whitespace.message : '', /only whitespace/);

    const huge = await openDocument('word '.repeat(220_000), 'plaintext');
    huge.selection = new vscode.Selection(0, 0, 0, 0);
    const tooLarge = (await vscode.commands.executeCommand(CommandId.Optimize, { wholeDocument: true })) as OptimizeOutcome;
    assert.equal(tooLarge.status, 'refused');
    assert.match(tooLarge.status === 'refused' ? tooLarge.message : '', /1,100,000 characters/);

    const full = await openDocument();
    selectLines(full, 2, 3);
    const proposal = await optimizeSelection(full);
    const proposalEditor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.parse(proposal.proposalUri)));
    proposalEditor.selection = new vscode.Selection(0, 0, 0, 5);
    const onProposal = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
    assert.equal(onProposal.status, 'refused');
  });

  it('validates the budget given to Optimize Prompt with Budget…', async () => {
    const editor = await openDocument();
    selectLines(editor, 2, 3);
    const outcome = (await vscode.commands.executeCommand(CommandId.OptimizeWithBudget, '150%')) as OptimizeOutcome;
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.status === 'refused' ? outcome.message : '', /percentage/i);
    const proposal = await optimizeSelection(editor, '500');
    assert.ok(proposal.optimizedTokens <= proposal.originalTokens || proposal.softLimitEnforced);
  });
  it('says in the title when the budget could not be met', async () => {
    const editor = await openDocument();
    selectLines(editor, 2, 4);
    const proposal = await optimizeSelection(editor, '1');
    if (proposal.softLimitEnforced) assert.match(proposal.title, /budget/, proposal.title);
    else assert.ok(proposal.optimizedTokens <= 1, proposal.title);
  });

  it('refuses an empty proposal in strict mode instead of offering to delete the prompt', async () => {
    try {
      await setSetting('mode', 'strict');
      const editor = await openDocument('In order to win the game, please play the strongest opening move.');
      const before = editor.document.getText();
      editor.selection = new vscode.Selection(0, 0, 0, before.length);
      const outcome = (await vscode.commands.executeCommand(CommandId.OptimizeWithBudget, '30%')) as OptimizeOutcome;
      assert.equal(outcome.status, 'refused', JSON.stringify(outcome));
      assert.match(outcome.status === 'refused' ? outcome.message : '', /Nothing of this prompt fits the budget of \d+ tokens?: it is smaller than any whole sentence/);
      assert.match(outcome.status === 'refused' ? outcome.message : '', /Raise the budget/);
      assert.equal(editor.document.getText(), before);
    } finally {
      await setSetting('mode', undefined);
    }
  });

  it('Accept keeps the final newline of a whole document', async () => {
    const editor = await openDocument(`${PROMPT}\n`);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize, { wholeDocument: true, budget: '50%' })) as OptimizeOutcome;
    assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
    if (outcome.status !== 'proposed') return;
    const optimized = await proposalText(outcome.proposal);
    assert.ok(optimized.endsWith('.\n'), JSON.stringify(optimized.slice(-20)));
    assert.equal(outcome.proposal.optimizedTokens, countTokens(optimized, 'gpt-4o'), 'the count is of what Accept writes');
    const accepted = (await vscode.commands.executeCommand(CommandId.Accept)) as AcceptOutcome;
    assert.equal(accepted.status, 'accepted');
    assert.equal(editor.document.getText(), optimized);
    assert.ok(editor.document.getText().endsWith('\n'));
  });

  it('says "Already concise" instead of opening a diff when nothing can be shortened', async () => {
    const code = '```js\nconst total = items.reduce((sum, item) => sum + item.price, 0);\n```\n';
    const editor = await openDocument(code);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize, { wholeDocument: true })) as OptimizeOutcome;
    assert.equal(outcome.status, 'unchanged', JSON.stringify(outcome));
    assert.match(outcome.status === 'unchanged' ? outcome.message : '', /^Already concise/);
    assert.equal((await getApi()).pending().length, 0);
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)), 'no diff is opened');
    assert.equal(editor.document.getText(), code);
  });

  it('with several selections optimizes the primary one and says which', async () => {
    const editor = await openDocument();
    const primary = new vscode.Selection(2, 0, 3, editor.document.lineAt(3).text.length);
    editor.selections = [primary, new vscode.Selection(6, 0, 6, 10)];
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
    assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
    if (outcome.status !== 'proposed') return;
    assert.match(outcome.note ?? '', /one selection at a time: the primary one \(lines 3–4\)\. The other selection is left as it is\./);
    assert.equal(outcome.proposal.originalTokens, countTokens(editor.document.getText(primary), 'gpt-4o'));
  });

  it('says before Accept what was lost, marks a dropped rule and names the engine; each dropped unit is viewable', async () => {
    const prompt = [
      'You are a support assistant for Acme.',
      'Never share internal ticket numbers with customers.',
      'The weather in the office is usually pleasant and the coffee machine works well.',
      // Relaxed mode keeps the role, the request and the question whatever the budget: at 40% they fit, with
      // no room for the rule.
      'Most of the team sits on the third floor, next to the kitchen and the big meeting room.',
      'Answer the customer question below politely and briefly.',
      'Question: how do I reset my password?',
    ].join('\n');
    const editor = await openDocument(prompt);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize, { wholeDocument: true, budget: '40%' })) as OptimizeOutcome;
    assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
    if (outcome.status !== 'proposed') return;
    const { review, reviewMessage, removedUri } = outcome.proposal;
    assert.equal(review.engine, 'local engine');
    assert.match(review.summary ?? '', /^dropped \d+ sentences?/);
    assert.deepEqual(review.rulesDropped, ['Never share internal ticket numbers with customers.']);
    assert.ok(reviewMessage.startsWith(`${outcome.proposal.title}, local engine: dropped`), reviewMessage);
    assert.match(reviewMessage, /Drops 1 rule: “Never share internal ticket numbers with customers”\./);
    const removed = (await vscode.workspace.openTextDocument(vscode.Uri.parse(removedUri))).getText();
    assert.match(removed, /- \*\*Rule:\*\* Never share internal ticket numbers with customers\./);
    assert.match(removed, /- The weather in the office is usually pleasant/);
  });

  it('uses the model from settings as soon as it changes', async () => {
    try {
      await setSetting('model', 'gpt-4');
      const editor = await openDocument();
      const selection = selectLines(editor, 2, 4);
      const proposal = await optimizeSelection(editor);
      assert.equal(proposal.originalTokens, countTokens(editor.document.getText(selection), 'gpt-4'));
    } finally {
      await setSetting('model', undefined);
    }
  });
});

/** Offset of `position` in `text` (LF line breaks). */
function offsetIn(text: string, position: vscode.Position): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < position.line; i++) offset += (lines[i]?.length ?? 0) + 1;
  return offset + position.character;
}
