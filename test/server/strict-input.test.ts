/**
 * Input a front proxy could read differently, and answers that must keep the service's shape: echoed
 * values are capped and quoted, bad paths and CONNECT get the error body, a streamed over-limit body
 * still lets the client read its 413, and duplicate JSON keys, invalid UTF-8 and a repeated
 * Authorization header are refused instead of silently picking one reading.
 */
import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
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
      const budget = await call(server, '/optimize', { body: { text: 'hi', budget: `${'9'.repeat(300)}%` } });
      assertError(budget, 400, 'budget_invalid', 'budget');
      assert.ok(budget.json.error.message.length < 600, budget.json.error.message);
      const type = await call(server, '/optimize', { body: '{}', contentType: `text/${'y'.repeat(5_000)}` });
      assertError(type, 415, 'content_type_unsupported');
      assert.ok(type.json.error.message.length < 300, type.json.error.message);
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

  it('lets a client that streams a body over the limit read the 413', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/optimize`, { method: 'POST', headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      // Chunked, no Content-Length: 256 KiB in 16 KiB writes, four times the limit.
      let sent = 0;
      const writeMore = () => {
        while (sent < 16) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', writeMore);
        }
        req.end();
      };
      writeMore();
    });
    assert.equal(answer.status, 413, answer.body);
    assert.equal(JSON.parse(answer.body).error.code, 'body_too_large');
  });

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
