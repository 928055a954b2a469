import * as vscode from 'vscode';
import type { CommandDeps } from './index';

export async function clearApiKeyCommand(deps: CommandDeps): Promise<boolean> {
  const had = (await deps.keys.get()) !== undefined;
  await deps.keys.clear();
  deps.log.info(had ? 'API key cleared.' : 'Clear API Key: no key was stored.');
  void vscode.window.showInformationMessage(had ? 'Prompt Optimizer: API key cleared.' : 'Prompt Optimizer: no API key was stored.');
  return had;
}
