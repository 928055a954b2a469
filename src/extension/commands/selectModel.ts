import * as vscode from 'vscode';
import { loadCore } from '../lazy';
import type { CommandDeps } from './index';

/** Quick pick of the models the core supports; writes `promptOptimizer.model` (user settings). */
export async function selectModelCommand(deps: CommandDeps): Promise<string | undefined> {
  const { KNOWN_MODELS } = await loadCore();
  const current = deps.config.config.model;
  const items = KNOWN_MODELS.map((m) => ({
    label: m.model,
    description: m.model === current ? `${m.encoding} \u2014 current` : m.encoding,
    detail: m.description,
    picked: m.model === current,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Prompt Optimizer: Model for Token Count', placeHolder: `Current: ${current}` });
  if (!picked || picked.label === current) return undefined;
  await deps.config.update('model', picked.label);
  deps.log.info(`Model set to ${picked.label}.`);
  return picked.label;
}
