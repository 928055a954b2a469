/**
 * Optimize Prompt File: the body of the current agent, instruction or prompt file in one step (no selection,
 * no question), shown as the usual diff. The front matter is neither sent nor touched: the body is
 * selected and handed to Optimize Prompt, whose Accept replaces exactly that range.
 */
import * as vscode from 'vscode';
import type { OptimizeOutcome } from '../api';
import { promptBodyRange } from '../logic/promptFiles';
import type { CommandDeps } from './index';
import { optimizeCommand } from './optimize';

export async function optimizePromptFileCommand(deps: CommandDeps, args?: unknown): Promise<OptimizeOutcome> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return refuse(deps, 'Open an agent, instruction or prompt file (AGENTS.md, *.prompt.md, SKILL.md …) to optimize it.');
  const { document } = editor;
  const { start, end } = promptBodyRange(document.getText());
  if (start === end) return refuse(deps, 'This file has no prompt after its front matter.');
  editor.selection = new vscode.Selection(document.positionAt(start), document.positionAt(end));
  const budget = (args as { budget?: unknown } | undefined)?.budget;
  return optimizeCommand(deps, typeof budget === 'string' || typeof budget === 'number' ? { budget } : {});
}

function refuse(deps: CommandDeps, message: string): OptimizeOutcome {
  deps.log.info(`Optimize Prompt File refused: ${message}`);
  void vscode.window.showWarningMessage(message);
  return { status: 'refused', message };
}
