/**
 * Limits and operation over real HTTP: per-key rate limit (429 + Retry-After + RateLimit-*), slow
 * clients (header and request timeouts), the cap on queued work (fast 503), the per-request time limit
 * in the worker pool, and graceful close with a request in flight.
 */
import { strict as assert } from 'node:assert';
import { generateKey } from '../../src/server/keys';
import { NoWorkerError, PoolExecutor, type Executor } from '../../src/server/executor';
import { assertError, call, parseRawResponse, rawExchange, sleep, SLOW_START_WORKER, SLOW_WORKER, startTestServer, stubPool, type TestServer } from './helpers';

describe('server: limits and operation', function () {
  describe('rate limit per key', () => {
    let server: TestServer;
    const other = generateKey('live');
    before(async () => {
      server = await startTestServer({ rateLimitMax: 3, rateLimitWindowMs: 60_000, extraKeys: [other] }, { executor: stubPool() });
    });
    after(async () => {
      await server.close();
    });

    it('counts down in RateLimit-* headers, then answers 429 with Retry-After; other keys are unaffected', async () => {
      for (const remaining of [2, 1, 0]) {
        const answer = await call(server, '/optimize', { body: { text: 'hello' } });
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.get('ratelimit-limit'), '3');
        assert.equal(answer.headers.get('ratelimit-remaining'), String(remaining));
        assert.ok(Number(answer.headers.get('ratelimit-reset')) > 0);
      }
      const limited = await call(server, '/v1/optimize', { body: { prompt: 'hello' } });
      assertError(limited, 429, 'rate_limited', null);
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(limited.headers.get('ratelimit-limit'), '3');
      assert.equal(limited.headers.get('ratelimit-remaining'), '0');
      assert.ok(Number(limited.headers.get('ratelimit-reset')) > 0);

      const fresh = await call(server, '/optimize', { body: { text: 'hello' }, key: other });
      assert.equal(fresh.status, 200);
      assert.equal(fresh.headers.get('ratelimit-remaining'), '2');
      // Health checks are never limited.
      assert.equal((await call(server, '/healthz')).status, 200);
    });

    it('resets after the window', async () => {
      const quick = await startTestServer({ rateLimitMax: 1, rateLimitWindowMs: 300 }, { executor: stubPool() });
      try {
        assert.equal((await call(quick, '/optimize', { body: { text: 'a' } })).status, 200);
        assertError(await call(quick, '/optimize', { body: { text: 'a' } }), 429, 'rate_limited');
        await sleep(400);
        assert.equal((await call(quick, '/optimize', { body: { text: 'a' } })).status, 200);
      } finally {
        await quick.close();
      }
    });
  });

  describe('slow clients', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 }, { executor: stubPool() });
    });
    after(async () => {
      await server.close();
    });

    it('closes a client that never finishes its headers with 408 request_timeout', async () => {
      const { text, closedAfterMs } = await rawExchange(server.url, ['POST /optimize HTTP/1.1\r\nHost: x\r\n', 2000]);
      const parsed = parseRawResponse(text);
      assert.equal(parsed.status, 408);
      assert.equal(JSON.parse(parsed.body).error.code, 'request_timeout');
      assert.ok(closedAfterMs < 2000, `closed after ${closedAfterMs} ms, not before the client would have gone on`);
    });

    it('closes a client that sends its body too slowly with 408 request_timeout', async () => {
      const body = JSON.stringify({ text: 'hello world' });
      const { text, closedAfterMs } = await rawExchange(server.url, [
        `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body.slice(0, 5),
        3000,
        body.slice(5),
      ]);
      assert.ok(closedAfterMs < 3000, `closed after ${closedAfterMs} ms, not before the client would have sent the rest`);
      const parsed = parseRawResponse(text);
      assert.equal(parsed.status, 408);
      assert.equal(JSON.parse(parsed.body).error.type, 'invalid_request_error');
    });

    it('keeps serving other clients meanwhile', async () => {
      const slow = rawExchange(server.url, ['POST /optimize HTTP/1.1\r\nHost: x\r\n', 2000]);
      const answer = await call(server, '/optimize', { body: { text: 'hello' } });
      assert.equal(answer.status, 200);
      await slow;
    });
  });

  describe('worker pool: capacity and per-request time limit', () => {
    it('answers 503 overloaded at once when workers and queue are full, and recovers', async () => {
      const server = await startTestServer({ maxQueue: 1 }, { executor: new PoolExecutor({ workers: 1, maxQueue: 1, filename: SLOW_WORKER }) });
      try {
        let slowAnswered = false;
        const slow = [call(server, '/optimize', { body: { text: 'sleep:2000' } }), call(server, '/optimize', { body: { text: 'sleep:2000' } })].map((answer) =>
          answer.then((a) => ((slowAnswered = true), a)),
        );
        await sleep(100);
        const refused = await call(server, '/optimize', { body: { text: 'sleep:600' } });
        assertError(refused, 503, 'overloaded', null);
        assert.equal(refused.headers.get('retry-after'), '1');
        // At once: while the two it could not queue behind are still running (an order, not a time).
        assert.equal(slowAnswered, false, 'the refusal came before either running request was answered');
        for (const answer of await Promise.all(slow)) assert.equal(answer.status, 200);
        assert.equal((await call(server, '/optimize', { body: { text: 'quick' } })).status, 200);
      } finally {
        await server.close();
      }
    });

    it('stops a compression over the time limit (503 processing_timeout) and replaces the worker', async () => {
      // Each thread takes 1.5 s to start, longer than the 1 s limit: if the replacement's start-up counted
      // against the next request, that request would fail however fast the machine is.
      const server = await startTestServer({ taskTimeoutMs: 1000 }, { executor: new PoolExecutor({ workers: 1, maxQueue: 4, filename: SLOW_START_WORKER }) });
      try {
        const before = await call(server, '/optimize', { body: { text: 'sleep:1' } });
        assert.equal(before.status, 200, before.text);
        assertError(await call(server, '/optimize', { body: { text: 'sleep:30000' } }), 503, 'processing_timeout', null);
        // Sent at once, while the replacement is still starting: its start-up is not this request's.
        const next = await call(server, '/optimize', { body: { text: 'sleep:10' } });
        assert.equal(next.status, 200, next.text);
        assert.notEqual(threadOf(next.json.optimized_text), threadOf(before.json.optimized_text), 'a new worker thread');
      } finally {
        await server.close();
      }
    });

    it('starts the replacement worker as soon as one is stopped, before any request needs it', async () => {
      const executor = new PoolExecutor({ workers: 1, maxQueue: 4, filename: SLOW_START_WORKER });
      const server = await startTestServer({ taskTimeoutMs: 1000 }, { executor });
      try {
        assert.equal(executor.startedThreads, 1);
        assertError(await call(server, '/optimize', { body: { text: 'sleep:30000' } }), 503, 'processing_timeout', null);
        assert.equal(executor.startedThreads, 0, 'the stopped thread is gone');
        // No request is sent: the replacement starts by itself (polled; no timing assertion).
        const end = Date.now() + 30_000;
        while (executor.startedThreads < 1 && Date.now() < end) await sleep(20);
        assert.equal(executor.startedThreads, 1, 'the replacement started without a request');
      } finally {
        await server.close();
      }
    });

    it('a worker that cannot start is not a hang: the pool gives up on it and the answer is 503 overloaded', async () => {
      const neverStarts: Executor = {
        threads: 1,
        run: () => Promise.reject(new Error('run without a started worker')),
        reserve: () => Promise.reject(new NoWorkerError('no worker started')),
        close: async () => {},
      };
      const server = await startTestServer({}, { executor: neverStarts });
      try {
        const answer = await call(server, '/optimize', { body: { text: 'hi' } });
        assertError(answer, 503, 'overloaded', null);
        assert.equal(answer.headers.get('retry-after'), '1');
      } finally {
        await server.close();
      }
    });

    it('the pool hands tasks only to started workers and gives up on a start-up after its limit (NoWorkerError)', async () => {
      const executor = new PoolExecutor({ workers: 1, maxQueue: 4, filename: SLOW_START_WORKER, startTimeoutMs: 100 });
      try {
        await executor.warmUp();
        const stop = new AbortController();
        await executor.reserve(stop.signal);
        const running = executor.run({ text: 'sleep:30000', maxInputTokens: 100 }, stop.signal);
        stop.abort();
        await assert.rejects(running, { name: 'AbortError' });
        // The stopped thread's replacement takes 1.5 s to start: longer than this pool's 100 ms limit.
        await assert.rejects(executor.reserve(new AbortController().signal), NoWorkerError);
        const end = Date.now() + 30_000;
        while (executor.startedThreads < 1 && Date.now() < end) await sleep(20);
        await executor.reserve(new AbortController().signal);
        const outcome = await executor.run({ text: 'sleep:1', maxInputTokens: 100 }, new AbortController().signal);
        assert.equal(outcome.ok, true);
      } finally {
        await executor.close();
      }
    });

    it('a large prompt in one worker does not stall requests served by another', async () => {
      const server = await startTestServer({}, { executor: new PoolExecutor({ workers: 2, maxQueue: 4, filename: SLOW_WORKER }) });
      try {
        let bigAnswered = false;
        const big = call(server, '/optimize', { body: { text: 'sleep:3000' } }).then((a) => ((bigAnswered = true), a));
        await sleep(50);
        assert.equal((await call(server, '/optimize', { body: { text: 'sleep:1' } })).status, 200);
        assert.equal((await call(server, '/healthz')).status, 200);
        assert.equal(bigAnswered, false, 'the small request was answered while the large one still ran');
        assert.equal((await big).status, 200);
      } finally {
        await server.close();
      }
    });
  });

  describe('clients that go away', () => {
    it('a disconnect does not stop a running task (no worker restart), and a waiting request is dropped', async () => {
      const server = await startTestServer({}, { executor: new PoolExecutor({ workers: 1, maxQueue: 4, filename: SLOW_WORKER }) });
      try {
        const first = await call(server, '/optimize', { body: { text: 'sleep:1' } });
        const thread = threadOf(first.json.optimized_text);
        const ran = tasksOf(first.json.optimized_text);
        const send = (text: string) => {
          const body = JSON.stringify({ text });
          return `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
        };
        // One running (300 ms) and one waiting, both abandoned after 100 ms.
        const { connect } = await import('node:net');
        const { hostname, port } = new URL(server.url);
        const sockets = ['sleep:300', 'sleep:300'].map((text) => {
          const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(send(text)));
          socket.on('error', () => {});
          return socket;
        });
        await sleep(100);
        for (const socket of sockets) socket.destroy();
        const next = await call(server, '/optimize', { body: { text: 'sleep:1' } });
        assert.equal(next.status, 200);
        assert.equal(threadOf(next.json.optimized_text), thread, 'same worker thread: it was not stopped');
        // The running task finished (one more), the waiting one never ran: counted, not timed.
        assert.equal(tasksOf(next.json.optimized_text), ran + 2, 'the abandoned waiting request must not run');
      } finally {
        await server.close();
      }
    });
  });

  describe('graceful close', () => {
    it('finishes a request in flight, then stops accepting connections', async () => {
      const server = await startTestServer({}, { executor: new PoolExecutor({ workers: 1, maxQueue: 4, filename: SLOW_WORKER }) });
      const inFlight = call(server, '/optimize', { body: { text: 'sleep:500' } });
      await sleep(100);
      const closing = server.close();
      const answer = await inFlight;
      assert.equal(answer.status, 200);
      assert.match(answer.json.optimized_text, /^sleep:500@\d+#\d+$/);
      await closing;
      await assert.rejects(fetch(`${server.url}/healthz`));
    });

    it('serves a request that completes its headers while draining, and ends its connection', async () => {
      const server = await startTestServer({}, { executor: stubPool() });
      const busy = call(server, '/optimize', { body: { text: 'sleep:600' } });
      // A connection that has sent half its headers when close() begins, and the rest after.
      const body = JSON.stringify({ text: 'late' });
      const exchange = rawExchange(server.url, [
        `POST /optimize HTTP/1.1\r\nHost: x\r\n`,
        250,
        `Authorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ]);
      await sleep(100);
      const closing = server.close();
      const { text } = await exchange;
      assert.equal((await busy).status, 200);
      await closing;
      const answer = parseRawResponse(text);
      assert.equal(answer.status, 200, text);
      assert.equal(answer.headers.connection, 'close');
    });
  });
});

/** The slow worker's answer `<input>@<thread>#<tasks>`: which thread ran it, and how many tasks it had run. */
const threadOf = (text: string): string => text.split('@')[1]!.split('#')[0]!;
const tasksOf = (text: string): number => Number(text.split('#')[1]);
