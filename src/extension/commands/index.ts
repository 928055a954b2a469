/**
 * Every command of the extension. `CommandId` lists each id once (package.json uses the same ids; a
 * test checks both ways), each handler lives in its own file, and only `registerAllCommands` registers.
 */
import * as vscode from 'vscode';
import type { ConfigService } from '../config';
import type { DiffManager } from '../diff/diffManager';
import type { ApiKeyStore } from '../secrets';
import { acceptCommand } from './accept';
import { clearApiKeyCommand } from './clearApiKey';
import { discardCommand } from './discard';
import { optimizeCommand, optimizeWithBudgetCommand } from './optimize';
import { optimizePromptFileCommand } from './optimizePromptFile';
import { selectModelCommand } from './selectModel';
import { setApiKeyCommand } from './setApiKey';
import { showLogCommand } from './showLog';

export enum CommandId {
  Optimize = 'promptOptimizer.optimize',
  OptimizeWithBudget = 'promptOptimizer.optimizeWithBudget',
  OptimizePromptFile = 'promptOptimizer.optimizePromptFile',
  Accept = 'promptOptimizer.accept',
  Discard = 'promptOptimizer.discard',
  SelectModel = 'promptOptimizer.selectModel',
  SetApiKey = 'promptOptimizer.setApiKey',
  ClearApiKey = 'promptOptimizer.clearApiKey',
  ShowLog = 'promptOptimizer.showLog',
}

/** What handlers need, passed in (no module-level state). */
export interface CommandDeps {
  readonly config: ConfigService;
  readonly log: vscode.LogOutputChannel;
  readonly diffs: DiffManager;
  readonly keys: ApiKeyStore;
  /** Which extension host runs us: in 'web' fetch is the browser's, bound by CORS. */
  readonly platform: 'desktop' | 'web';
}

export type CommandHandler = (deps: CommandDeps, ...args: unknown[]) => unknown;

const HANDLERS: Record<CommandId, CommandHandler> = {
  [CommandId.Optimize]: optimizeCommand,
  [CommandId.OptimizeWithBudget]: optimizeWithBudgetCommand,
  [CommandId.OptimizePromptFile]: optimizePromptFileCommand,
  [CommandId.Accept]: acceptCommand,
  [CommandId.Discard]: discardCommand,
  [CommandId.SelectModel]: selectModelCommand,
  [CommandId.SetApiKey]: setApiKeyCommand,
  [CommandId.ClearApiKey]: clearApiKeyCommand,
  [CommandId.ShowLog]: showLogCommand,
};

export function registerAllCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  for (const [id, handler] of Object.entries(HANDLERS)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => handler(deps, ...args)));
  }
}
