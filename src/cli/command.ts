/**
 * The contract every `prompt-optimizer <name>` subcommand implements. A command lives in
 * `src/cli/commands/<name>.ts`, exports `command: CliCommand`, and is registered with one line in
 * `src/cli/main.ts`. The runner (`run.ts`) handles `--help`/`-h` for it, and maps thrown errors to
 * messages and exit codes, so a command only parses its own arguments and does its work.
 */

/** Where a command reads and writes. The real process in `main.ts`; in-memory streams in tests. */
export interface CliIo {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Directory relative file arguments are resolved against. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface CliCommand {
  /** The word after `prompt-optimizer`, e.g. `optimize`. */
  readonly name: string;
  /** One line for the top-level `--help` list. */
  readonly summary: string;
  /** Full help text, printed by `prompt-optimizer <name> --help` (and after a usage error hint). */
  readonly usage: string;
  /**
   * Runs the command with the arguments after its name (`--help` is already handled). Resolves to the
   * exit code. Throw `CliUsageError` for bad arguments (exit 2), `CliFailure` for runtime failures such
   * as an unreadable file (exit 1); a core `OptimizeError` is reported naming its parameter (exit 2).
   */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** Exit codes, the same for every command. */
export const EXIT = {
  /** Success. */
  OK: 0,
  /** Runtime failure: unreadable file, I/O error, internal error. */
  FAILURE: 1,
  /** Usage: unknown command or option, missing or bad argument, invalid budget/mode/model. */
  USAGE: 2,
  /** `batch` finished but at least one line produced an error object. */
  PARTIAL: 3,
} as const;

/** Bad arguments: reported with a pointer to `--help`, exit 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** An expected runtime failure (unreadable file …): reported as one line, exit 1 unless told otherwise. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.FAILURE,
  ) {
    super(message);
  }
}
