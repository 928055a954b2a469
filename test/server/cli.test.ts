/**
 * `prompt-optimizer serve` and `keys` as real processes, from a bundle built like dist/ (cli.js plus
 * server-worker.js next to it): start-up, keys from file/env/--dev-key, SIGHUP reload without exiting,
 * and SIGTERM with requests in flight (each gets an answer, then the process exits 0).
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API_KEY_PATTERN } from '../../src/schemas/index';
import { generateKey, hashKey } from '../../src/server/keys';
import { request as httpRequest } from 'node:http';
import { parseRawResponse, rawExchange, sleep, wordyPrompt } from './helpers';

const ROOT = resolve(__dirname, '../..');

/** Builds the CLI and the worker like esbuild.mjs does, into a private folder under .tmp/ (so `piscina` resolves from node_modules). */
async function buildBundle(): Promise<string> {
  const esbuild = await import('esbuild');
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.tmp', 'po-server-'));
  const common = { bundle: true, format: 'cjs' as const, platform: 'node' as const, target: 'node20', logLevel: 'error' as const };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: join(dir, 'cli.js'), external: ['piscina'] }),
    esbuild.build({ ...common, entryPoints: [join(ROOT, 'src/server/worker.ts')], outfile: join(dir, 'server-worker.js') }),
  ]);
  return dir;
}

