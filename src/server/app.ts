/**
 * The HTTP application: routes, auth, limits and the error mapping, built as a Fastify instance that
 * is not listening yet (server.ts adds listen, signals and graceful close; tests start it on a free port).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, HealthResponse, ROUTES, VariantARequest, VariantAResponse, VariantBRequest, VariantBResponse, type ErrorCode } from '../schemas/index';
import openapiDocument from '../../openapi.json';
import type { ServerConfig } from './config';
import { makeCompress, round2, shuttingDown } from './compress';
import { ApiError, errorBody, quote } from './errors';
import { strictJsonParser } from './json';
import type { Executor } from './executor';
import { isWellFormedKey, keyId, type KeyStore } from './keys';
import { countersUnavailable, redisReady, sharedCountersStore } from './redis';
import { Drain } from './shutdown';
import { WorkSlots } from './slots';

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 (hex) of the caller's key, set once authenticated. */
    keyHash: string | null;
    /** Token counts for the access log. */
    tokenStats: { original: number; optimized: number; budget: number } | null;
    errorCode: ErrorCode | null;
  }
  interface FastifyInstance {
    /** The graceful drain that precedes `close()` (server.ts runs it). */
    drain: Drain;
  }
}

export interface AppOptions {
  config: ServerConfig;
  keys: KeyStore;
  executor: Executor;
  /** Where JSON log lines go (default stdout). Tests pass a collecting stream. */
  logStream?: NodeJS.WritableStream;
  /** Shared rate-limit counters: an ioredis client, or a function making one with the app's logger. Omitted: in-memory counters for this instance only. */
  redis?: object | ((log: FastifyBaseLogger) => object);
}

const ALLOWED_METHODS: Record<string, string> = {
  [ROUTES.variantA.path]: 'POST',
  [ROUTES.variantB.path]: 'POST',
  [ROUTES.health.path]: 'GET, HEAD',
  [ROUTES.readiness.path]: 'GET, HEAD',
  [ROUTES.openapi.path]: 'GET, HEAD',
};

