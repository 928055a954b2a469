import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptOptimizerApi } from '../../src/extension/api';
import { EXTENSION_ID } from '../../src/extension/constants';

export async function getApi(): Promise<PromptOptimizerApi> {
  const extension = vscode.extensions.getExtension<PromptOptimizerApi>(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not loaded`);
  return extension.isActive ? extension.exports : await extension.activate();
}

export function packageJson(): Record<string, any> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  return extension.packageJSON as Record<string, any>;
}

export const PROMPT = [
  '# Summary request',
  '',
  'Hello! I would really like you to please take a careful look at the following quarterly report and, if at all possible, give me a very short summary of it.',
  'Basically, the main thing that I actually care about is that revenue grew by 42% to $1.7 trillion, and that the team in Berlin shipped the new API on 2024-03-01.',
  'It would also be really great if you could perhaps mention any risks that you happen to notice, but only if they are actually important in your opinion.',
  '',
  'Please answer in three bullet points.',
].join('\n');

let opened = 0;

/**
 * Opens an untitled document with `content` in an editor. Each gets a name of its own: an untitled URI
 * reused right after its document closed ("Untitled-1" again) could leave the old document active.
 */
export async function openDocument(content = PROMPT, language = 'markdown'): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `po-test-${++opened}` });
  const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), language);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), content);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the content was inserted');
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  await waitFor('the new document to be the active editor', () => vscode.window.activeTextEditor?.document === document, 30_000);
  return editor;
}

/** Selects lines `from`..`to` (inclusive, whole lines without the final line break). */
export function selectLines(editor: vscode.TextEditor, from: number, to: number): vscode.Selection {
  const end = editor.document.lineAt(to).range.end;
  editor.selection = new vscode.Selection(new vscode.Position(from, 0), end);
  return editor.selection;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Closes every editor without save prompts (dirty untitled documents are reverted first). */
export async function closeAllEditors(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs)[0];
    if (!tab) return;
    if (tab.isDirty && tab.input instanceof vscode.TabInputText) {
      const document = await vscode.workspace.openTextDocument(tab.input.uri);
      await vscode.window.showTextDocument(document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } else {
      await vscode.window.tabGroups.close(tab, false);
    }
  }
}

/** Discards every pending optimization. */
export async function discardAll(api: PromptOptimizerApi): Promise<void> {
  for (const proposal of api.pending()) await vscode.commands.executeCommand('promptOptimizer.discard', vscode.Uri.parse(proposal.proposalUri));
}

/** Sets a user setting and waits until the extension has re-read it. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`promptOptimizer.${key}`)) {
        listener.dispose();
        resolve();
      }
    });
  });
  const before = vscode.workspace.getConfiguration('promptOptimizer').inspect(key)?.globalValue;
  await vscode.workspace.getConfiguration('promptOptimizer').update(key, value, vscode.ConfigurationTarget.Global);
  if (JSON.stringify(before) !== JSON.stringify(value)) await Promise.race([changed, sleep(5000)]);
  await sleep(20);
}

export function activeTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.activeTabGroup.activeTab;
}
