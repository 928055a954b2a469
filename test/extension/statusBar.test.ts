import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countTokens } from '../../src/core';
import { closeAllEditors, getApi, openDocument, PROMPT, selectLines, setSetting } from './helpers';

describe('status-bar token counter', () => {
  afterEach(async () => {
    await setSetting('model', undefined);
    await setSetting('statusBar.enabled', undefined);
    await setSetting('statusBar.languages', undefined);
    await closeAllEditors();
  });

  it('shows the document count, and for a selection the core count for the model', async () => {
    const api = await getApi();
    const editor = await openDocument();
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const whole = await api.refreshStatusBar();
    assert.equal(whole.visible, true);
    assert.equal(whole.tokens, countTokens(PROMPT, 'gpt-4o'));
    assert.match(whole.text, /^\$\(symbol-numeric\) [\d,]+ tokens$/);

    const selection = selectLines(editor, 2, 3);
    const snapshot = await api.refreshStatusBar();
    assert.equal(snapshot.tokens, countTokens(editor.document.getText(selection), 'gpt-4o'));
    assert.match(snapshot.text, /^\$\(symbol-numeric\) [\d,]+ of [\d,]+ tokens$/);
    for (const part of ['Model: gpt-4o', 'Encoding: o200k_base', 'Characters:', 'Tokens:', 'Budget: 1,000 tokens']) assert.ok(snapshot.tooltip.includes(part), `tooltip has "${part}":\n${snapshot.tooltip}`);
    assert.match(snapshot.accessibilityLabel, /gpt-4o/);
  });

  it('sums several selections', async () => {
    const api = await getApi();
    const editor = await openDocument();
    const first = new vscode.Selection(2, 0, 2, 20);
    const second = new vscode.Selection(6, 0, 6, 10);
    editor.selections = [first, second];
    const snapshot = await api.refreshStatusBar();
    const expected = countTokens(editor.document.getText(first), 'gpt-4o') + countTokens(editor.document.getText(second), 'gpt-4o');
    assert.equal(snapshot.tokens, expected);
    assert.match(snapshot.tooltip, /2 selections/);
  });

  it('applies a settings change without a reload (model, then statusBar.enabled)', async () => {
    const api = await getApi();
    const editor = await openDocument();
    const selection = selectLines(editor, 2, 4);
    await setSetting('model', 'gpt-4');
    const snapshot = await api.refreshStatusBar();
    assert.equal(snapshot.model, 'gpt-4');
    assert.equal(snapshot.tokens, countTokens(editor.document.getText(selection), 'gpt-4'));
    assert.ok(snapshot.tooltip.includes('Encoding: cl100k_base'), snapshot.tooltip);

    await setSetting('statusBar.enabled', false);
    assert.equal((await api.refreshStatusBar()).visible, false);
    await setSetting('statusBar.enabled', true);
    assert.equal((await api.refreshStatusBar()).visible, true);
  });

  it('estimates (≈) a 5 MB document instead of blocking the extension host', async () => {
    const api = await getApi();
    const big = `${PROMPT}\n`.repeat(Math.ceil(5_000_000 / (PROMPT.length + 1)));
    const editor = await openDocument(big, 'plaintext');
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const snapshot = await api.refreshStatusBar();
    assert.equal(snapshot.estimated, true, `${JSON.stringify(snapshot)}; document ${editor.document.getText().length} characters, active ${vscode.window.activeTextEditor?.document.uri.toString()}`);
    assert.match(snapshot.text, /≈/);
    const exact = countTokens(PROMPT + '\n', 'gpt-4o') * Math.ceil(5_000_000 / (PROMPT.length + 1));
    assert.ok(Math.abs((snapshot.tokens ?? 0) - exact) / exact < 0.1, `estimate ${snapshot.tokens} is within 10% of ${exact}`);
  });

  it('counts only the configured languages (Markdown, plain text and prompt files by default)', async () => {
    const api = await getApi();
    await openDocument('const answer = 42; // a TypeScript file is no prompt', 'typescript');
    assert.equal((await api.refreshStatusBar()).visible, false, 'not counted in TypeScript by default');
    await openDocument(PROMPT, 'markdown');
    assert.equal((await api.refreshStatusBar()).visible, true);

    await setSetting('statusBar.languages', ['typescript']);
    assert.equal((await api.refreshStatusBar()).visible, false, 'Markdown is no longer in the list');
    await openDocument('const answer = 42;', 'typescript');
    assert.equal((await api.refreshStatusBar()).visible, true);
    await setSetting('statusBar.languages', ['*']);
    await openDocument('{"a": 1}', 'json');
    assert.equal((await api.refreshStatusBar()).visible, true, '"*" counts every language');
  });
});
