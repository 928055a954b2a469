/**
 * The heavy modules, loaded on first use: the core (tokenizer rank tables, word frequencies: megabytes)
 * and the remote client (zod schemas). Activation never evaluates them.
 *
 * The entry file decides how they load (`provideLazyModules`): the web bundle (dist/web/extension.js)
 * contains them behind `import()`; the desktop bundle (dist/extension.js) stays small and, on first
 * use, requires them from the web bundle next to it, so the .vsix carries the tokenizer only once.
 */
export type Core = typeof import('../core');
export type RemoteModule = typeof import('./engine/remote');
export type Schemas = typeof import('../schemas');

export interface LazyModules {
  core(): Promise<Core>;
  remote(): Promise<RemoteModule>;
  schemas(): Promise<Schemas>;
}

let modules: LazyModules | undefined;
let core: Promise<Core> | undefined;

export function provideLazyModules(provided: LazyModules): void {
  modules = provided;
  core = undefined;
}

function get(): LazyModules {
  if (!modules) throw new Error('Prompt Optimizer: lazy modules were not provided by the entry point.');
  return modules;
}

export function loadCore(): Promise<Core> {
  core ??= get().core();
  return core;
}

export function loadRemote(): Promise<RemoteModule> {
  return get().remote();
}

export function loadSchemas(): Promise<Schemas> {
  return get().schemas();
}
