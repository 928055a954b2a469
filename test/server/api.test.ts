/**
 * Both API variants over real HTTP against the real server (worker pool included): fields, types,
 * defaults, percent budgets, soft limit, form bodies, headers, logs and concurrency. The optimized text
 * belongs to the core and changes; these tests assert shapes, invariants and that the server returns
 * what the core computes for the same input.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { countTokens, optimize, resolveBudget } from '../../src/core/index';
import { HealthResponse, VariantAResponse, VariantBResponse } from '../../src/schemas/index';
import { assertError, call, startTestServer, stubPool, wordyPrompt, type Answer, type TestServer } from './helpers';

const PROMPT = wordyPrompt(120);

function assertVariantA(answer: Answer, prompt: string): void {
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = answer.json;
  assert.deepEqual(Object.keys(body).sort(), ['latency_ms', 'stats', 'text']);
  assert.deepEqual(Object.keys(body.stats).sort(), ['optimized_tokens', 'original_tokens', 'reduction']);
  assert.ok(VariantAResponse.safeParse(body).success);
  assert.equal(typeof body.text, 'string');
  assert.equal(body.stats.original_tokens, countTokens(prompt, 'gpt-4o'));
  assert.equal(body.stats.optimized_tokens, countTokens(body.text, 'gpt-4o'));
  assert.ok(body.stats.optimized_tokens <= body.stats.original_tokens);
  const expected = body.stats.original_tokens === 0 ? 0 : ((body.stats.original_tokens - body.stats.optimized_tokens) / body.stats.original_tokens) * 100;
  assert.ok(Math.abs(body.stats.reduction - expected) <= 0.01, `reduction ${body.stats.reduction} vs ${expected}`);
  assert.ok(typeof body.latency_ms === 'number' && body.latency_ms >= 0);
  assert.ok(answer.headers.get('x-request-id'));
  assert.match(answer.headers.get('x-soft-limit-enforced') ?? '', /^(true|false)$/);
  assert.equal(answer.headers.get('x-tokenizer-encoding'), 'o200k_base');
}

function assertVariantB(answer: Answer, text: string, model = 'gpt-4o'): void {
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = answer.json;
  assert.deepEqual(Object.keys(body).sort(), ['latency_ms', 'optimized_text', 'optimized_tokens', 'original_tokens', 'reduction_percent', 'soft_limit_enforced']);
  assert.ok(VariantBResponse.safeParse(body).success);
  assert.equal(typeof body.optimized_text, 'string');
  assert.equal(body.original_tokens, countTokens(text, model));
  assert.equal(body.optimized_tokens, countTokens(body.optimized_text, model));
  assert.ok(body.optimized_tokens <= body.original_tokens);
  const expected = body.original_tokens === 0 ? 0 : ((body.original_tokens - body.optimized_tokens) / body.original_tokens) * 100;
  assert.ok(Math.abs(body.reduction_percent - expected) <= 0.01);
  assert.ok(typeof body.latency_ms === 'number' && body.latency_ms >= 0);
  assert.equal(typeof body.soft_limit_enforced, 'boolean');
}

describe('server: API variants over HTTP', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  describe('GET /healthz and /openapi.json', () => {
    it('answers health without a key', async () => {
      const answer = await call(server, '/healthz', { key: null });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json, { status: 'ok' });
      assert.ok(HealthResponse.safeParse(answer.json).success);
      const head = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
      assert.equal(head.status, 200);
    });

    it('serves the committed OpenAPI 3.1 document without a key', async () => {
      const answer = await call(server, '/openapi.json', { key: null });
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(answer.json, JSON.parse(readFileSync('openapi.json', 'utf8')));
      assert.equal(answer.json.openapi, '3.1.0');
    });
  });

  describe('Variant A: POST /v1/optimize', () => {
    it('returns exactly text, stats {original_tokens, optimized_tokens, reduction} and latency_ms', async () => {
      const answer = await call(server, '/v1/optimize', { body: { prompt: PROMPT, budget: 60, mode: 'relaxed' } });
      assertVariantA(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '60');
    });

    it('defaults to budget 1000 and mode relaxed, counted with gpt-4o, the same as the core', async () => {
      const answer = await call(server, '/v1/optimize', { body: { prompt: PROMPT } });
      assertVariantA(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '1000');
      const core = optimize({ text: PROMPT, budget: 1000, mode: 'relaxed', model: 'gpt-4o' });
      assert.equal(answer.json.text, core.text);
      assert.equal(answer.json.stats.reduction, core.reductionPercent);
    });

    it('honours strict mode: within budget unless the soft limit was enforced', async () => {
      for (const budget of [20, 50, 200]) {
        const answer = await call(server, '/v1/optimize', { body: { prompt: PROMPT, budget, mode: 'strict' } });
        assertVariantA(answer, PROMPT);
        const core = optimize({ text: PROMPT, budget, mode: 'strict', model: 'gpt-4o' });
        assert.equal(answer.json.text, core.text);
        assert.equal(answer.headers.get('x-soft-limit-enforced'), String(core.softLimitEnforced));
        if (answer.headers.get('x-soft-limit-enforced') === 'false') assert.ok(answer.json.stats.optimized_tokens <= budget);
      }
    });

    it('accepts application/x-www-form-urlencoded with budget as a decimal string', async () => {
      const form = new URLSearchParams({ prompt: PROMPT, budget: '60', mode: 'strict' }).toString();
      const answer = await call(server, '/v1/optimize', { body: form, contentType: 'application/x-www-form-urlencoded' });
      assertVariantA(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '60');
      const json = await call(server, '/v1/optimize', { body: { prompt: PROMPT, budget: 60, mode: 'strict' } });
      assert.equal(answer.json.text, json.json.text);
      assert.deepEqual(answer.json.stats, json.json.stats);
    });

    it('treats empty form fields as absent, and rejects a non-numeric or repeated form field', async () => {
      const empty = await call(server, '/v1/optimize', { body: 'prompt=hello+there&budget=&mode=', contentType: 'application/x-www-form-urlencoded; charset=utf-8' });
      assertVariantA(empty, 'hello there');
      assert.equal(empty.headers.get('x-budget-tokens'), '1000');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&budget=lots', contentType: 'application/x-www-form-urlencoded' }), 400, 'budget_invalid', 'budget');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&budget=1.5', contentType: 'application/x-www-form-urlencoded' }), 400, 'budget_invalid', 'budget');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&budget=2.0', contentType: 'application/x-www-form-urlencoded' }), 400, 'budget_invalid', 'budget');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&budget=0', contentType: 'application/x-www-form-urlencoded' }), 400, 'budget_invalid', 'budget');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&mode=fast', contentType: 'application/x-www-form-urlencoded' }), 400, 'mode_invalid', 'mode');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=hi&text=x', contentType: 'application/x-www-form-urlencoded' }), 400, 'param_unknown', 'text');
      assertError(await call(server, '/v1/optimize', { body: 'prompt=a&prompt=b', contentType: 'application/x-www-form-urlencoded' }), 400, 'text_invalid', 'prompt');
      assertError(await call(server, '/v1/optimize', { body: 'budget=5', contentType: 'application/x-www-form-urlencoded' }), 400, 'param_missing', 'prompt');
    });

    it('refuses a form budget with spaces (" 5 "), as the form schema\'s pattern ^\\d+$ says', async () => {
      for (const budget of [' 5 ', '5 ', '+5', '5e2']) {
        const form = new URLSearchParams({ prompt: 'hi', budget }).toString();
        assertError(await call(server, '/v1/optimize', { body: form, contentType: 'application/x-www-form-urlencoded' }), 400, 'budget_invalid', 'budget');
      }
    });

    it('accepts a charset parameter and an empty prompt', async () => {
      const answer = await call(server, '/v1/optimize', { body: { prompt: '' }, contentType: 'application/json; charset=utf-8' });
      assertVariantA(answer, '');
      assert.equal(answer.json.text, '');
      assert.deepEqual(answer.json.stats, { original_tokens: 0, optimized_tokens: 0, reduction: 0 });
    });
  });

  describe('Variant B: POST /optimize', () => {
    it('returns exactly the six published fields', async () => {
      const answer = await call(server, '/optimize', { body: { text: PROMPT, task: 'Summarize the config behaviour', budget: 60, model: 'gpt-4o' } });
      assertVariantB(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '60');
    });

    it('without budget uses 1000 tokens and model gpt-4o, the same as the core', async () => {
      const answer = await call(server, '/optimize', { body: { text: PROMPT } });
      assertVariantB(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '1000');
      assert.equal(answer.headers.get('x-tokenizer-encoding'), 'o200k_base');
      const core = optimize({ text: PROMPT });
      assert.equal(answer.json.optimized_text, core.text);
      assert.equal(answer.json.soft_limit_enforced, core.softLimitEnforced);
      assert.equal(answer.json.soft_limit_enforced, false, 'a 1000-token budget fits this prompt');
    });

    it('resolves percent budgets against the original token count', async () => {
      const original = countTokens(PROMPT, 'gpt-4o');
      for (const budget of ['50%', '12.5%', '100%', '.5%']) {
        const answer = await call(server, '/optimize', { body: { text: PROMPT, budget } });
        assertVariantB(answer, PROMPT);
        assert.equal(answer.headers.get('x-budget-tokens'), String(resolveBudget(budget, original)), budget);
        assert.equal(answer.json.optimized_text, optimize({ text: PROMPT, budget }).text);
      }
    });

    it('reports soft_limit_enforced exactly when the budget was too small (as the core decides)', async () => {
      const tight = await call(server, '/optimize', { body: { text: PROMPT, budget: 1 } });
      assertVariantB(tight, PROMPT);
      assert.equal(tight.json.soft_limit_enforced, true);
      assert.ok(tight.json.optimized_tokens > 1);
      const roomy = await call(server, '/optimize', { body: { text: PROMPT, budget: 10_000_000 } });
      assertVariantB(roomy, PROMPT);
      assert.equal(roomy.json.soft_limit_enforced, false);
      for (const budget of [1, 10, 40, '30%', 5000]) {
        const answer = await call(server, '/optimize', { body: { text: PROMPT, budget } });
        assert.equal(answer.json.soft_limit_enforced, optimize({ text: PROMPT, budget }).softLimitEnforced, String(budget));
      }
    });

    it('counts with the requested model', async () => {
      const answer = await call(server, '/optimize', { body: { text: PROMPT, model: 'gpt-4' } });
      assertVariantB(answer, PROMPT, 'gpt-4');
      assert.equal(answer.headers.get('x-tokenizer-encoding'), 'cl100k_base');
    });

    it('round-trips non-ASCII text and special-token strings', async () => {
      const text = 'Résumé 🚀 naïve — 東京 <|endoftext|> please keep `x = 1`.';
      const answer = await call(server, '/optimize', { body: { text } });
      assertVariantB(answer, text);
    });
  });

  describe('headers, logs and concurrency', () => {
    it('echoes a well-formed X-Request-Id and replaces a bad one', async () => {
      const good = await call(server, '/healthz', { headers: { 'x-request-id': 'abc-123_x.y' } });
      assert.equal(good.headers.get('x-request-id'), 'abc-123_x.y');
      const bad = await call(server, '/healthz', { headers: { 'x-request-id': 'evil id\twith spaces' } });
      assert.match(bad.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });

    it('logs one JSON line per request with id, status, latency and tokens, never the prompt or the key', async () => {
      const secret = 'Zanzibar-quokka-7731 is the secret phrase in this prompt.';
      const answer = await call(server, '/optimize', { body: { text: secret }, headers: { 'x-request-id': 'log-test-1' } });
      assert.equal(answer.status, 200);
      await call(server, '/optimize', { body: { text: secret }, key: `${server.key.slice(0, -1)}Q` });
      const line = server.logs.find((l) => l.reqId === 'log-test-1' && l.msg === 'request');
      assert.ok(line, 'access log line');
      assert.equal(line.status, 200);
      assert.equal(typeof line.latencyMs, 'number');
      assert.equal(line.original, answer.json.original_tokens);
      assert.equal(line.optimized, answer.json.optimized_tokens);
      assert.equal(line.budget, 1000);
      assert.match(String(line.key), /^[0-9a-f]{12}$/);
      const text = server.logText();
      assert.ok(!text.includes('Zanzibar'), 'prompt text in logs');
      assert.ok(!text.includes(server.key) && !text.includes(server.key.slice(8)), 'key in logs');
      assert.ok(!/authorization/i.test(text), 'Authorization header in logs');
    });

    it('serves 64 concurrent requests of both variants, each answer matching its own input', async () => {
      const prompts = Array.from({ length: 64 }, (_, i) => `${wordyPrompt(20 + (i % 7) * 15)} Item number ${i}.`);
      const answers = await Promise.all(
        prompts.map((prompt, i) => (i % 2 ? call(server, '/v1/optimize', { body: { prompt, budget: 30 } }) : call(server, '/optimize', { body: { text: prompt, budget: '50%' } }))),
      );
      answers.forEach((answer, i) => (i % 2 ? assertVariantA(answer, prompts[i]!) : assertVariantB(answer, prompts[i]!)));
    });

    it('rejects unknown fields instead of ignoring them (typos never silently use a default)', async () => {
      assertError(await call(server, '/optimize', { body: { text: 'x', budjet: 5 } }), 400, 'param_unknown', 'budjet');
    });
  });
  describe('short prompts come back as is (issue 12, defect 9)', () => {
    it('greetings and thanks alone are never emptied at budget 1000, in both variants', async () => {
      for (const text of ['hi', 'Thanks!', 'Hello!', 'Thank you so much.']) {
        const a = await call(server, '/v1/optimize', { body: { prompt: text, budget: 1000 } });
        assertVariantA(a, text);
        assert.equal(a.json.text, text);
        const b = await call(server, '/optimize', { body: { text, budget: 1000 } });
        assertVariantB(b, text);
        assert.equal(b.json.optimized_text, text);
        assert.equal(b.json.soft_limit_enforced, false);
      }
    });
  });

  describe('a budget sent as a string of digits (issue 12, defect 8)', () => {
    /**
     * A client like the Trunkate agent skill's command-line client, which sends every budget as a JSON
     * string ("budget": "1000") to the URL it is given: the body text is built by hand so it is exactly that.
     */
    async function stringBudgetClient(path: string, field: 'text' | 'prompt', text: string, budget: string): Promise<Answer> {
      const body = `{"${field}":${JSON.stringify(text)},"budget":"${budget}"}`;
      assert.ok(body.includes(`"budget":"${budget}"`));
      return call(server, path, { body });
    }

    it('Variant B: "1000" is a budget of 1000 tokens, the same as 1000', async () => {
      const answer = await stringBudgetClient('/optimize', 'text', PROMPT, '1000');
      assertVariantB(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '1000');
      const numeric = await call(server, '/optimize', { body: { text: PROMPT, budget: 1000 } });
      assert.equal(answer.json.optimized_text, numeric.json.optimized_text);
      const tight = await stringBudgetClient('/optimize', 'text', PROMPT, '40');
      assert.equal(tight.headers.get('x-budget-tokens'), '40');
      assert.equal(tight.json.optimized_text, optimize({ text: PROMPT, budget: 40 }).text);
    });

    it('Variant A: "60" is a budget of 60 tokens, the same as 60', async () => {
      const answer = await stringBudgetClient('/v1/optimize', 'prompt', PROMPT, '60');
      assertVariantA(answer, PROMPT);
      assert.equal(answer.headers.get('x-budget-tokens'), '60');
      const numeric = await call(server, '/v1/optimize', { body: { prompt: PROMPT, budget: 60 } });
      assert.equal(answer.json.text, numeric.json.text);
    });

    it('within the documented maximum: "10000000" is accepted, "10000001" and "0" are not, in both variants', async () => {
      for (const [path, field] of [['/optimize', 'text'], ['/v1/optimize', 'prompt']] as const) {
        const max = await stringBudgetClient(path, field, 'hello there', '10000000');
        assert.equal(max.status, 200, max.text);
        assert.equal(max.headers.get('x-budget-tokens'), '10000000');
        for (const budget of ['10000001', '0', '99999999999999999999', ' 1000', '1000 ', '-5', '1.5', '1e3', '']) {
          assertError(await stringBudgetClient(path, field, 'hello there', budget), 400, 'budget_invalid', 'budget');
        }
      }
    });
  });
});

