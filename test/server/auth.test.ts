/**
 * Keys: format, hashing, the keys file, and revocation/addition picked up by a running server without a
 * restart (file watch and explicit reload, which SIGHUP triggers; the signal itself is tested in cli.test.ts).
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_PATTERN } from '../../src/schemas/index';
import { createKeyInFile, generateKey, hashKey, KeyStore, keyId, parseKeysFile, revokeInFile } from '../../src/server/keys';
import { assertError, call, sleep, startTestServer, stubPool, type TestServer } from './helpers';

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`condition not met within ${timeoutMs} ms`);
}

describe('server: keys and auth', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'po-keys-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('key format and storage', () => {
    it('generates tk_live_/tk_test_ keys with 43 URL-safe random characters, all different', () => {
      const keys = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const key = generateKey(i % 2 ? 'live' : 'test');
        assert.match(key, API_KEY_PATTERN);
        assert.match(key, /^tk_(live|test)_[A-Za-z0-9_-]{43}$/);
        keys.add(key);
      }
      assert.equal(keys.size, 200);
    });

    it('hashes with SHA-256', () => {
      assert.equal(hashKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      assert.equal(keyId(hashKey('abc')), 'ba7816bf8f01');
    });

    it('writes only the hash to the keys file, mode 0600, and parses it back', () => {
      const file = join(dir, 'store.txt');
      const a = createKeyInFile(file, 'live', 'note for a');
      const b = createKeyInFile(file, 'test', '');
      const text = readFileSync(file, 'utf8');
      assert.ok(!text.includes(a.key) && !text.includes(a.key.slice(8)));
      assert.ok(text.includes(`sha256:${a.hash}`) && text.includes('note for a'));
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const { entries, badLines } = parseKeysFile(`${text}\nnot a hash line\n  # comment\n`);
      assert.deepEqual(entries.map((e) => e.hash), [a.hash, b.hash]);
      assert.equal(badLines.length, 1);
      assert.equal(revokeInFile(file, { prefix: keyId(a.hash) }), 1);
      assert.equal(revokeInFile(file, { key: b.key }), 1);
      assert.deepEqual(parseKeysFile(readFileSync(file, 'utf8')).entries, []);
      assert.throws(() => revokeInFile(file, { prefix: 'abc' }));
    });

    it('keys create sets an existing keys file that others can read (0644) to 0600, and says it did', () => {
      const file = join(dir, 'loose.txt');
      writeFileSync(file, `sha256:${'b'.repeat(64)}\n`);
      chmodSync(file, 0o644);
      const created = createKeyInFile(file, 'live', '');
      assert.equal(created.fixedMode, '0644');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(createKeyInFile(file, 'live', '').fixedMode, null, 'nothing to fix the second time');
      assert.equal(parseKeysFile(readFileSync(file, 'utf8')).entries.length, 3);
    });

    it('warns (mode only, no content) when the keys file others can read (0644) is loaded, and not once it is 0600', () => {
      const file = join(dir, 'loose-serve.txt');
      writeFileSync(file, `sha256:${'c'.repeat(64)}\n`);
      chmodSync(file, 0o644);
      const warnings: [object, string][] = [];
      const store = new KeyStore(file);
      store.setLog({ info() {}, warn: (object, message) => warnings.push([object, message]) });
      assert.equal(store.size, 1);
      assert.equal(warnings.length, 1);
      assert.deepEqual(warnings[0]![0], { file, mode: '0644' });
      assert.match(warnings[0]![1], /chmod 600/);
      chmodSync(file, 0o600);
      store.reload();
      assert.equal(warnings.length, 1, 'no warning for a 0600 file');
      assert.equal(statSync(file).mode & 0o777, 0o600);
    });

    it('verifies against every stored hash and fails closed without a keys file', () => {
      const extra = generateKey('test');
      const store = new KeyStore(join(dir, 'missing.txt'), [extra]);
      assert.equal(store.verify(extra), hashKey(extra));
      assert.equal(store.verify(generateKey('test')), null);
      assert.equal(store.size, 1);
      assert.throws(() => new KeyStore(undefined, ['tk_live_short']), /malformed/);
    });

    it('reports an unreadable keys file and bad lines in the log once one is attached (line numbers only)', () => {
      const file = join(dir, 'bad-lines.txt');
      writeFileSync(file, `sha256:${'a'.repeat(64)}\ntk_live_${'s'.repeat(40)}\n`, { mode: 0o600 });
      const warnings: [object, string][] = [];
      const store = new KeyStore(file);
      store.setLog({ info() {}, warn: (object, message) => warnings.push([object, message]) });
      assert.equal(store.size, 1);
      assert.deepEqual(warnings, [[{ file, badLines: [2] }, 'keys file lines ignored']]);
      assert.ok(!JSON.stringify(warnings).includes('sss'), 'the bad line itself (maybe a raw key) is not logged');
      const missing = new KeyStore(join(dir, 'nope.txt'));
      const seen: string[] = [];
      missing.setLog({ info() {}, warn: (_object, message) => seen.push(message) });
      assert.deepEqual(seen, ['keys file unreadable; no keys loaded from it']);
    });

    it('starts with a Redis URL out of the box; Redis unreachable means not ready and 503, never 500', async () => {
      // No redis-server on port 1: the instance listens, reports not ready, and refuses with 503.
      const server = await startTestServer({ redisUrl: 'redis://127.0.0.1:1' }, { executor: stubPool() });
      try {
        assertError(await call(server, '/readyz'), 503, 'rate_limit_unavailable');
        assert.equal((await call(server, '/healthz')).status, 200);
        const answer = await call(server, '/optimize', { body: { text: 'hi' } });
        assertError(answer, 503, 'rate_limit_unavailable');
        assert.equal(answer.headers.get('retry-after'), '1');
        assert.ok(!server.logText().includes('Unhandled error event'));
      } finally {
        await server.close();
      }
    });

    it('with --rate-limit-fail-open serves without a limit while Redis is unreachable, and stays ready', async () => {
      const server = await startTestServer({ redisUrl: 'redis://127.0.0.1:1', rateLimitFailOpen: true }, { executor: stubPool() });
      try {
        assert.equal((await call(server, '/optimize', { body: { text: 'hi' } })).status, 200);
        assert.equal((await call(server, '/readyz')).status, 200);
      } finally {
        await server.close();
      }
    });
  });

  describe('a running server', () => {
    let server: TestServer;
    let file: string;
    let first: { key: string; hash: string };
    before(async () => {
      file = join(dir, 'keys.txt');
      first = createKeyInFile(file, 'live', 'first');
      server = await startTestServer({ keysFile: file }, { executor: stubPool() });
    });
    after(async () => {
      await server.close();
    });

    it('accepts keys from the file and the configured key (the env-var path) together', async () => {
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' }, key: first.key })).status, 200);
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' } })).status, 200);
    });

    it('picks up a new key and a revocation from the file without a restart (file watch)', async () => {
      const second = createKeyInFile(file, 'test', 'second');
      await eventually(async () => (await call(server, '/optimize', { body: { text: 'hi' }, key: second.key })).status === 200);
      revokeInFile(file, { prefix: keyId(first.hash) });
      await eventually(async () => (await call(server, '/optimize', { body: { text: 'hi' }, key: first.key })).status === 401);
      assertError(await call(server, '/optimize', { body: { text: 'hi' }, key: first.key }), 401, 'key_invalid');
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' }, key: second.key })).status, 200);
      // The key given at start is not in the file and stays valid.
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' } })).status, 200);
    });

    it('reloads on demand (what SIGHUP does), and an emptied or deleted file revokes its keys', async () => {
      server.server.keys.close(); // no watcher: only the explicit reload can see the change
      const third = createKeyInFile(file, 'live', 'third');
      assert.equal(server.server.keys.reload(), 3);
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' }, key: third.key })).status, 200);
      writeFileSync(file, '# all revoked\n');
      server.server.keys.reload();
      assertError(await call(server, '/optimize', { body: { text: 'hi' }, key: third.key }), 401, 'key_invalid');
      rmSync(file);
      assert.equal(server.server.keys.reload(), 1);
      assert.ok(server.logText().includes('keys reloaded'));
      assert.ok(!server.logText().includes(third.key));
    });
  });
});
