/**
 * Fuzz-style robustness: a few thousand random and malformed requests (methods, paths, keys, content
 * types, bodies, request ids) from a fixed seed. Every answer must be a 200 of the documented shape or a
 * well-formed JSON error with a 4xx status: never a 500, a hang or a crash. Then raw garbage on sockets.
 */
import { strict as assert } from 'node:assert';
import { ErrorBody, HealthResponse, VariantAResponse, VariantBResponse } from '../../src/schemas/index';
import { generateKey } from '../../src/server/keys';
import { rawExchange, startTestServer, type TestServer } from './helpers';

const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const CONCURRENCY = 24;

/** mulberry32: small, seedable, good enough for test inputs. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

function randomString(r: Rng, max = 40): string {
  const alphabets = ['abcdefghijklmnop qrstuvwxyz', '0123456789%.-+eE', '{}[]":,\\/\u0000\u001f\t\n\r', 'é東京🚀\u202e\ud800\uffff', '<|endoftext|>'];
  let out = '';
  const length = r.int(max);
  for (let i = 0; i < length; i++) {
    const alphabet = r.pick(alphabets);
    out += alphabet[r.int(alphabet.length)];
  }
  return out;
}

/** encodeURIComponent, after replacing lone surrogates (which it cannot encode). */
function encode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'));
}

function randomValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 8 : 10)) {
    case 0:
      return randomString(r);
    case 1:
      return r.pick([0, -1, 1, 1.5, 1e308, -0, 10_000_001, 999, 2 ** 53 + 1]);
    case 2:
      return r.pick(['50%', '0%', '100%', '150%', '.5%', '12.5%', '%', '1e3', ' 40 % ', '500']);
    case 3:
      return null;
    case 4:
      return r.chance(0.5);
    case 5:
      return r.pick(['strict', 'relaxed', 'STRICT', '', 'gpt-4o', 'gpt-4', 'o3-mini', 'llama']);
    case 6:
      return 'Please could you kindly summarize this text, keeping `code()` and 42 intact. '.repeat(1 + r.int(8));
    case 7:
      return r.int(5000);
    case 8:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [randomString(r, 8), randomValue(r, depth + 1)]));
  }
}

