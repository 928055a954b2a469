/**
 * The core, loaded on first use. `--help`, `--version` and argument errors then answer without parsing
 * the tokenizer tables (several MB of JS); esbuild keeps the dynamic import lazy inside the bundle.
 */
export type Core = typeof import('../core/index');

let loading: Promise<Core> | undefined;

export function loadCore(): Promise<Core> {
  return (loading ??= import('../core/index'));
}
