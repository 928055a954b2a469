/**
 * Shared wiring of the desktop and web entries. `activate` only creates the services, registers them
 * in `context.subscriptions` and registers the commands; nothing heavy runs here (the core loads on
 * first use).
 */
import * as vscode from 'vscode';
import type { PromptOptimizerApi } from './api';
import { CommandId, registerAllCommands } from './commands';
import { ConfigService } from './config';
import { OUTPUT_CHANNEL_NAME } from './constants';
import { DiffManager } from './diff/diffManager';
import { ApiKeyStore } from './secrets';
import { TokenCounter } from './statusBar/tokenCounter';
import { registerLanguageModelTools } from './tools/languageModelTools';

export function activateExtension(context: vscode.ExtensionContext, platform: 'desktop' | 'web'): PromptOptimizerApi {
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  const config = new ConfigService(log);
  const keys = new ApiKeyStore(context.secrets, log);
  const diffs = new DiffManager(log);
  const counter = new TokenCounter(config, log, CommandId.SelectModel);
  context.subscriptions.push(log, config, keys, diffs, counter);
  registerAllCommands(context, { config, log, diffs, keys, platform });
  context.subscriptions.push(registerLanguageModelTools(config, log));
  log.info(`Prompt Optimizer ${String(context.extension.packageJSON.version)} activated (${platform}, engine ${config.config.engine}).`);

  return {
    pending: () => diffs.pending(),
    contextKeys: () => diffs.contextKeys(),
    refreshStatusBar: () => counter.refresh(),
    storeApiKey: (key) => keys.set(key),
  };
}