interface Serving {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function serve(cli: string, args: string[], env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--workers', '1', ...args], {
    cwd: ROOT,
    env: { ...process.env, PROMPT_OPTIMIZER_API_KEY: '', PROMPT_OPTIMIZER_KEYS_FILE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 15 s\n${out}\n${err}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolvePromise({ child, url: JSON.parse(line).url, stdout: () => out, stderr: () => err, exited });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening\n${out}\n${err}`));
    });
  });
}

function keysCli(cli: string, args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'keys', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PROMPT_OPTIMIZER_KEYS_FILE: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const optimizeCall = (url: string, key: string, text = 'Please summarize this.') =>
  fetch(`${url}/optimize`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

describe('server: serve and keys commands (real processes)', function () {
  this.timeout(60_000);
  let dir: string;
  let cli: string;
  before(async () => {
    dir = await buildBundle();
    cli = join(dir, 'cli.js');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keys create prints a key once and stores only its hash; list and revoke work', () => {
    const file = join(dir, 'k1.txt');
    const created = keysCli(cli, ['create', '--test', '--note', 'ci', '--keys-file', file]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^tk_test_/);
    assert.match(key, API_KEY_PATTERN);
    assert.ok(!readFileSync(file, 'utf8').includes(key));
    const listed = keysCli(cli, ['list', '--keys-file', file]);
    assert.equal(listed.stdout.trim().split('\n').length, 1);
    const id = listed.stdout.split(/\s+/)[0]!;
    assert.equal(keysCli(cli, ['revoke', id, '--keys-file', file]).code, 0);
    assert.equal(keysCli(cli, ['revoke', id, '--keys-file', file]).code, 1);
  });

  it('a keys file others can read (0644): serve warns with its mode, keys create sets it to 0600', async () => {
    const file = join(dir, 'k-loose.txt');
    const key = generateKey('live');
    writeFileSync(file, `sha256:${hashKey(key)}\n`);
    chmodSync(file, 0o644);
    const server = await serve(cli, ['--keys-file', file]);
    try {
      const warning = server
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.mode !== undefined);
      assert.ok(warning, server.stdout());
      assert.equal(warning.level, 40, 'a warning');
      assert.equal(warning.mode, '0644');
      assert.match(warning.msg, /chmod 600/);
      assert.equal((await optimizeCall(server.url, key)).status, 200, 'the keys still work');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const created = keysCli(cli, ['create', '--keys-file', file]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /from 0644 to 0600/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('refuses bad settings with exit 2 before starting, without echoing a key', () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [cli, 'serve', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PROMPT_OPTIMIZER_API_KEY: '', ...env }, timeout: 10_000 });
    const badPort = run(['--port', 'eighty']);
    assert.equal(badPort.status, 2);
    assert.match(badPort.stderr, /--port/);
    const badKey = run([], { PROMPT_OPTIMIZER_API_KEY: 'tk_live_tooshort' });
    assert.equal(badKey.status, 2);
    assert.ok(!badKey.stderr.includes('tooshort'), 'the key is not echoed');
  });

  it('serves with keys from the file, the env var and --dev-key; SIGHUP reloads without exiting', async () => {
    const file = join(dir, 'k2.txt');
    const fileKey = keysCli(cli, ['create', '--keys-file', file]).stdout.trim();
    const envKey = generateKey('test');
    const server = await serve(cli, ['--keys-file', file, '--dev-key'], { PROMPT_OPTIMIZER_API_KEY: envKey });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const devKey = /(tk_test_[A-Za-z0-9_-]{32,})/.exec(server.stderr())?.[1];
      assert.ok(devKey, server.stderr());
      for (const key of [fileKey, envKey, devKey]) assert.equal((await optimizeCall(server.url, key)).status, 200);
      assert.equal((await optimizeCall(server.url, generateKey('live'))).status, 401);

      const id = keysCli(cli, ['list', '--keys-file', file]).stdout.split(/\s+/)[0]!;
      assert.equal(keysCli(cli, ['revoke', id, '--keys-file', file]).code, 0);
      server.child.kill('SIGHUP');
      await sleep(300);
      assert.equal((await optimizeCall(server.url, fileKey)).status, 401);
      assert.equal((await optimizeCall(server.url, envKey)).status, 200, 'still running after SIGHUP');
      assert.ok(server.stdout().includes('keys reloaded'));
      const logs = server.stdout();
      for (const key of [fileKey, envKey, devKey]) assert.ok(!logs.includes(key), 'a key in the logs');
      assert.ok(!logs.includes('Please summarize'), 'prompt text in the logs');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, refuses new connections and exits 0', async () => {
    const key = generateKey('test');
    const server = await serve(cli, [], { PROMPT_OPTIMIZER_API_KEY: key });
    const body = JSON.stringify({ text: 'Please could you kindly summarize the following text for me, thanks.' });
    // Headers and half the body now; SIGTERM; the rest of the body later on the same connection.
    const exchange = rawExchange(server.url, [
      `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      body.slice(0, 20),
      400,
      body.slice(20),
    ]);
    await sleep(150);
    server.child.kill('SIGTERM');
    await sleep(100);
    await assert.rejects(fetch(`${server.url}/healthz`), 'new connections are refused while closing');
    const { text } = await exchange;
    const answer = parseRawResponse(text);
    assert.equal(answer.status, 200, text);
    assert.equal(typeof JSON.parse(answer.body).optimized_text, 'string');
    assert.equal(await server.exited, 0);
    assert.ok(server.stdout().includes('shutting down'));
  });
  it('on SIGTERM with 100 requests in flight answers every one (200 or 503 shutting_down) and exits 0, in 20 trials', async function () {
    this.timeout(400_000);
    const key = generateKey('test');
    // Far more work than the grace period allows on any machine: 100 prompts of ~25k tokens, one worker.
    const body = JSON.stringify({ text: wordyPrompt(20_000) });
    for (let trial = 0; trial < 20; trial++) {
      const server = await serve(cli, ['--shutdown-grace-ms', '500', '--rate-limit', '100000', '--task-timeout-ms', '600000'], { PROMPT_OPTIMIZER_API_KEY: key });
      const sent: Promise<void>[] = [];
      const answers = Array.from({ length: 100 }, () => postAndRead(server.url, key, body, sent));
      await Promise.all(sent);
      server.child.kill('SIGTERM');
      const results = await Promise.all(answers);
      const unanswered = results.filter((r) => r.status === 0).length;
      assert.equal(unanswered, 0, `trial ${trial}: ${unanswered} of 100 got no answer`);
      for (const r of results) {
        if (r.status !== 200) assert.deepEqual([r.status, r.code, r.retryAfter], [503, 'shutting_down', '1']);
      }
      assert.equal(await server.exited, 0, server.stdout().slice(-500));
    }
  });
});

/** POSTs over a fresh connection; `sent` gets a promise for when the whole request was handed to the kernel. Status 0: no answer. */
function postAndRead(url: string, key: string, body: string, sent: Promise<void>[]): Promise<{ status: number; code?: string; retryAfter?: string }> {
  return new Promise((resolvePromise) => {
    const req = httpRequest(`${url}/optimize`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, code: res.statusCode === 200 ? undefined : JSON.parse(text).error.code, retryAfter: res.headers['retry-after'] }));
      res.on('error', () => resolvePromise({ status: 0 }));
    });
    req.on('error', () => resolvePromise({ status: 0 }));
    sent.push(new Promise((done) => req.once('finish', () => done())));
    req.end(body);
  });
}
