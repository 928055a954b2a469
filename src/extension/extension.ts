/**
 * Desktop (Node extension host) entry: package.json `main` → dist/extension.js. Small on purpose: the
 * core and the remote client are required from dist/web/extension.js on first use (see lazy.ts).
 */
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { activateExtension } from './activate';
import type { PromptOptimizerApi } from './api';
import { provideLazyModules, type LazyModules } from './lazy';

export type { PromptOptimizerApi } from './api';

let heavy: LazyModules | undefined;
/** The web bundle's lazy modules; `require` is resolved at run time, next to this file. */
function fromWebBundle(): LazyModules {
  heavy ??= (require(join(__dirname, 'web', 'extension.js')) as { lazyModules: LazyModules }).lazyModules;
  return heavy;
}

export function activate(context: vscode.ExtensionContext): PromptOptimizerApi {
  provideLazyModules({
    core: () => fromWebBundle().core(),
    remote: () => fromWebBundle().remote(),
    schemas: () => fromWebBundle().schemas(),
  });
  return activateExtension(context, 'desktop');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
