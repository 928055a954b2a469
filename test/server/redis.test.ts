/**
 * Two instances sharing rate-limit counters in a real redis-server (installed by
 * scripts/setup-redis-test.sh, started here on a free loopback port): one shared limit, a Redis outage
 * answered 503 rate_limit_unavailable with readiness 503 (never a 500), and recovery after Redis comes
 * back without restarting the service.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { generateKey, hashKey, keyId } from '../../src/server/keys';
import { REDIS_PREFIX } from '../../src/server/redis';
import { assertError, call, sleep, startTestServer, stubPool, type TestServer } from './helpers';

const REDIS_SERVER = ['redis-server', '/usr/bin/redis-server', '/usr/sbin/redis-server'].find((bin) => spawnSync(bin, ['--version']).status === 0);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on 127.0.0.1:port, no persistence; resolves when it accepts connections. */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Polls until `check` holds (event-like: no timing assertion, only a generous overall limit). */
async function until(what: string, check: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('server: two instances sharing Redis', function () {
  this.timeout(120_000);
  let port: number;
  let redis: ChildProcess;
  let a: TestServer;
  let b: TestServer;
  const shared = generateKey('live');

  before(async function () {
    if (!REDIS_SERVER) {
      console.log('    (skipped: redis-server is not installed and scripts/setup-redis-test.sh could not install it)');
      this.skip();
    }
    port = await freePort();
    redis = await startRedis(port);
    const config = { redisUrl: `redis://127.0.0.1:${port}`, rateLimitMax: 5, rateLimitWindowMs: 60_000, extraKeys: [shared] };
    a = await startTestServer(config, { executor: stubPool() });
    b = await startTestServer(config, { executor: stubPool() });
    for (const server of [a, b]) await until('readiness', async () => (await call(server, '/readyz')).status === 200);
  });

  after(async () => {
    await a?.close();
    await b?.close();
    if (redis) await stopRedis(redis);
  });

  it('counts one limit for a key across both instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 ? b : a, '/optimize', { body: { text: 'hi' }, key: shared })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assertError(await call(a, '/optimize', { body: { text: 'hi' }, key: shared }), 429, 'rate_limited');
    assert.equal((await call(b, '/optimize', { body: { text: 'hi' } })).status, 200, "another key has its own count");
  });

  it('names counters by the short key id, never the full SHA-256 of a key', async () => {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
    try {
      await client.connect();
      const names = await client.keys(`${REDIS_PREFIX}*`);
      assert.ok(names.length > 0, 'counters exist');
      const hash = hashKey(shared);
      assert.ok(names.includes(`${REDIS_PREFIX}${keyId(hash)}`), names.join(', '));
      for (const name of names) assert.ok(!name.includes(hash.slice(0, 13)), `${name} carries more of the hash than the key id`);
    } finally {
      client.disconnect();
    }
  });

  it('answers 503 rate_limit_unavailable with Retry-After while Redis is down, readiness 503, liveness 200', async () => {
    await stopRedis(redis);
    for (const server of [a, b]) {
      await until('readiness 503', async () => (await call(server, '/readyz')).status === 503);
      const answer = await call(server, '/optimize', { body: { text: 'hi' } });
      assertError(answer, 503, 'rate_limit_unavailable');
      assert.equal(answer.headers.get('retry-after'), '1');
      assertError(await call(server, '/readyz'), 503, 'rate_limit_unavailable');
      assert.equal((await call(server, '/healthz')).status, 200);
      assert.ok(!server.logs.some((line) => line.status === 500), 'no 500 answered');
      assert.ok(server.logs.some((line) => line.msg === 'redis state' && line.redis === 'down'), 'a structured "redis down" line');
      assert.ok(!server.logText().includes('Unhandled error event'));
    }
  });

  it('recovers when Redis is back, without a restart', async () => {
    redis = await startRedis(port);
    for (const server of [a, b]) {
      await until('readiness 200', async () => (await call(server, '/readyz')).status === 200);
      assert.equal((await call(server, '/optimize', { body: { text: 'hi' } })).status, 200);
      assert.ok(server.logs.some((line) => line.msg === 'redis state' && line.redis === 'ready'));
    }
  });
});
