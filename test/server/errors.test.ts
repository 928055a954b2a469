/**
 * Every documented error, over real HTTP: status, the one JSON body shape, type, code, param and the
 * headers that go with it (WWW-Authenticate, Allow, Accept-Post).
 */
import { strict as assert } from 'node:assert';
import { assertError, call, rawExchange, parseRawResponse, startTestServer, type TestServer } from './helpers';
import type { Executor } from '../../src/server/executor';

describe('server: errors over HTTP', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimitBytes: 4096, maxInputTokens: 50 });
  });
  after(async () => {
    await server.close();
  });

  describe('400 invalid_request_error', () => {
    it('malformed or empty JSON: json_invalid', async () => {
      for (const body of ['{"text": "unterminated', '{text: 1}', 'nul', '{"text":"x",}', '\u0000']) {
        const answer = await call(server, '/optimize', { body });
        assertError(answer, 400, 'json_invalid', null);
        assert.ok(!answer.text.includes('unterminated'), 'the body is not echoed');
      }
      assertError(await call(server, '/v1/optimize', { body: '' }), 400, 'json_invalid', null);
    });

    it('a body that is not an object: body_invalid', async () => {
      for (const body of ['[]', '"text"', '42', 'null', 'true']) assertError(await call(server, '/optimize', { body }), 400, 'body_invalid', null);
    });

    it('a missing required field: param_missing naming it', async () => {
      assertError(await call(server, '/optimize', { body: {} }), 400, 'param_missing', 'text');
      assertError(await call(server, '/optimize', { body: { budget: 5 } }), 400, 'param_missing', 'text');
      assertError(await call(server, '/v1/optimize', { body: { budget: 5 } }), 400, 'param_missing', 'prompt');
    });

    it('an unknown field: param_unknown naming it', async () => {
      assertError(await call(server, '/v1/optimize', { body: { prompt: 'x', text: 'y' } }), 400, 'param_unknown', 'text');
      assertError(await call(server, '/optimize', { body: { text: 'x', mode: 'strict' } }), 400, 'param_unknown', 'mode');
    });

    it('wrongly typed fields name the param', async () => {
      const cases: [string, unknown, string, string][] = [
        ['/v1/optimize', { prompt: 5 }, 'text_invalid', 'prompt'],
        ['/v1/optimize', { prompt: null }, 'text_invalid', 'prompt'],
        ['/v1/optimize', { prompt: 'x', budget: true }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', budget: ['500'] }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', mode: 1 }, 'mode_invalid', 'mode'],
        ['/optimize', { text: ['x'] }, 'text_invalid', 'text'],
        ['/optimize', { text: 'x', task: 7 }, 'task_invalid', 'task'],
        ['/optimize', { text: 'x', model: 42 }, 'model_unsupported', 'model'],
        ['/optimize', { text: 'x', budget: true }, 'budget_invalid', 'budget'],
        ['/optimize', { text: 'x', budget: null }, 'budget_invalid', 'budget'],
      ];
      for (const [path, body, code, param] of cases) assertError(await call(server, path, { body }), 400, code, param);
    });

    it('invalid budget, mode or model values name the param', async () => {
      const cases: [string, unknown, string, string][] = [
        ['/v1/optimize', { prompt: 'x', budget: 0 }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', budget: -5 }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', budget: 1.5 }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', budget: 10_000_001 }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', budget: '40%' }, 'budget_invalid', 'budget'],
        ['/v1/optimize', { prompt: 'x', mode: 'fast' }, 'mode_invalid', 'mode'],
        ['/optimize', { text: 'x', budget: '150%' }, 'budget_invalid', 'budget'],
        ['/optimize', { text: 'x', budget: '0%' }, 'budget_invalid', 'budget'],
        ['/optimize', { text: 'x', budget: 'half' }, 'budget_invalid', 'budget'],
        ['/optimize', { text: 'x', budget: 0 }, 'budget_invalid', 'budget'],
        ['/optimize', { text: 'x', model: 'llama-3' }, 'model_unsupported', 'model'],
        ['/optimize', { text: 'x', model: '' }, 'model_unsupported', 'model'],
      ];
      for (const [path, body, code, param] of cases) assertError(await call(server, path, { body }), 400, code, param);
    });

    it('text over the token limit: text_too_long', async () => {
      const long = 'word '.repeat(200);
      assertError(await call(server, '/optimize', { body: { text: long } }), 400, 'text_too_long', 'text');
      assertError(await call(server, '/v1/optimize', { body: { prompt: long } }), 400, 'text_too_long', 'prompt');
    });

    it('a forbidden __proto__ key is refused', async () => {
      const answer = await call(server, '/optimize', { body: '{"text":"x","__proto__":{"polluted":1}}' });
      assert.equal(answer.status, 400);
      assertError(answer, 400, answer.json.error.code);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });

  describe('401 authentication_error with WWW-Authenticate: Bearer', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['no Authorization header', {}, 'key_missing'],
      ['an empty header', { authorization: '' }, 'key_missing'],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'key_malformed'],
      ['Bearer without a key', { authorization: 'Bearer' }, 'key_malformed'],
      ['a short key', { authorization: 'Bearer tk_live_short' }, 'key_malformed'],
      ['31 characters after the prefix', { authorization: `Bearer tk_live_${'a'.repeat(31)}` }, 'key_malformed'],
      ['a wrong prefix', { authorization: `Bearer sk_live_${'a'.repeat(40)}` }, 'key_malformed'],
      ['characters outside the URL-safe alphabet', { authorization: `Bearer tk_live_${'a'.repeat(39)}+` }, 'key_malformed'],
      ['an unknown well-formed key', { authorization: `Bearer tk_live_${'a'.repeat(43)}` }, 'key_invalid'],
    ];
    for (const [label, headers, code] of cases) {
      it(`${label}: ${code}`, async () => {
        for (const path of ['/optimize', '/v1/optimize']) {
          const answer = await call(server, path, { body: { text: 'x' }, key: null, headers });
          assertError(answer, 401, code, null);
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer realm="prompt-optimizer"/);
        }
      });
    }

    it('checks the key before the body (a bad body with a bad key is a 401)', async () => {
      assertError(await call(server, '/optimize', { body: '{broken', key: null }), 401, 'key_missing');
    });

    it('accepts the scheme in any case', async () => {
      const answer = await call(server, '/optimize', { body: { text: 'hello' }, key: null, headers: { authorization: `bearer ${server.key}` } });
      assert.equal(answer.status, 200);
    });
  });

  describe('404, 405, 413, 415', () => {
    it('404 not_found for unknown paths, before reading any body', async () => {
      assertError(await call(server, '/nope', { key: null }), 404, 'not_found', null);
      assertError(await call(server, '/v2/optimize', { body: '{broken' }), 404, 'not_found', null);
      assertError(await call(server, '/optimize/', { body: { text: 'x' } }), 404, 'not_found', null);
    });

    it('405 method_not_allowed with Allow', async () => {
      const cases: [string, string, string][] = [
        ['GET', '/v1/optimize', 'POST'],
        ['PUT', '/optimize', 'POST'],
        ['DELETE', '/optimize', 'POST'],
        ['PATCH', '/v1/optimize', 'POST'],
        ['OPTIONS', '/optimize', 'POST'],
        ['POST', '/healthz', 'GET, HEAD'],
        ['DELETE', '/openapi.json', 'GET, HEAD'],
      ];
      for (const [method, path, allow] of cases) {
        const answer = await call(server, path, { method });
        assertError(answer, 405, 'method_not_allowed', null);
        assert.equal(answer.headers.get('allow'), allow);
      }
    });

    it('413 body_too_large over the body limit, with or without Content-Length', async () => {
      assertError(await call(server, '/optimize', { body: { text: 'x'.repeat(5000) } }), 413, 'body_too_large', null);
      assertError(await call(server, '/v1/optimize', { body: `prompt=${'x'.repeat(5000)}`, contentType: 'application/x-www-form-urlencoded' }), 413, 'body_too_large', null);
      const chunk = JSON.stringify({ text: 'y'.repeat(5000) });
      const raw = await rawExchange(server.url, [
        `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
      ]);
      const parsed = parseRawResponse(raw.text);
      assert.equal(parsed.status, 413);
      assert.equal(JSON.parse(parsed.body).error.code, 'body_too_large');
    });

    it('415 content_type_unsupported with Accept-Post', async () => {
      const cases: [string, string | null][] = [
        ['/optimize', 'text/plain'],
        ['/optimize', 'application/x-www-form-urlencoded'],
        ['/optimize', null],
        ['/v1/optimize', 'text/plain'],
        ['/v1/optimize', 'multipart/form-data; boundary=x'],
        ['/v1/optimize', 'application/xml'],
      ];
      for (const [path, contentType] of cases) {
        const answer = await call(server, path, { body: 'text=x', contentType });
        assertError(answer, 415, 'content_type_unsupported', null);
        assert.ok(answer.headers.get('accept-post')?.includes('application/json'));
      }
    });
  });

  describe('malformed HTTP', () => {
    it('400 body_invalid for a request that is not HTTP, 431 for oversized headers; JSON either way', async () => {
      const garbage = parseRawResponse((await rawExchange(server.url, ['NOT HTTP AT ALL\r\n\r\n'])).text);
      assert.equal(garbage.status, 400);
      assert.deepEqual(Object.keys(JSON.parse(garbage.body).error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(JSON.parse(garbage.body).error.code, 'body_invalid');
      const big = parseRawResponse((await rawExchange(server.url, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`])).text);
      assert.equal(big.status, 431);
      assert.equal(JSON.parse(big.body).error.type, 'invalid_request_error');
      assert.equal((await call(server, '/healthz')).status, 200);
    });
  });

  describe('500 api_error', () => {
    it('never leaks a stack trace or internal message, and logs the failure', async () => {
      const failing: Executor = {
        threads: 1,
        run: async () => {
          throw new Error('database password is hunter2 (internal detail)');
        },
        close: async () => {},
      };
      const broken = await startTestServer({}, { executor: failing });
      try {
        const answer = await call(broken, '/optimize', { body: { text: 'x' } });
        assertError(answer, 500, 'internal_error', null);
        assert.ok(!answer.text.includes('hunter2'));
        assert.ok(!/at .*\.ts:\d+/.test(answer.text));
        assert.ok(broken.logText().includes('request failed'));
      } finally {
        await broken.close();
      }
    });
  });
});
