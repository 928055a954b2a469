import * as assert from 'node:assert/strict';
import { baseUrlProblem, endpointFor, failureFromException, failureFromStatus, formatWait, originOf, parseRetryAfter } from '../../src/extension/logic/remote';

describe('extension/logic/remote', () => {
  it('builds the endpoint of each variant from the server root', () => {
    assert.equal(endpointFor('http://127.0.0.1:8787', 'A'), 'http://127.0.0.1:8787/v1/optimize');
    assert.equal(endpointFor('http://127.0.0.1:8787/', 'B'), 'http://127.0.0.1:8787/optimize');
    assert.equal(endpointFor('https://api.example.com/v1', 'A'), 'https://api.example.com/v1/optimize');
    assert.equal(endpointFor('https://api.example.com/v1/', 'B'), 'https://api.example.com/optimize');
    assert.equal(endpointFor('https://example.com/po', 'A'), 'https://example.com/po/v1/optimize');
  });

  it('checks the base URL', () => {
    assert.match(baseUrlProblem('') ?? '', /Set promptOptimizer\.remote\.baseUrl/);
    assert.match(baseUrlProblem('not a url') ?? '', /not a valid URL/);
    assert.match(baseUrlProblem('ftp://x') ?? '', /http/);
    assert.match(baseUrlProblem('http://user:pw@host') ?? '', /user name/);
    assert.equal(baseUrlProblem('http://127.0.0.1:8787'), undefined);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:02:00 GMT', now), 120);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
    assert.equal(formatWait(1), '1 second');
    assert.equal(formatWait(30), '30 seconds');
    assert.equal(formatWait(61), '2 minutes');
  });

  it('maps 401 to "set a key", 429 to the wait time, 4xx to the server message, 5xx to a fallback offer', () => {
    const unauthorized = failureFromStatus(401, { code: 'key_invalid', message: 'Invalid API key.' }, undefined);
    assert.equal(unauthorized.kind, 'unauthorized');
    assert.match(unauthorized.message, /Set API Key/);
    assert.equal(unauthorized.fallbackSuggested, false);

    const limited = failureFromStatus(429, { code: 'rate_limited', message: 'Slow down.' }, 42);
    assert.equal(limited.kind, 'rate_limited');
    assert.match(limited.message, /Try again in 42 seconds/);
    assert.match(failureFromStatus(429, undefined, undefined).message, /Try again later/);
    assert.equal(limited.fallbackSuggested, true, 'a 429 offers the local engine');

    const client = failureFromStatus(400, { code: 'budget_invalid', message: 'budget must be a whole number' }, undefined);
    assert.equal(client.kind, 'client');
    assert.match(client.message, /budget must be a whole number/);
    assert.equal(client.code, 'budget_invalid');

    const server = failureFromStatus(503, { code: 'overloaded', message: 'Busy.' }, 5);
    assert.equal(server.kind, 'server');
    assert.equal(server.fallbackSuggested, true);
  });

  it('maps network errors, timeouts and cancellation without leaking paths', () => {
    const network = failureFromException(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), undefined, 1000, 'http://127.0.0.1:9/v1/optimize?secret=1');
    assert.equal(network.kind, 'network');
    assert.equal(network.message, 'Could not reach the Prompt Optimizer server at http://127.0.0.1:9 (ECONNREFUSED).');
    assert.equal(failureFromException(new Error('aborted'), 'timeout', 1500, 'http://h/optimize').kind, 'timeout');
    assert.equal(failureFromException(new Error('aborted'), 'cancelled', 1500, 'http://h/optimize').kind, 'cancelled');
    assert.equal(originOf('nonsense'), 'the configured address');
    assert.doesNotMatch(network.message, /cors/i, 'outside a browser CORS is no cause');
  });

  it('in a browser, names CORS as a cause of "Failed to fetch"', () => {
    const failure = failureFromException(new TypeError('Failed to fetch'), undefined, 1000, 'http://127.0.0.1:8787/optimize', 'https://vscode.dev');
    assert.equal(failure.kind, 'network');
    assert.equal(failure.fallbackSuggested, true);
    assert.match(failure.message, /^Could not reach the Prompt Optimizer server at http:\/\/127\.0\.0\.1:8787 \(Failed to fetch\)\. If the server is running, it must allow this page's origin.*--cors-origins https:\/\/vscode\.dev\.$/);
  });
});
