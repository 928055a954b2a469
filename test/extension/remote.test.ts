import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OptimizeOutcome } from '../../src/extension/api';
import { CommandId } from '../../src/extension/commands';
import { closeAllEditors, discardAll, getApi, openDocument, selectLines, setSetting } from './helpers';

const SERVER = process.env.PO_TEST_SERVER_URL;
const KEY = process.env.PO_TEST_API_KEY;

describe('remote engine against the real HTTP service', function () {
  before(async function () {
    if (!SERVER || !KEY) {
      console.log('remote engine suite skipped: PO_TEST_SERVER_URL / PO_TEST_API_KEY are not set (the harness did not start the HTTP service).');
      this.skip();
    }
    await setSetting('engine', 'remote');
    await setSetting('remote.baseUrl', SERVER);
    await setSetting('remote.fallbackToLocal', false);
  });

  afterEach(async () => {
    await discardAll(await getApi());
    await closeAllEditors();
  });

  after(async () => {
    if (!SERVER || !KEY) return;
    for (const key of ['engine', 'remote.baseUrl', 'remote.apiVariant', 'remote.fallbackToLocal']) await setSetting(key, undefined);
    await vscode.commands.executeCommand(CommandId.ClearApiKey);
  });

  for (const variant of ['B', 'A'] as const) {
    it(`optimizes through Variant ${variant} with the key from SecretStorage`, async () => {
      const api = await getApi();
      await api.storeApiKey(KEY ?? '');
      await setSetting('remote.apiVariant', variant);
      const editor = await openDocument();
      selectLines(editor, 2, 4);
      const outcome = (await vscode.commands.executeCommand(CommandId.OptimizeWithBudget, '60%')) as OptimizeOutcome;
      assert.equal(outcome.status, 'proposed', JSON.stringify(outcome));
      if (outcome.status !== 'proposed') return;
      assert.equal(outcome.proposal.engine, 'remote');
      assert.match(outcome.proposal.title, /^Prompt: [\d,]+ → [\d,]+ tokens/);
      // Which engine ran is in the proposal, not only in the log.
      assert.equal(outcome.proposal.review.engine, `remote engine at ${new URL(SERVER ?? '').origin} (API ${variant})`);
      assert.ok(outcome.proposal.reviewMessage.includes(outcome.proposal.review.engine), outcome.proposal.reviewMessage);
    });
  }

  it('shows the server message of a 4xx answer (text over the server limit)', async () => {
    const api = await getApi();
    await api.storeApiKey(KEY ?? '');
    await setSetting('remote.apiVariant', 'B');
    const line = 'Revenue grew by 42% to $1.7 trillion; the Berlin team shipped API v2 on 2024-03-01 (ticket #4711).\n';
    const editor = await openDocument(line.repeat(Math.floor(900_000 / line.length)), 'plaintext');
    editor.selection = new vscode.Selection(0, 0, editor.document.lineCount - 1, 0);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome).slice(0, 500));
    if (outcome.status !== 'failed') return;
    assert.equal(outcome.failure.kind, 'client');
    assert.equal('status' in outcome.failure ? outcome.failure.status : undefined, 400);
    assert.equal('code' in outcome.failure ? outcome.failure.code : undefined, 'text_too_long');
    assert.match(outcome.failure.message, /The server said|rejected the request \(400\): .+/);
  });

  it('reports 401 for a wrong key, without the key in the message', async () => {
    const api = await getApi();
    const wrong = `tk_test_${'x'.repeat(40)}`;
    await api.storeApiKey(wrong);
    await setSetting('remote.apiVariant', 'B');
    const editor = await openDocument();
    selectLines(editor, 2, 3);
    const outcome = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
    if (outcome.status !== 'failed') return;
    assert.equal(outcome.failure.kind, 'unauthorized');
    assert.equal('status' in outcome.failure ? outcome.failure.status : undefined, 401);
    assert.match(outcome.failure.message, /Set API Key/);
    assert.ok(!outcome.failure.message.includes(wrong));
    assert.equal(api.pending().length, 0);
  });
});

describe('remote engine failures (no server needed)', () => {
  before(async () => {
    await setSetting('engine', 'remote');
    await setSetting('remote.baseUrl', 'http://127.0.0.1:9'); // discard port: nothing listens
    await setSetting('remote.timeoutMs', 3000);
    await (await getApi()).storeApiKey(`tk_test_${'y'.repeat(40)}`);
  });

  afterEach(async () => {
    await closeAllEditors();
  });

  after(async () => {
    for (const key of ['engine', 'remote.baseUrl', 'remote.timeoutMs', 'remote.fallbackToLocal']) await setSetting(key, undefined);
    await vscode.commands.executeCommand(CommandId.ClearApiKey);
  });

  for (const fallback of [true, false]) {
    it(`reports an unreachable server and ${fallback ? 'offers' : 'does not offer'} the local engine (fallbackToLocal=${fallback})`, async () => {
      await setSetting('remote.fallbackToLocal', fallback);
      const editor = await openDocument();
      selectLines(editor, 2, 3);
      const before = editor.document.getText();
      const outcome = (await vscode.commands.executeCommand(CommandId.Optimize)) as OptimizeOutcome;
      assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
      if (outcome.status !== 'failed') return;
      assert.ok(['network', 'timeout'].includes(outcome.failure.kind), outcome.failure.kind);
      assert.match(outcome.failure.message, /http:\/\/127\.0\.0\.1:9/);
      assert.equal(outcome.fallbackOffered, fallback);
      assert.equal(editor.document.getText(), before);
      assert.equal((await getApi()).pending().length, 0);
    });
  }
});
