import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CommandId } from '../../src/extension/commands';
import { activeTab, closeAllEditors, discardAll, getApi, openDocument, packageJson, selectLines } from './helpers';

describe('commands and menus', () => {
  after(async () => {
    await discardAll(await getApi());
    await closeAllEditors();
  });

  it('activates and registers every command of package.json, each under the category "Prompt Optimizer"', async () => {
    await getApi();
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = (packageJson().contributes.commands as { command: string; category: string }[]);
    assert.deepEqual(contributed.map((c) => c.command).sort(), Object.values(CommandId).sort());
    for (const command of contributed) {
      assert.ok(registered.has(command.command), `${command.command} is not registered`);
      assert.equal(command.category, 'Prompt Optimizer');
    }
  });

  it('declares the menus with the agreed when clauses', () => {
    const menus = packageJson().contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
    const find = (menu: string, command: string) => menus[menu]?.find((entry) => entry.command === command);
    assert.match(find('editor/context', CommandId.Optimize)?.when ?? '', /\beditorHasSelection\b/);
    for (const command of [CommandId.Accept, CommandId.Discard]) {
      const title = find('editor/title', command);
      assert.equal(title?.when, 'promptOptimizer.diffActive');
      assert.match(title?.group ?? '', /^navigation/);
      assert.equal(find('commandPalette', command)?.when, 'promptOptimizer.hasPending');
    }
    const icons = Object.fromEntries((packageJson().contributes.commands as { command: string; icon?: string }[]).map((c) => [c.command, c.icon]));
    assert.equal(icons[CommandId.Accept], '$(check)');
    assert.equal(icons[CommandId.Discard], '$(close)');
  });

  it('sets the context keys: diffActive only while our diff is active, hasPending while a proposal waits', async () => {
    const api = await getApi();
    assert.deepEqual(api.contextKeys(), { diffActive: false, hasPending: false });
    const editor = await openDocument();
    selectLines(editor, 2, 4);
    const outcome: any = await vscode.commands.executeCommand(CommandId.Optimize);
    assert.equal(outcome.status, 'proposed');
    assert.deepEqual(api.contextKeys(), { diffActive: true, hasPending: true });

    await vscode.window.showTextDocument(editor.document, { preview: false });
    assert.equal(vscode.window.activeTextEditor?.document, editor.document);
    assert.deepEqual(api.contextKeys(), { diffActive: false, hasPending: true });

    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === outcome.proposal.proposalUri);
    assert.ok(tab, 'the diff tab is open');
    await vscode.commands.executeCommand(CommandId.Discard, vscode.Uri.parse(outcome.proposal.proposalUri));
    assert.deepEqual(api.contextKeys(), { diffActive: false, hasPending: false });
    assert.ok(!(activeTab()?.input instanceof vscode.TabInputTextDiff));
  });

  it('binds Accept and Discard to keys only while one of our diffs is active', () => {
    const bindings = packageJson().contributes.keybindings as { command: string; key: string; when?: string }[];
    for (const [command, key] of [[CommandId.Accept, 'ctrl+enter'], [CommandId.Discard, 'escape']] as const) {
      const binding = bindings.find((b) => b.command === command);
      assert.equal(binding?.key, key, command);
      assert.match(binding?.when ?? '', /^promptOptimizer\.diffActive && editorTextFocus\b/, command);
    }
  });

  it('binds Optimize Prompt to a key that no default keybinding uses', async () => {
    const bindings = packageJson().contributes.keybindings as { command: string; key: string; mac?: string }[];
    const ours = bindings.find((b) => b.command === CommandId.Optimize);
    assert.ok(ours, 'Optimize Prompt has a default keybinding');
    // On a read-only editor (the proposal) the key must reach the command, which says why it cannot run.
    assert.doesNotMatch((ours as { when?: string }).when ?? '', /editorReadonly/);
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const document = vscode.window.activeTextEditor?.document;
    assert.ok(document, 'the default keybindings document opened');
    const normalize = (key: string) => key.toLowerCase().split('+').sort().join('+');
    const key = normalize(process.platform === 'darwin' && ours.mac ? ours.mac : ours.key);
    const entries = [...document.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((m) => ({ key: m[1] ?? '', command: m[2] ?? '' }));
    assert.ok(entries.length > 100, `parsed ${entries.length} default keybindings`);
    const clashes = entries.filter((e) => normalize(e.key) === key && e.command !== CommandId.Optimize && !e.command.startsWith('-'));
    assert.deepEqual(clashes, [], `${key} collides with a default keybinding`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});

describe('settings that send data somewhere', () => {
  it('cannot be set by a workspace (application scope)', async function () {
    if (!vscode.workspace.workspaceFolders?.length) this.skip();
    for (const key of ['engine', 'remote.baseUrl', 'remote.apiVariant', 'remote.timeoutMs', 'remote.fallbackToLocal']) {
      const schema = packageJson().contributes.configuration.properties[`promptOptimizer.${key}`];
      assert.equal(schema.scope, 'application', key);
      await assert.rejects(
        Promise.resolve(vscode.workspace.getConfiguration('promptOptimizer').update(key, key === 'engine' ? 'remote' : 'x', vscode.ConfigurationTarget.Workspace)),
        `VS Code refused to write promptOptimizer.${key} to the workspace settings`,
      );
    }
    assert.equal(vscode.workspace.getConfiguration('promptOptimizer').get('engine'), 'local');
  });
});
