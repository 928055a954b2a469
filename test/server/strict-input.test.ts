/**
 * Input a front proxy could read differently, and answers that must keep the service's shape: echoed
 * values are capped and quoted, bad paths and CONNECT get the error body, a streamed over-limit body
 * still lets the client read its 413, and duplicate JSON keys, invalid UTF-8 and a repeated
 * Authorization header are refused instead of silently picking one reading.
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { assertError, call, parseRawResponse, rawExchange, startTestServer, stubPool, type TestServer } from './helpers';

describe('server: strict input', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimitBytes: 64 * 1024 }, { executor: stubPool() });
  });
  after(async () => {
    await server.close();
  });

  describe('echoed values', () => {
    it('caps a huge model name at 64 characters, quoted, with no raw markup', async () => {
      const answer = await call(server, '/optimize', { body: { text: 'hi', model: `<script>${'x'.repeat(60_000)}` } });
      assertError(answer, 400, 'model_unsupported', 'model');
      assert.ok(answer.text.length < 2_000, `error body of ${answer.text.length} characters`);
      assert.ok(!answer.json.error.message.includes('<script>'), answer.json.error.message);
      assert.match(answer.json.error.message, /"\\u003cscript\\u003exxx/);
    });

    it('caps a huge budget string and a huge content type', async () => {
      const budget = await call(server, '/optimize', { body: { text: 'hi', budget: `${'9'.repeat(5_000)}%` } });
      assertError(budget, 400, 'budget_invalid', 'budget');
      assert.ok(budget.json.error.message.length < 400, budget.json.error.message);
      assert.match(budget.json.error.message, /"9{64}…"/);
      const type = await call(server, '/optimize', { body: '{}', contentType: `text/${'y'.repeat(5_000)}` });
      assertError(type, 415, 'content_type_unsupported');
      assert.match(type.json.error.message, /"text\/y{59}…"/);
    });
  });

  describe('requests outside the routes', () => {
    it('answers a bad percent-escape in the path in the error shape, with a request id', async () => {
      const answer = await call(server, '/optimize%', { body: { text: 'hi' } });
      assertError(answer, 400, 'path_invalid');
    });

    it('answers CONNECT in the error shape', async () => {
      const { text } = await rawExchange(server.url, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
      const answer = parseRawResponse(text);
      assert.equal(answer.status, 405, text);
      assert.equal(JSON.parse(answer.body).error.code, 'method_not_allowed');
      assert.ok(answer.headers['x-request-id'], 'X-Request-Id');
    });
  });

  /** Streams a 4 MiB body on a raw socket, 64 KiB per write, until done or the socket fails; returns the status line and any socket error. */
  function streamBody(withLength: boolean): Promise<{ answer: string; error: string | null }> {
    const total = 4 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const frame = (data: Buffer) => (withLength ? data : Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]));
    const { port } = new URL(server.url);
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) });
      let text = '';
      let error: string | null = null;
      socket.on('data', (data) => (text += data));
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      socket.on('close', () => resolve({ answer: text.split('\r\n')[0] ?? '', error }));
      const length = withLength ? `Content-Length: ${total}` : 'Transfer-Encoding: chunked';
      socket.write(`POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`);
      let sent = 0;
      const writeMore = () => {
        while (sent < total && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(frame(chunk))) return void socket.once('drain', writeMore);
        }
        if (!socket.destroyed) socket.end(withLength ? '' : '0\r\n\r\n');
      };
      writeMore();
    });
  }

  for (const withLength of [true, false]) {
    it(`lets a client streaming a body over the limit finish and read the 413, with no broken pipe (${withLength ? 'Content-Length' : 'chunked'})`, async () => {
      // 4 MiB against a 64 KiB limit: far more than socket buffers hold, so the client is still writing when the 413 goes out.
      for (let trial = 0; trial < 5; trial++) {
        const { answer, error } = await streamBody(withLength);
        assert.equal(answer, 'HTTP/1.1 413 Payload Too Large');
        assert.equal(error, null, `the client's socket failed: ${error}`);
      }
    });
  }

  describe('one reading only', () => {
    it('refuses duplicate JSON keys (400 json_duplicate_key)', async () => {
      assertError(await call(server, '/optimize', { body: '{"text":"a","text":"b"}' }), 400, 'json_duplicate_key', 'text');
      assertError(await call(server, '/v1/optimize', { body: '{"prompt":"a","budget":5,"budget":500}' }), 400, 'json_duplicate_key', 'budget');
      // The same key in different objects is fine: only the body's own fields matter here.
      assert.equal((await call(server, '/optimize', { body: '{"text":"a"}' })).status, 200);
    });

    it('refuses a body that is not valid UTF-8 (400 encoding_invalid)', async () => {
      const body = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const response = await fetch(`${server.url}/optimize`, { method: 'POST', headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' }, body });
      const text = await response.text();
      assertError({ status: response.status, headers: response.headers, text, json: JSON.parse(text) }, 400, 'encoding_invalid');
    });

    it('refuses two Authorization headers (400 authorization_duplicate)', async () => {
      const body = '{"text":"hi"}';
      const { text } = await rawExchange(server.url, [
        `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nAuthorization: Bearer tk_live_${'A'.repeat(43)}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ]);
      const answer = parseRawResponse(text);
      assert.equal(answer.status, 400, text);
      assert.equal(JSON.parse(answer.body).error.code, 'authorization_duplicate');
    });
  });
});
