import * as vscode from 'vscode';
import { loadSchemas } from '../lazy';
import type { CommandDeps } from './index';

/**
 * Asks for the remote engine's API key in a password box and stores it in SecretStorage. Resolves to
 * true when a key was stored. The key never reaches settings, the log or a message.
 */
export async function setApiKeyCommand(deps: CommandDeps): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'Prompt Optimizer: Set API Key',
    prompt: 'API key for the Prompt Optimizer server (stored in VS Code\'s secret storage, never in settings).',
    placeHolder: 'tk_live_…',
    password: true,
    ignoreFocusOut: true,
    validateInput: async (value) => {
      const trimmed = value.trim();
      if (trimmed === '') return 'Enter the key, or press Escape to cancel.';
      if (/\s/.test(trimmed)) return 'An API key has no spaces.';
      const { API_KEY_PATTERN } = await loadSchemas();
      if (!API_KEY_PATTERN.test(trimmed)) {
        return { message: 'This does not look like a Prompt Optimizer key (tk_live_… or tk_test_…). It will be stored anyway.', severity: vscode.InputBoxValidationSeverity.Warning };
      }
      return undefined;
    },
  });
  if (key === undefined || key.trim() === '') return false;
  await deps.keys.set(key);
  deps.log.info('API key stored in secret storage.');
  void vscode.window.showInformationMessage('Prompt Optimizer: API key saved.');
  return true;
}
