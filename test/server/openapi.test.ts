/**
 * The committed openapi.json is generated from the zod wire schemas and must match them exactly, so the
 * document, the validation and the extension's client cannot drift apart.
 * Regenerate after changing src/schemas: UPDATE_OPENAPI=1 npx mocha test/server/openapi.test.ts
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import * as wire from '../../src/schemas/index';
import { buildOpenApiDocument, COMPONENT_SCHEMAS } from '../../src/server/openapi';

const FILE = 'openapi.json';

describe('server: OpenAPI document', () => {
  const generated = buildOpenApiDocument();
  if (process.env.UPDATE_OPENAPI) writeFileSync(FILE, `${JSON.stringify(generated, null, 2)}\n`);
  const committed = JSON.parse(readFileSync(FILE, 'utf8'));

  it('the committed openapi.json is exactly what the zod schemas generate', () => {
    assert.deepEqual(committed, generated, `${FILE} is stale: run UPDATE_OPENAPI=1 npx mocha test/server/openapi.test.ts`);
  });

  it('each component schema equals z.toJSONSchema of its zod schema', () => {
    const components = committed.components.schemas as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(components).sort(), Object.keys(COMPONENT_SCHEMAS).sort());
    for (const [name, schema] of Object.entries(COMPONENT_SCHEMAS)) {
      const { $schema: _dialect, ...expected } = z.toJSONSchema(schema) as Record<string, unknown>;
      assert.deepEqual(components[name], expected, name);
    }
  });

  it('is OpenAPI 3.1 and documents both variants, health and itself, with the error body on every error', () => {
    assert.equal(committed.openapi, '3.1.0');
    assert.deepEqual(Object.keys(committed.paths).sort(), ['/healthz', '/openapi.json', '/optimize', '/readyz', '/v1/optimize']);
    const a = committed.paths['/v1/optimize'].post;
    assert.deepEqual(Object.keys(a.requestBody.content).sort(), ['application/json', 'application/x-www-form-urlencoded']);
    assert.equal(a.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/VariantAResponse');
    const b = committed.paths['/optimize'].post;
    assert.deepEqual(Object.keys(b.requestBody.content), ['application/json']);
    assert.equal(b.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/VariantBResponse');
    for (const operation of [a, b]) {
      for (const status of ['400', '401', '408', '413', '415', '429', '500', '503']) {
        assert.equal(operation.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody', status);
      }
      assert.ok(operation.responses['429'].headers['Retry-After']);
      assert.ok(operation.responses['429'].headers['RateLimit-Limit']);
      assert.ok(operation.responses['401'].headers['WWW-Authenticate']);
    }
    assert.deepEqual(committed.paths['/healthz'].get.security, []);
  });

  it('documents 404, 405 and 431 in the error body, 405 with Allow, 431 on every operation', () => {
    const responses = committed.components.responses;
    for (const name of ['NotFound', 'MethodNotAllowed', 'RequestHeaderFieldsTooLarge']) {
      assert.equal(responses[name].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody', name);
    }
    assert.ok(responses.MethodNotAllowed.headers.Allow);
    assert.match(committed.info.description, /404[\s\S]*NotFound[\s\S]*405[\s\S]*MethodNotAllowed[\s\S]*431/);
    for (const [path, item] of Object.entries(committed.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        assert.equal(operation.responses['431']?.$ref, '#/components/responses/RequestHeaderFieldsTooLarge', `${method} ${path}`);
      }
    }
  });

  it('the form schema\'s budget pattern is the one the server applies (" 5 " is refused; "5" accepted)', () => {
    const form = committed.components.schemas.VariantAFormRequest.properties.budget;
    assert.equal(form.pattern, '^\\d+$');
    assert.doesNotMatch(' 5 ', new RegExp(form.pattern));
    assert.ok(wire.VariantARequest.safeParse({ prompt: 'x', budget: '5' }).success);
    assert.ok(!wire.VariantARequest.safeParse({ prompt: 'x', budget: ' 5 ' }).success);
    assert.ok(wire.VariantBRequest.safeParse({ text: 'x', budget: '1000' }).success);
    assert.ok(!wire.VariantARequest.safeParse({ prompt: 'x', budget: '40%' }).success, 'Variant A takes no percentages');
  });

  it('publishes no response fields beyond the ones in the issue', () => {
    const props = (name: string) => Object.keys((committed.components.schemas[name] as { properties: object }).properties).sort();
    assert.deepEqual(props('VariantAResponse'), ['latency_ms', 'stats', 'text']);
    assert.deepEqual(props('VariantBResponse'), ['latency_ms', 'optimized_text', 'optimized_tokens', 'original_tokens', 'reduction_percent', 'soft_limit_enforced']);
    assert.deepEqual(props('ErrorBody'), ['error']);
    for (const name of ['VariantAResponse', 'VariantBResponse', 'ErrorBody', 'VariantARequest', 'VariantBRequest']) {
      assert.equal(committed.components.schemas[name].additionalProperties, false, name);
    }
  });

  it('the schemas module accepts the published examples and refuses extra response fields', () => {
    assert.ok(wire.VariantARequest.safeParse({ prompt: 'x', budget: 10, mode: 'strict' }).success);
    assert.ok(wire.VariantBRequest.safeParse({ text: 'x', budget: '12.5%', task: 't', model: 'gpt-4o' }).success);
    assert.ok(!wire.VariantBRequest.safeParse({ text: 'x', budget: '12.5' }).success);
    assert.ok(wire.VariantAResponse.safeParse({ text: '', stats: { original_tokens: 0, optimized_tokens: 0, reduction: 0 }, latency_ms: 1.5 }).success);
    assert.ok(!wire.VariantBResponse.safeParse({ optimized_text: '', original_tokens: 0, optimized_tokens: 0, reduction_percent: 0, latency_ms: 0, soft_limit_enforced: false, extra: 1 }).success);
    assert.ok(wire.ErrorBody.safeParse({ error: { type: 'api_error', code: 'internal_error', message: 'x', param: null } }).success);
    assert.match(`tk_live_${'A'.repeat(32)}`, wire.API_KEY_PATTERN);
    assert.doesNotMatch(`tk_live_${'A'.repeat(31)}`, wire.API_KEY_PATTERN);
  });
});

describe('server: shared schemas module', () => {
  it('bundles for a browser (no Node or Fastify imports), as the web extension needs', async () => {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({ entryPoints: ['src/schemas/index.ts'], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(!inputs.some((input) => /fastify|node:|piscina/.test(input)), inputs.join(', '));
  });
});