function randomBody(r: Rng, path: string): string | undefined {
  const kind = r.int(12);
  if (kind === 0) return undefined;
  if (kind === 1) return '';
  if (kind === 2) return randomString(r, 200);
  if (kind === 3) return '['.repeat(r.int(3000)) + ']'.repeat(r.int(3000));
  if (kind === 4) return `prompt=${encode(randomString(r))}&budget=${encode(String(randomValue(r)))}${r.chance(0.3) ? '&mode=strict&x=1' : ''}`;
  if (kind === 5 && r.chance(0.3)) return JSON.stringify({ text: 'x'.repeat(10_000 + r.int(20_000)) });
  const fields: Record<string, unknown> = {};
  const names = path === '/v1/optimize' ? ['prompt', 'budget', 'mode'] : ['text', 'budget', 'task', 'model'];
  const valid: Record<string, () => unknown> = {
    prompt: () => 'Please could you kindly summarize this text, keeping `code()` and 42 intact. '.repeat(1 + r.int(6)),
    text: () => r.pick(['', 'short', 'Could you please, if at all possible, basically just list the 3 steps? '.repeat(1 + r.int(6))]),
    budget: () => (path === '/v1/optimize' ? 1 + r.int(2000) : r.pick([1 + r.int(2000), `${1 + r.int(100)}%`])),
    mode: () => r.pick(['strict', 'relaxed']),
    task: () => randomString(r),
    model: () => r.pick(['gpt-4o', 'gpt-4', 'gpt-4o-mini', 'o3']),
  };
  for (const name of names) if (r.chance(name === 'prompt' || name === 'text' ? 0.95 : 0.5)) fields[name] = r.chance(0.7) ? valid[name]!() : randomValue(r);
  if (r.chance(0.1)) fields[randomString(r, 6) || 'extra'] = randomValue(r);
  if (r.chance(0.05)) fields.__proto__ = { polluted: true };
  let json = JSON.stringify(fields);
  if (kind === 6) {
    // Mutate: cut, or drop/insert a character.
    const at = r.int(json.length + 1);
    json = r.chance(0.5) ? json.slice(0, at) : json.slice(0, at) + r.pick(['"', '{', '}', ',', '\\', '\u0000', 'x']) + json.slice(at + 1);
  }
  if (kind === 7) json = `{"text": "x", "__proto__": {"a": 1}, "constructor": {"prototype": {"b": 2}}}`;
  return json;
}

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function randomCase(r: Rng, key: string): Case {
  const method = r.chance(0.8) ? 'POST' : r.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
  const path = r.chance(0.7) ? r.pick(['/optimize', '/v1/optimize']) : r.pick(['/optimize', '/v1/optimize', '/optimize', '/v1/optimize', '/healthz', '/openapi.json', '/', '/optimize?budget=5', '/%2e%2e/optimize', '/v1/optimize/extra', `/${encode(randomString(r, 20))}`, '/OPTIMIZE']);
  const headers: Record<string, string> = {};
  const auth = r.int(10);
  if (auth < 7) headers.authorization = `Bearer ${key}`;
  else if (auth === 7) headers.authorization = `Bearer ${generateKey(r.chance(0.5) ? 'live' : 'test')}`;
  else if (auth === 8) headers.authorization = r.pick(['Bearer', 'Basic abc', `Bearer ${key} extra`, `bearer  ${key}`, 'Bearer tk_live_' + 'a'.repeat(r.int(50)), encode(randomString(r, 30))]);
  const type = r.int(10);
  if (type < 6) headers['content-type'] = 'application/json';
  else if (type === 6) headers['content-type'] = 'application/x-www-form-urlencoded';
  else if (type === 7) headers['content-type'] = r.pick(['text/plain', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/jsonx', 'multipart/form-data', '*/*', ';;;', 'application/json;']);
  if (r.chance(0.2)) headers['x-request-id'] = r.chance(0.5) ? encode(randomString(r, 80)) : 'req-' + r.int(1e6);
  if (r.chance(0.05)) headers.accept = 'text/html';
  const body = method === 'GET' || method === 'HEAD' ? undefined : randomBody(r, path.split('?')[0]!);
  return { method, path, headers, body };
}

function check(c: Case, status: number, contentType: string, text: string): string | null {
  const label = `${c.method} ${c.path} ${JSON.stringify(c.headers['content-type'])} body=${JSON.stringify(c.body?.slice(0, 80))}`;
  if (status >= 500) return `${status} for ${label}: ${text.slice(0, 200)}`;
  if (c.method === 'HEAD') return status === 200 || status === 404 || status === 405 ? null : `HEAD got ${status} for ${label}`;
  if (!contentType.startsWith('application/json')) return `content-type ${contentType} for ${label}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `not JSON (${status}) for ${label}: ${text.slice(0, 100)}`;
  }
  const path = c.path.split('?')[0];
  if (status === 200) {
    const schema = path === '/optimize' ? VariantBResponse : path === '/v1/optimize' ? VariantAResponse : path === '/healthz' ? HealthResponse : null;
    if (schema && !schema.safeParse(json).success) return `bad 200 shape for ${label}: ${text.slice(0, 200)}`;
    return null;
  }
  if (![400, 401, 404, 405, 413, 415].includes(status)) return `unexpected ${status} for ${label}: ${text.slice(0, 200)}`;
  if (!ErrorBody.safeParse(json).success) return `bad error shape (${status}) for ${label}: ${text.slice(0, 200)}`;
  return null;
}

describe('server: fuzz', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workers: 2, bodyLimitBytes: 16 * 1024, maxInputTokens: 3000, rateLimitMax: 1_000_000 });
  });
  after(async () => {
    await server.close();
  });

  it(`answers ${COUNT} random and malformed requests with a documented 200 or a JSON 4xx, never 500 or a hang`, async () => {
    const r = rng(SEED);
    const cases = Array.from({ length: COUNT }, () => randomCase(r, server.key));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const deadline = Date.now() + 45_000;
    const workerLoop = async () => {
      while (next < cases.length && Date.now() < deadline) {
        const c = cases[next++]!;
        try {
          const response = await fetch(server.url + c.path, { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(10_000) });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const problem = check(c, response.status, response.headers.get('content-type') ?? '', text);
          if (problem) failures.push(problem);
        } catch (error) {
          failures.push(`no answer (${(error as Error).name}: ${(error as Error).message}) for ${c.method} ${c.path}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, workerLoop));
    assert.equal(next, cases.length, 'ran out of time');
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} failures`);
    assert.ok((statuses.get(200) ?? 0) > COUNT / 20, `some successes: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(400) ?? 0) > COUNT / 20, `some 400s: ${JSON.stringify([...statuses])}`);
    assert.ok(!server.logText().includes('request failed'), 'an internal error was logged');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('survives raw garbage on sockets and keeps serving', async () => {
    const r = rng(SEED + 1);
    const garbage = [
      'GARBAGE\r\n\r\n',
      'POST /optimize HTTP/1.1\r\nContent-Length: -5\r\n\r\n',
      'POST /optimize HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
      'POST /optimize HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET / HTTP/1.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      '\u0000\u0001\u0002\r\n\r\n',
      ...Array.from({ length: 20 }, () => randomString(r, 300) + '\r\n\r\n'),
    ];
    const answers = await Promise.all(garbage.map((g) => rawExchange(server.url, [g], 5000)));
    for (const { text } of answers) {
      if (!text) continue; // closing the connection is a fine answer to garbage
      const status = Number(text.split(' ')[1]);
      assert.ok(status >= 400 && status < 500, text.slice(0, 200));
    }
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
  });
});