describe('server: CORS for browser clients (opt-in)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ corsOrigins: ['https://vscode.dev'] }, { executor: stubPool() });
  });
  after(async () => {
    await server.close();
  });

  it('answers a preflight from an allowed origin with 204 and the allowed method and headers', async () => {
    const answer = await call(server, '/optimize', { method: 'OPTIONS', key: null, headers: { origin: 'https://vscode.dev', 'access-control-request-method': 'POST' } });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('access-control-allow-origin'), 'https://vscode.dev');
    assert.equal(answer.headers.get('access-control-allow-methods'), 'POST');
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  });

  it('adds Access-Control-Allow-Origin and exposes the API headers on answers, errors included', async () => {
    const ok = await call(server, '/optimize', { body: { text: 'hi' }, headers: { origin: 'https://vscode.dev' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://vscode.dev');
    assert.match(ok.headers.get('access-control-expose-headers') ?? '', /RateLimit-Remaining/);
    const denied = await call(server, '/optimize', { body: { text: 'hi' }, key: null, headers: { origin: 'https://vscode.dev' } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), 'https://vscode.dev');
  });

  it('sends nothing for other origins, and without the option OPTIONS stays a 405', async () => {
    const other = await call(server, '/optimize', { method: 'OPTIONS', key: null, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    assertError(other, 405, 'method_not_allowed');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});
