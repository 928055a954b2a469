import { CliFailure, CliUsageError, EXIT, type CliCommand, type CliIo } from './command';
import { describeOptimizeError, isOptimizeErrorLike } from './errors';
import { VERSION } from './version';

export const PROGRAM = 'prompt-optimizer';

/** Top-level help: the command list built from the registry. */
export function topLevelHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(4, ...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Shortens natural-language prompts toward a token budget, keeping code, numbers, names and instructions.',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(width)}  Show help for a command: ${PROGRAM} help <command>`,
    '',
    'Options:',
    '  -h, --help     Show this help (or a command\'s help after its name)',
    '  -V, --version  Print the version',
    '',
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ].join('\n');
}

/** True when `--help`/`-h` appears before a `--` terminator. */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * Dispatches `argv` (without `node` and the script) to a command and turns every expected error into a
 * message on stderr and an exit code. Never lets a stack trace reach the user unless
 * `PROMPT_OPTIMIZER_DEBUG` is set.
 */
export async function runCli(commands: readonly CliCommand[], argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(topLevelHelp(commands));
    return EXIT.USAGE;
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(topLevelHelp(commands));
    return EXIT.OK;
  }
  if (first === '--version' || first === '-V' || first === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (first === 'help') {
    const target = rest[0];
    if (target === undefined) {
      io.stdout.write(topLevelHelp(commands));
      return EXIT.OK;
    }
    const command = commands.find((c) => c.name === target);
    if (!command) return unknownCommand(target, commands, io);
    io.stdout.write(withNewline(command.usage));
    return EXIT.OK;
  }
  if (first.startsWith('-')) {
    io.stderr.write(`${PROGRAM}: unknown option '${first}' (a command comes first).\nRun '${PROGRAM} --help' for usage.\n`);
    return EXIT.USAGE;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) return unknownCommand(first, commands, io);
  if (wantsHelp(rest)) {
    io.stdout.write(withNewline(command.usage));
    return EXIT.OK;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    return reportError(command, error, io);
  }
}

function reportError(command: CliCommand, error: unknown, io: CliIo): number {
  const prefix = `${PROGRAM} ${command.name}`;
  if (error instanceof CliUsageError || isParseArgsError(error)) {
    io.stderr.write(`${prefix}: ${usageMessage(error as Error)}\nRun '${PROGRAM} ${command.name} --help' for usage.\n`);
    return EXIT.USAGE;
  }
  if (error instanceof CliFailure) {
    io.stderr.write(`${prefix}: ${error.message}\n`);
    return error.exitCode;
  }
  if (isOptimizeErrorLike(error)) {
    io.stderr.write(`${prefix}: ${describeOptimizeError(error)}\n`);
    return EXIT.USAGE;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`${prefix}: internal error: ${message}\n`);
  if (io.env.PROMPT_OPTIMIZER_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write(`(set PROMPT_OPTIMIZER_DEBUG=1 for a stack trace)\n`);
  return EXIT.FAILURE;
}

/** `util.parseArgs` messages, shortened where Node's wording is about positionals nobody asked for. */
export function usageMessage(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(error.message)?.[1];
    if (option) return `unknown option '${option}'`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const missing = /^Option '(.+?) <value>' argument missing/.exec(error.message);
    if (missing) return `option '${missing[1]}' needs a value`;
  }
  return error.message;
}

/** Errors thrown by `util.parseArgs` for unknown options, missing values and extra positionals. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

function unknownCommand(name: string, commands: readonly CliCommand[], io: CliIo): number {
  const close = commands.find((c) => c.name.startsWith(name.slice(0, 3)) || editDistance(c.name, name) <= 2);
  const hint = close ? ` Did you mean '${close.name}'?` : '';
  io.stderr.write(
    `${PROGRAM}: unknown command '${name}'.${hint}\nCommands: ${commands.map((c) => c.name).join(', ')}. Run '${PROGRAM} --help' for usage.\n`,
  );
  return EXIT.USAGE;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Levenshtein distance, for "did you mean" on short command names. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