/** Error codes for a bad value of each request field (a missing field is `param_missing`). */
const FIELD_CODES: Record<string, ErrorCode> = {
  prompt: 'text_invalid',
  text: 'text_invalid',
  budget: 'budget_invalid',
  mode: 'mode_invalid',
  model: 'model_unsupported',
  task: 'task_invalid',
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const CORS_EXPOSED_HEADERS = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Budget-Tokens, X-Tokenizer-Encoding, X-Compute-Ms, X-Soft-Limit-Enforced';
const BEARER_REALM = 'Bearer realm="prompt-optimizer"';

/**
 * Form bodies of Variant A: empty fields count as absent. The budget stays a string and is checked like a
 * JSON string budget (digits only, as the schema says; the core resolves it).
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const parsed: Record<string, unknown> = { ...parseQueryString(text) };
  for (const field of ['budget', 'mode'] as const) if (parsed[field] === '') delete parsed[field];
  return parsed;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, keys, executor } = options;
  let closing = false;
  const slots = new WorkSlots(executor.threads, config.maxQueue);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Belt and braces: nothing logs headers or bodies, but if something ever does, these are masked.
      redact: ['req.headers.authorization', 'headers.authorization', 'body', 'req.body'],
    },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: config.connectionsCheckIntervalMs },
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (raw) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A path Fastify cannot decode (a bad percent-escape) gets the service's error body too.
    frameworkErrors(error, request, reply) {
      const apiError = error.code === 'FST_ERR_BAD_URL' ? new ApiError(400, 'path_invalid', 'The path is not a valid URL (a bad percent-escape?).') : toApiError(error, request);
      request.errorCode = apiError.code;
      reply.header('X-Request-Id', request.id).headers(apiError.headers);
      reply.raw.statusCode = apiError.statusCode;
      reply.send(errorBody(apiError) as never);
    },
    // Socket-level failures (timeouts, unparsable HTTP) answered with the same error body.
    clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const headerOverflow = error.code === 'HPE_HEADER_OVERFLOW';
      const apiError = timeout
        ? new ApiError(408, 'request_timeout', 'The request was not received in time.')
        : new ApiError(headerOverflow ? 431 : 400, 'body_invalid', headerOverflow ? 'Request headers are too large.' : 'The request is not valid HTTP.');
      this.log.info({ status: apiError.statusCode, code: error.code }, 'client error');
      if (socket.writable) socket.write(rawErrorResponse(apiError));
      socket.destroy();
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('keyHash', null);
  app.decorateRequest('tokenStats', null);
  app.decorateRequest('errorCode', null);
  keys.setLog(app.log);
  const redis = typeof options.redis === 'function' ? options.redis(app.log) : options.redis;
  const drain = new Drain(app.server);
  // Node hands CONNECT to a 'connect' listener and drops the socket when there is none.
  app.server.on('connect', (_request, socket: Socket) => {
    const error = new ApiError(405, 'method_not_allowed', 'CONNECT is not supported: this is not a proxy.', null, { Allow: 'GET, HEAD, POST' });
    socket.on('error', () => {});
    socket.end(rawErrorResponse(error, randomUUID()));
  });
  app.decorate('drain', drain);

  app.addHook('preClose', async () => {
    closing = true;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (cors(request, reply)) return reply.code(204).send();
    if (closing) {
      throw shuttingDown();
    }
    // Unknown paths and methods are answered before any body is read.
    if (request.is404) throw notFound(request);
  });

  /**
   * Opt-in CORS for browser clients (a web extension): allowed origins get Access-Control-* headers, and
   * a preflight (OPTIONS with Access-Control-Request-Method) on an optimize path gets 204. True when the
   * request was a preflight that has been answered.
   */
  const corsOrigins = new Set(config.corsOrigins);
  const cors = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const origin = request.headers.origin;
    if (!origin || corsOrigins.size === 0) return false;
    const allowed = corsOrigins.has('*') ? '*' : corsOrigins.has(origin) ? origin : null;
    if (!allowed) return false;
    reply.header('Access-Control-Allow-Origin', allowed);
    if (allowed !== '*') reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    const path = request.url.split('?')[0] ?? '';
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method'] || ALLOWED_METHODS[path] !== 'POST') return false;
    reply.header('Access-Control-Allow-Methods', 'POST');
    reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Request-Id');
    reply.header('Access-Control-Max-Age', '600');
    return true;
  };

  // While closing, answers end their connection, so keep-alive clients cannot hold the close up. An
  // answer sent before the body has arrived may not: closing then would reset the connection under the
  // client's feet before it reads the answer (Drain reads the rest of the body, then ends it).
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) {
      // Fastify itself sets it on the raw response once closing.
      reply.removeHeader('Connection');
      reply.raw.removeHeader('Connection');
    } else if (closing || drain.draining) reply.header('Connection', 'close');
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        latencyMs: round2(reply.elapsedTime),
        key: request.keyHash ? keyId(request.keyHash) : null,
        ...(request.errorCode ? { errorCode: request.errorCode } : {}),
        ...(request.tokenStats ?? {}),
      },
      'request',
    );
  });

  app.setNotFoundHandler(async (request) => {
    throw notFound(request);
  });

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.statusCode >= 500 && apiError.code === 'internal_error') {
      const err = error as Error;
      request.log.error({ err: { type: err?.name, message: err?.message, stack: err?.stack } }, 'request failed');
    }
    request.errorCode = apiError.code;
    reply.code(apiError.statusCode).headers(apiError.headers);
    return errorBody(apiError);
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes }, strictJsonParser(app.getDefaultJsonParser('error', 'error')));
  await app.register(formbody, { parser: parseFormBody, bodyLimit: config.bodyLimitBytes });
  // Global: one counter per key shared by both variants; health and the document opt out.
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    enableDraftSpec: true,
    // The short key id, as in the logs: a counter's name (in Redis too) never carries a key's full hash.
    keyGenerator: (request) => (request.keyHash ? keyId(request.keyHash) : request.ip),
    ...(redis ? { store: sharedCountersStore(redis) as never } : {}),
    // Fail closed (503 rate_limit_unavailable) unless the operator chose to serve unlimited while Redis is down.
    skipOnError: config.rateLimitFailOpen,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'rate_limited', `Rate limit of ${context.max} requests per ${Math.round(config.rateLimitWindowMs / 1000)} s exceeded for this key; retry in ${context.after}.`),
  });

  const authenticate = async (request: FastifyRequest) => {
    // Node keeps the first of two Authorization headers; a proxy in front may have used the other.
    const raw = request.raw.rawHeaders;
    let count = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') count++;
    if (count > 1) throw new ApiError(400, 'authorization_duplicate', 'Send exactly one Authorization header.');
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      throw new ApiError(401, 'key_missing', 'Send your API key as "Authorization: Bearer <key>".', null, { 'WWW-Authenticate': BEARER_REALM });
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const key = match?.[1];
    if (!key || !isWellFormedKey(key)) {
      throw new ApiError(401, 'key_malformed', 'The Authorization header must be "Bearer tk_live_…" or "Bearer tk_test_…" with at least 32 URL-safe characters after the prefix.', null, {
        'WWW-Authenticate': `${BEARER_REALM}, error="invalid_request"`,
      });
    }
    const hash = keys.verify(key);
    if (!hash) throw new ApiError(401, 'key_invalid', 'This API key is not valid or was revoked.', null, { 'WWW-Authenticate': `${BEARER_REALM}, error="invalid_token"` });
    request.keyHash = hash;
  };

  const requireContentType = (allowed: readonly string[]) => async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!allowed.includes(type)) {
      throw new ApiError(415, 'content_type_unsupported', `Content-Type must be ${allowed.join(' or ')}${type ? `; got ${quote(type)}` : ''}.`, null, {
        'Accept-Post': allowed.join(', '),
      });
    }
    return payload;
  };

  const compress = makeCompress({ config, executor, slots, drain });

  const errorResponses = { 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 500: ErrorBody, 503: ErrorBody };

  app.route({
    method: 'POST',
    url: ROUTES.variantA.path,
    schema: { body: VariantARequest, response: { 200: VariantAResponse, ...errorResponses } },
    onRequest: [authenticate],
    preParsing: [requireContentType(['application/json', 'application/x-www-form-urlencoded'])],
    handler: async (request, reply) => {
      const { prompt, budget, mode } = request.body;
      const r = await compress(request, reply, { text: prompt, budget, mode, model: 'gpt-4o' }, 'prompt');
      reply.header('X-Soft-Limit-Enforced', String(r.softLimitEnforced));
      return {
        text: r.text,
        stats: { original_tokens: r.originalTokens, optimized_tokens: r.optimizedTokens, reduction: r.reductionPercent },
        latency_ms: round2(reply.elapsedTime),
      };
    },
  });

  app.route({
    method: 'POST',
    url: ROUTES.variantB.path,
    schema: { body: VariantBRequest, response: { 200: VariantBResponse, ...errorResponses } },
    onRequest: [authenticate],
    preParsing: [requireContentType(['application/json'])],
    handler: async (request, reply) => {
      const { text, task, budget, model } = request.body;
      const r = await compress(request, reply, { text, task, budget, model }, 'text');
      return {
        optimized_text: r.text,
        original_tokens: r.originalTokens,
        optimized_tokens: r.optimizedTokens,
        reduction_percent: r.reductionPercent,
        latency_ms: round2(reply.elapsedTime),
        soft_limit_enforced: r.softLimitEnforced,
      };
    },
  });

  app.route({
    method: 'GET',
    url: ROUTES.health.path,
    config: { rateLimit: false },
    schema: { response: { 200: HealthResponse } },
    handler: async () => ({ status: 'ok' as const }),
  });

  // Readiness (for load balancers): 503 while closing or while a required dependency is down.
  app.route({
    method: 'GET',
    url: ROUTES.readiness.path,
    config: { rateLimit: false },
    schema: { response: { 200: HealthResponse, 503: ErrorBody } },
    handler: async () => {
      if (drain.draining) throw shuttingDown();
      if (redis && !config.rateLimitFailOpen && !redisReady(redis)) throw countersUnavailable();
      return { status: 'ok' as const };
    },
  });

  const openapiText = JSON.stringify(openapiDocument);
  app.route({
    method: 'GET',
    url: ROUTES.openapi.path,
    config: { rateLimit: false },
    handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapiText),
  });

  return app;
}

