/**
 * The `serve` and `keys` commands in-process: configuration from defaults, environment variables and
 * flags (flags win), validation messages, help, and key management on a temp keys file.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CliUsageError, type CliIo } from '../../src/cli/command';
import { command as keysCommand } from '../../src/cli/commands/keys';
import { command as serveCommand, DEFAULT_KEYS_FILE, resolveServeConfig } from '../../src/cli/commands/serve';
import { DEFAULT_CONFIG } from '../../src/server/config';
import { generateKey, hashKey } from '../../src/server/keys';

function memoryIo(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr, cwd, env };
  return { io, out: () => out, err: () => err };
}

describe('server: serve and keys commands (in-process)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'po-cmd-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to 127.0.0.1:8787, one worker per core, 1 MiB, 60 requests per minute', () => {
    const { config, devKey } = resolveServeConfig([], {}, dir);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8787);
    assert.equal(config.workers, DEFAULT_CONFIG.workers);
    assert.ok(config.workers >= 1);
    assert.equal(config.bodyLimitBytes, 1024 * 1024);
    assert.equal(config.rateLimitMax, 60);
    assert.equal(config.rateLimitWindowMs, 60_000);
    assert.equal(config.keysFile, undefined);
    assert.deepEqual(config.extraKeys, []);
    assert.equal(devKey, undefined);
  });

  it('reads PROMPT_OPTIMIZER_* variables; flags win', () => {
    const key = generateKey('test');
    const env = { PROMPT_OPTIMIZER_PORT: '9000', PROMPT_OPTIMIZER_WORKERS: '3', PROMPT_OPTIMIZER_RATE_LIMIT: '5', PROMPT_OPTIMIZER_API_KEY: key, PROMPT_OPTIMIZER_KEYS_FILE: 'k.txt' };
    const { config } = resolveServeConfig(['--port', '0', '--host', '0.0.0.0', '--max-input-tokens', '77', '--dev-key'], env, dir);
    assert.equal(config.port, 0);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.workers, 3);
    assert.equal(config.rateLimitMax, 5);
    assert.equal(config.maxInputTokens, 77);
    assert.equal(config.keysFile, join(dir, 'k.txt'));
    assert.equal(config.extraKeys[0], key);
    assert.equal(config.extraKeys.length, 2, 'the env key and the dev key');
    assert.deepEqual(resolveServeConfig(['--cors-origins', 'https://vscode.dev, http://localhost:3000'], {}, dir).config.corsOrigins, ['https://vscode.dev', 'http://localhost:3000']);
  });

  it('uses ./prompt-optimizer-keys.txt when it exists and nothing else is given', async () => {
    const { io } = memoryIo(dir);
    assert.equal(await keysCommand.run(['create'], io), 0);
    assert.equal(resolveServeConfig([], {}, dir).config.keysFile, join(dir, DEFAULT_KEYS_FILE));
  });

  it('refuses bad values naming the flag or variable', () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--port', '70000'], {}, /--port/],
      [['--workers', '0'], {}, /--workers/],
      [['--rate-limit=-1'], {}, /--rate-limit/],
      [['--log-level', 'loud'], {}, /--log-level/],
      [[], { PROMPT_OPTIMIZER_BODY_LIMIT: '1MB' }, /PROMPT_OPTIMIZER_BODY_LIMIT/],
      [[], { PROMPT_OPTIMIZER_API_KEY: 'sk-123' }, /PROMPT_OPTIMIZER_API_KEY is malformed/],
      [['--cors-origins', 'https://vscode.dev/path'], {}, /--cors-origins/],
    ];
    for (const [args, env, message] of cases) assert.throws(() => resolveServeConfig(args, env, dir), (e: Error) => e instanceof CliUsageError && message.test(e.message));
    assert.throws(() => resolveServeConfig(['--nope'], {}, dir), /nope/);
  });

  it('documents every flag and variable in serve --help', () => {
    for (const word of ['--host', '--port', '--keys-file', '--workers', '--max-queue', '--body-limit', '--max-input-tokens', '--rate-limit', '--task-timeout-ms', '--redis-url', '--cors-origins', '--dev-key', 'PROMPT_OPTIMIZER_API_KEY', 'PROMPT_OPTIMIZER_RATE_LIMIT']) {
      assert.ok(serveCommand.usage.includes(word), word);
    }
  });

  it('keys create/list/revoke on a keys file', async () => {
    const file = join(dir, 'cmd-keys.txt');
    const a = memoryIo(dir);
    assert.equal(await keysCommand.run(['create', '--test', '--note', 'laptop', '--keys-file', file], a.io), 0);
    const key = a.out().trim();
    assert.match(key, /^tk_test_[A-Za-z0-9_-]{43}$/);
    assert.ok(readFileSync(file, 'utf8').includes(hashKey(key)));
    assert.ok(!readFileSync(file, 'utf8').includes(key));
    assert.match(a.err(), /shown only this once/);
    const b = memoryIo(dir, { PROMPT_OPTIMIZER_KEYS_FILE: file });
    assert.equal(await keysCommand.run(['create'], b.io), 0);
    assert.match(b.out(), /^tk_live_/);
    const list = memoryIo(dir);
    await keysCommand.run(['list', '--keys-file', file], list.io);
    const lines = list.out().trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^[0-9a-f]{12}  test created=.* laptop$/);
    assert.equal(await keysCommand.run(['revoke', '--key', key, '--keys-file', file], memoryIo(dir).io), 0);
    assert.ok(!readFileSync(file, 'utf8').includes(hashKey(key)));
    await assert.rejects(keysCommand.run(['revoke', '--keys-file', file], memoryIo(dir).io), CliUsageError);
    await assert.rejects(keysCommand.run(['rotate'], memoryIo(dir).io), CliUsageError);
  });
});
