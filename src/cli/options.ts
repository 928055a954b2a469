import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Mode } from '../core/index';
import { CliUsageError } from './command';
import type { Core } from './core';

/** Every command's flags: positionals allowed (FILE), unknown flags refused. */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: O) {
  return parseArgs({ args: [...args], allowPositionals: true, strict: true, options });
}

/** The `parseArgs` options that `optimize` and `batch` share: the core's request fields and `--quiet`. */
export const OPTIMIZE_FLAGS = {
  budget: { type: 'string', short: 'b' },
  mode: { type: 'string', short: 'm' },
  task: { type: 'string', short: 't' },
  model: { type: 'string' },
  quiet: { type: 'boolean', short: 'q', default: false },
} as const;

/** At most one positional FILE (or `-`). */
export function singleFile(positionals: readonly string[]): string | undefined {
  if (positionals.length > 1) throw new CliUsageError(`expected at most one FILE, got ${positionals.length}: ${positionals.map((p) => `'${p}'`).join(' ')}`);
  return positionals[0];
}

/** Checks `--mode` before any input is read. */
export function checkMode(core: Core, mode: string | undefined): Mode {
  if (mode === undefined) return core.DEFAULT_MODE;
  if ((core.MODES as readonly string[]).includes(mode)) return mode as Mode;
  throw new CliUsageError(`invalid --mode '${mode}': expected one of ${core.MODES.join(', ')}`);
}

/** Checks `--model` before any input is read (throws the core's `model_unsupported`). */
export function checkModel(core: Core, model: string | undefined): string {
  const name = model ?? core.DEFAULT_MODEL;
  core.encodingForModel(name);
  return name;
}

/** Checks `--budget` before any input is read (throws the core's `budget_invalid`). Kept as a string: `500` or `40%`. */
export function checkBudget(core: Core, budget: string | undefined): string | number {
  if (budget === undefined) return core.DEFAULT_BUDGET;
  core.validateBudget(budget);
  return budget;
}
