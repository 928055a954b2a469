/**
 * Web (browser worker extension host) entry: package.json `browser` → dist/web/extension.js. The same
 * wiring as the desktop: the local engine, the diff and the counter use no Node API, and the remote
 * engine uses `fetch` (the server must allow the page's origin). This one file also carries the heavy
 * modules for the desktop entry (see lazy.ts).
 */
import type * as vscode from 'vscode';
import { activateExtension } from './activate';
import type { PromptOptimizerApi } from './api';
import { provideLazyModules, type LazyModules } from './lazy';

/** Evaluated only when first called (esbuild keeps `import()`ed modules behind an initializer). */
export const lazyModules: LazyModules = {
  core: () => import('../core'),
  remote: () => import('./engine/remote'),
  schemas: () => import('../schemas'),
};

export function activate(context: vscode.ExtensionContext): PromptOptimizerApi {
  provideLazyModules(lazyModules);
  return activateExtension(context, 'web');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
