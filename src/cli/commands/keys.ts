import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createKeyInFile, keyId, parseKeysFile, revokeInFile } from '../../server/keys';
import { CliFailure, CliUsageError, EXIT, type CliCommand, type CliIo } from '../command';
import { writeAll } from '../io';
import { parseFlags } from '../options';
import { DEFAULT_KEYS_FILE } from './serve';

const usage = `Usage: prompt-optimizer keys <create|list|revoke> [options]

Manages the API keys the server accepts. The keys file holds only SHA-256 hashes, one per line
("sha256:<hex> [note]"); a running server reloads it on change or SIGHUP.

  keys create [--test] [--note TEXT]   Create a key (tk_live_…, or tk_test_… with --test), print it
                                        once on stdout and append its hash to the keys file (mode
                                        0600: an existing file others can read is set to 0600).
  keys list                            Print each key's id (start of its hash) and note.
  keys revoke ID | --key KEY           Remove the key with this id (at least 8 hex digits) or this key.

Options:
      --keys-file FILE   Default: $PROMPT_OPTIMIZER_KEYS_FILE, else ./${DEFAULT_KEYS_FILE}.
      --test             create: a test key (tk_test_ prefix).
      --note TEXT        create: a note stored next to the hash (who or what the key is for).
      --key KEY          revoke: the key itself instead of its id.
  -h, --help             Show this help.

Exit status: 0 success, 1 keys file missing or unwritable, or no matching key to revoke, 2 bad
arguments.

Examples:
  KEY=$(prompt-optimizer keys create --test --note ci)
  prompt-optimizer keys revoke 3f2a9c1d
`;

function keysFile(values: { 'keys-file'?: string }, io: CliIo): string {
  return resolve(io.cwd, values['keys-file'] ?? io.env.PROMPT_OPTIMIZER_KEYS_FILE ?? DEFAULT_KEYS_FILE);
}

export const command: CliCommand = {
  name: 'keys',
  summary: 'Create, list or revoke API keys for the HTTP service',
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      'keys-file': { type: 'string' },
      test: { type: 'boolean', default: false },
      note: { type: 'string' },
      key: { type: 'string' },
    });
    const [action, ...rest] = positionals;
    const file = keysFile(values, io);
    switch (action) {
      case 'create': {
        if (rest.length) throw new CliUsageError(`unexpected argument '${rest[0]}'`);
        let created;
        try {
          created = createKeyInFile(file, values.test ? 'test' : 'live', values.note ?? '');
        } catch (error) {
          throw new CliFailure(`cannot write '${file}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
        }
        if (created.fixedMode) io.stderr.write(`Set the mode of ${file} from ${created.fixedMode} to 0600: only its owner may read the key hashes.\n`);
        await writeAll(io.stdout, `${created.key}\n`);
        io.stderr.write(`Created key ${keyId(created.hash)} (hash written to ${file}). The key is shown only this once.\n`);
        return EXIT.OK;
      }
      case 'list': {
        if (!existsSync(file)) throw new CliFailure(`no keys file at '${file}'`);
        const { entries } = parseKeysFile(readFileSync(file, 'utf8'));
        await writeAll(io.stdout, entries.map((e) => `${keyId(e.hash)}  ${e.note}`.trimEnd()).join('\n') + (entries.length ? '\n' : ''));
        return EXIT.OK;
      }
      case 'revoke': {
        if (!existsSync(file)) throw new CliFailure(`no keys file at '${file}'`);
        if ((rest.length === 1) === (values.key !== undefined)) throw new CliUsageError('give either a key id or --key KEY');
        let removed: number;
        try {
          removed = revokeInFile(file, values.key !== undefined ? { key: values.key } : { prefix: rest[0]! });
        } catch (error) {
          throw new CliUsageError((error as Error).message);
        }
        if (removed === 0) throw new CliFailure('no matching key in the keys file');
        io.stderr.write(`Revoked ${removed} key${removed === 1 ? '' : 's'}; running servers pick this up on their next reload.\n`);
        return EXIT.OK;
      }
      default:
        throw new CliUsageError(action === undefined ? 'missing action: create, list or revoke' : `unknown action '${action}': expected create, list or revoke`);
    }
  },
};