function notFound(request: FastifyRequest): ApiError {
  const path = request.url.split('?')[0] ?? '';
  const allow = ALLOWED_METHODS[path];
  if (allow) return new ApiError(405, 'method_not_allowed', `Method ${request.method} is not allowed here; allowed: ${allow}.`, null, { Allow: allow });
  return new ApiError(404, 'not_found', `No such endpoint. Endpoints: POST /v1/optimize, POST /optimize, GET /healthz, GET /readyz, GET /openapi.json.`);
}

/** Maps anything thrown while handling a request to the answer the client gets. */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0]!;
    const field = issue.instancePath.split('/').filter(Boolean)[0];
    if (field === undefined) {
      if (issue.keyword === 'unrecognized_keys') {
        const unknown = ((issue.params as { keys?: string[] }).keys ?? [])[0] ?? null;
        return new ApiError(400, 'param_unknown', issue.message ?? 'Unknown field.', unknown);
      }
      return new ApiError(400, 'body_invalid', 'The request body must be a JSON object.', null);
    }
    const body = request.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && body[field] === undefined) return new ApiError(400, 'param_missing', `${field} is required.`, field);
    return new ApiError(400, FIELD_CODES[field] ?? 'body_invalid', issue.message ?? `${field} is invalid.`, field);
  }
  const err = error as { code?: string; statusCode?: number; name?: string } | null;
  switch (err?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'body_too_large', `The body is larger than this server's limit of ${request.server.initialConfig.bodyLimit} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'content_type_unsupported', 'Unsupported Content-Type.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'json_invalid', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'json_invalid', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'body_invalid', 'Content-Length does not match the body.');
  }
  if (err?.name === 'SyntaxError') return new ApiError(400, 'json_invalid', 'The body is not valid JSON.');
  const status = err?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Other client errors from the framework (e.g. a forbidden __proto__ key). The message is not echoed: it may quote the body.
    return new ApiError(status === 408 || status === 413 || status === 415 ? status : 400, 'body_invalid', `The request could not be processed (${STATUS_CODES[status] ?? status}).`);
  }
  return new ApiError(500, 'internal_error', 'Internal server error. The request id is in the X-Request-Id header.');
}

function rawErrorResponse(error: ApiError, requestId: string = randomUUID()): string {
  const body = JSON.stringify(errorBody(error));
  const extra = Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n${extra}Connection: close\r\n\r\n${body}`;
}
