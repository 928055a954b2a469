/**
 * `prompt-optimizer`: the package's `bin` (bundled to dist/cli.js). Thin on purpose: the registry
 * below plus process wiring. To add a command, create `src/cli/commands/<name>.ts` exporting
 * `command: CliCommand` (see `command.ts`) and add one import and one list entry here.
 */
import type { CliCommand } from './command';
import { processIo } from './io';
import { runCli } from './run';
import { command as optimize } from './commands/optimize';
import { command as count } from './commands/count';
import { command as batch } from './commands/batch';
import { command as serve } from './commands/serve';
import { command as keys } from './commands/keys';
import { command as mcp } from './commands/mcp';

/** Listed by `prompt-optimizer --help` in this order. One line per command. */
const COMMANDS: readonly CliCommand[] = [
  optimize,
  count,
  batch,
  serve,
  keys,
  mcp,
];

runCli(COMMANDS, process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`prompt-optimizer: internal error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
