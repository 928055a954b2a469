import * as vscode from 'vscode';
import type { AcceptOutcome } from '../api';
import type { CommandDeps } from './index';

/** Accept Proposal. From the editor title VS Code passes the diff's URI; from the palette, nothing. */
export async function acceptCommand(deps: CommandDeps, target?: unknown): Promise<AcceptOutcome> {
  const outcome = await deps.diffs.accept(target);
  if (outcome.status === 'none') void vscode.window.showInformationMessage(outcome.message);
  return outcome;
}
