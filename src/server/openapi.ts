/**
 * The OpenAPI 3.1 document of the service, generated from the zod wire schemas. The committed
 * openapi.json is this function's output; test/server/openapi.test.ts fails when they differ
 * (regenerate with `UPDATE_OPENAPI=1 npx mocha test/server/openapi.test.ts`).
 */
import { z } from 'zod';
import * as wire from '../schemas/index';

export const API_VERSION = '1.0.0';

/** Wire schemas published as components, by component name. */
export const COMPONENT_SCHEMAS = {
  VariantARequest: wire.VariantARequest,
  VariantAFormRequest: wire.VariantAFormRequest,
  VariantAResponse: wire.VariantAResponse,
  VariantBRequest: wire.VariantBRequest,
  VariantBResponse: wire.VariantBResponse,
  ErrorBody: wire.ErrorBody,
  HealthResponse: wire.HealthResponse,
} as const;

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of a zod schema, without the `$schema` key. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
}

const ref = (name: keyof typeof COMPONENT_SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof COMPONENT_SCHEMAS) => ({ 'application/json': { schema: ref(name) } });
const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } });

const requestId = header('Id of this request, also in the server log. A client may send its own (1-64 of A-Z a-z 0-9 . _ -).');
const rateLimitHeaders = {
  'RateLimit-Limit': header('Requests allowed per window for this key.', 'integer'),
  'RateLimit-Remaining': header('Requests left in the current window.', 'integer'),
  'RateLimit-Reset': header('Seconds until the window resets.', 'integer'),
};

function error(description: string, headers: Record<string, unknown> = {}) {
  return { description, headers: { 'X-Request-Id': requestId, ...headers }, content: json('ErrorBody') };
}

/**
 * Answers to requests outside the published operations (any path, any method), in the same error body:
 * components.responses, referenced from every operation (431) and from the document's description (404, 405).
 */
const OUTSIDE_OPERATIONS = {
  NotFound: error('`not_found`: no such path. The message lists the endpoints.'),
  MethodNotAllowed: error('`method_not_allowed`: the path exists but not for this method (also CONNECT, on any path).', {
    Allow: header('The methods this path accepts, e.g. "POST" or "GET, HEAD".'),
  }),
  RequestHeaderFieldsTooLarge: {
    description: '`body_invalid`: the request headers are over Node\'s limit (16 KiB by default); the connection is closed.',
    headers: { 'X-Request-Id': requestId },
    content: json('ErrorBody'),
  },
};
const headersTooLarge = { '431': { $ref: '#/components/responses/RequestHeaderFieldsTooLarge' } };

function optimizeResponses(success: keyof typeof COMPONENT_SCHEMAS, extraHeaders: Record<string, unknown>) {
  return {
    '200': {
      description: 'The optimized prompt.',
      headers: {
        'X-Request-Id': requestId,
        ...rateLimitHeaders,
        'X-Budget-Tokens': header('The budget resolved to tokens.', 'integer'),
        'X-Tokenizer-Encoding': header('Encoding the tokens were counted with (o200k_base or cl100k_base).'),
        'X-Compute-Ms': header('Time spent compressing in the worker, in milliseconds.'),
        ...extraHeaders,
      },
      content: json(success),
    },
    '400': error(
      'Malformed JSON, a repeated JSON key, a body that is not UTF-8, two Authorization headers, a missing, unknown or wrongly typed field, an invalid budget, mode or model, or text over the token limit. `param` names the field.',
    ),
    '401': error('Missing, malformed or unknown API key.', { 'WWW-Authenticate': header('Bearer realm="prompt-optimizer"[, error="…"]') }),
    '408': error('The client took too long to send the request.'),
    '413': error('The body is over the size limit (default 1 MiB).'),
    '415': error('Unsupported Content-Type.'),
    '429': error('Rate limit for this key exceeded.', { 'Retry-After': header('Seconds to wait.', 'integer'), ...rateLimitHeaders }),
    ...headersTooLarge,
    '500': error('Unexpected server error. Never includes a stack trace.'),
    '503': error('Overloaded (all workers busy and the queue full), compression over its time limit, shutting down, or the shared rate-limit store (Redis) unreachable.', {
      'Retry-After': header('Seconds to wait (overload, shutdown and rate-limit store only).', 'integer'),
    }),
  };
}

export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prompt Optimizer API',
      version: API_VERSION,
      description:
        'Shortens natural-language prompts toward a token budget, keeping code, numbers, names and instructions intact. ' +
        'Two published variants of the same operation: Variant A (POST /v1/optimize) and Variant B (POST /optimize). ' +
        'Every error has the body {"error":{"type","code","message","param"}}. See docs/server.md. ' +
        'Any other path is answered 404 (components/responses/NotFound), another method on a published path 405 with Allow ' +
        '(components/responses/MethodNotAllowed), and headers over the size limit 431 on any path.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:8787', description: 'Local default' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/v1/optimize': {
        post: {
          operationId: 'optimizeVariantA',
          summary: 'Variant A: optimize a prompt (JSON or form-encoded).',
          description: 'Tokens are counted with the gpt-4o encoding (o200k_base). Defaults: budget 1000, mode "relaxed".',
          requestBody: {
            required: true,
            content: { ...json('VariantARequest'), 'application/x-www-form-urlencoded': { schema: ref('VariantAFormRequest') } },
          },
          responses: optimizeResponses('VariantAResponse', {
            'X-Soft-Limit-Enforced': header('"true" when the budget was too small and the fallback was used (Variant A has no body field for it).'),
          }),
        },
      },
      '/optimize': {
        post: {
          operationId: 'optimizeVariantB',
          summary: 'Variant B: optimize a prompt (JSON only).',
          description: 'Without budget, the budget is 1000 tokens (the core default). Default model "gpt-4o".',
          requestBody: { required: true, content: json('VariantBRequest') },
          responses: optimizeResponses('VariantBResponse', {}),
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'Liveness for load balancers. No authentication.',
          security: [],
          responses: {
            '200': { description: 'Serving.', content: json('HealthResponse') },
            '503': error('Shutting down.'),
            ...headersTooLarge,
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readiness',
          summary: 'Readiness for load balancers: 503 while shutting down or while a required dependency (Redis) is down. No authentication.',
          security: [],
          responses: {
            '200': { description: 'Ready for traffic.', content: json('HealthResponse') },
            '503': error('Shutting down (`shutting_down`) or Redis unreachable (`rate_limit_unavailable`).'),
            ...headersTooLarge,
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openapi',
          summary: 'This document. No authentication.',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...headersTooLarge },
        },
      },
    },
    components: {
      responses: OUTSIDE_OPERATIONS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: tk_live_… or tk_test_… followed by at least 32 URL-safe characters.' },
      },
      schemas: Object.fromEntries(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [name, jsonSchemaOf(schema)])),
    },
  };
}
