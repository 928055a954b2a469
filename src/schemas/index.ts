/**
 * Wire schemas of the HTTP service, shared by the server (validation, serialization, OpenAPI) and the
 * extension's remote client. Only `zod` and core constants: no Node, no Fastify, so it bundles for a
 * web extension too.
 *
 * Field names are snake_case on the wire; everything else in the code base is camelCase.
 */
import { z } from 'zod';
import { DEFAULT_BUDGET, MAX_BUDGET_TOKENS } from '../core/budget';
import { DEFAULT_MODEL } from '../core/models';

// The agent tools (MCP server, VS Code Language Model Tools) share this module too.
export * from './tools';

// ---------------------------------------------------------------------------------------------------
// Shared pieces

const TOKENS_BUDGET_MESSAGE = `budget must be a whole number of tokens from 1 to ${MAX_BUDGET_TOKENS} (500 or "500")`;

/** A budget in tokens: an integer from 1 to MAX_BUDGET_TOKENS. */
export const TokenBudget = z
  .number({ error: TOKENS_BUDGET_MESSAGE })
  .int({ error: TOKENS_BUDGET_MESSAGE })
  .min(1, { error: TOKENS_BUDGET_MESSAGE })
  .max(MAX_BUDGET_TOKENS, { error: TOKENS_BUDGET_MESSAGE });

/**
 * A budget in tokens as a string of digits ("1000"): some clients send every value as a string (the
 * Trunkate agent skill's client sends `"budget": "1000"`). Only the shape is checked here; the range
 * (1 to MAX_BUDGET_TOKENS, as for a number) is the core's `validateBudget`, which the server runs on
 * every budget before compressing. No sign, point, exponent or spaces.
 */
export const TOKEN_BUDGET_STRING_PATTERN = /^\d+$/;
export const TokenBudgetString = z
  .string({ error: TOKENS_BUDGET_MESSAGE })
  .regex(TOKEN_BUDGET_STRING_PATTERN, { error: TOKENS_BUDGET_MESSAGE })
  .describe(`A whole number of tokens from 1 to ${MAX_BUDGET_TOKENS} as a string of digits, e.g. "1000".`);

/** A budget as a share of the original token count: "40%", "12.5%". Range (0, 100] is checked by the core. */
export const PERCENT_BUDGET_PATTERN = /^(\d+(\.\d+)?|\.\d+)%$/;
const ANY_BUDGET_MESSAGE = 'budget must be a number of tokens (500 or "500") or a percentage string such as "40%"';
export const PercentBudget = z.string({ error: ANY_BUDGET_MESSAGE }).regex(PERCENT_BUDGET_PATTERN, { error: ANY_BUDGET_MESSAGE });

export const Mode = z.enum(['relaxed', 'strict'], { error: 'mode must be "relaxed" or "strict"' });
export type Mode = z.infer<typeof Mode>;

/** Messages for object-level issues: a body that is not an object, or one with fields the API does not define. */
function objectError(issue: { code?: string; keys?: readonly string[] }): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys && issue.keys.length > 1 ? 's' : ''}: ${(issue.keys ?? []).join(', ')}`;
  return 'request body must be a JSON object';
}

const Latency = z.number().nonnegative().describe('Server-side processing time in milliseconds (may be fractional).');
const Tokens = z.number().int().nonnegative();

// ---------------------------------------------------------------------------------------------------
// Variant A: POST /v1/optimize (JSON or application/x-www-form-urlencoded)

export const VariantARequest = z
  .strictObject(
    {
      prompt: z.string({ error: 'prompt must be a string' }).describe('The prompt to shorten.'),
      budget: z
        .union([TokenBudget, TokenBudgetString], { error: TOKENS_BUDGET_MESSAGE })
        .optional()
        .describe(`Target size in tokens (gpt-4o encoding): a number (1000) or a string of digits ("1000"). Default ${DEFAULT_BUDGET}.`),
      mode: Mode.optional().describe('"relaxed" (default): the budget is a target. "strict": the budget is a ceiling.'),
    },
    { error: objectError },
  )
  .describe('Variant A request. budget is a number or a string of digits; in a form-encoded body, a string of digits.');
export type VariantARequest = z.infer<typeof VariantARequest>;

/** Variant A as `application/x-www-form-urlencoded`: the same fields, budget as a decimal string. Empty fields count as absent. */
export const VariantAFormRequest = z
  .strictObject({
    prompt: z.string().describe('The prompt to shorten.'),
    budget: TokenBudgetString.optional().describe(`Target size in tokens, as a string of digits (no spaces). Default ${DEFAULT_BUDGET}.`),
    mode: Mode.optional(),
  })
  .describe('Variant A request, form-encoded.');

export const VariantAResponse = z
  .strictObject({
    text: z.string().describe('The optimized prompt.'),
    stats: z.strictObject({
      original_tokens: Tokens,
      optimized_tokens: Tokens,
      reduction: z.number().describe('Percentage of tokens removed, 0 to 100; may be fractional.'),
    }),
    latency_ms: Latency,
  })
  .describe('Variant A response.');
export type VariantAResponse = z.infer<typeof VariantAResponse>;

// ---------------------------------------------------------------------------------------------------
// Variant B: POST /optimize (JSON only)

export const VariantBRequest = z
  .strictObject(
    {
      text: z.string({ error: 'text must be a string' }).describe('The prompt to shorten.'),
      task: z.string({ error: 'task must be a string' }).optional().describe('What the prompt is for; ranking prefers content relevant to it.'),
      budget: z
        .union([TokenBudget, TokenBudgetString, PercentBudget], { error: ANY_BUDGET_MESSAGE })
        .optional()
        .describe(`Tokens (500 or "500") or a share of the original ("40%", above 0 and at most 100). Default ${DEFAULT_BUDGET} tokens.`),
      model: z.string({ error: 'model must be a string' }).optional().describe(`Target model; decides the tokenizer. Default "${DEFAULT_MODEL}".`),
    },
    { error: objectError },
  )
  .describe('Variant B request.');
export type VariantBRequest = z.infer<typeof VariantBRequest>;

export const VariantBResponse = z
  .strictObject({
    optimized_text: z.string(),
    original_tokens: Tokens,
    optimized_tokens: Tokens,
    reduction_percent: z.number().describe('Percentage of tokens removed, 0 to 100; may be fractional.'),
    latency_ms: Latency,
    soft_limit_enforced: z.boolean().describe('True exactly when the requested budget was too small and the fallback was used.'),
  })
  .describe('Variant B response.');
export type VariantBResponse = z.infer<typeof VariantBResponse>;

// ---------------------------------------------------------------------------------------------------
// Errors: one body shape for every non-2xx answer

export const ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'rate_limit_error', 'api_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** Every `error.code` the service sends. Clients may switch on these; new codes may be added. */
export const ERROR_CODES = [
  // 400
  'json_invalid',
  'body_invalid',
  'param_missing',
  'param_unknown',
  'text_invalid',
  'text_too_long',
  'budget_invalid',
  'mode_invalid',
  'model_unsupported',
  'task_invalid',
  'json_duplicate_key',
  'encoding_invalid',
  'authorization_duplicate',
  'path_invalid',
  // 401
  'key_missing',
  'key_malformed',
  'key_invalid',
  // 404, 405, 408, 413, 415
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'body_too_large',
  'content_type_unsupported',
  // 429, 5xx
  'rate_limited',
  'overloaded',
  'processing_timeout',
  'shutting_down',
  'rate_limit_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      type: z.enum(ERROR_TYPES),
      code: z.string().describe('Machine-readable reason; see the errors table in docs/server.md.'),
      message: z.string().describe('Human-readable explanation. Never contains a stack trace.'),
      param: z.string().nullable().describe('The request field at fault, or null.'),
    }),
  })
  .describe('The body of every error response.');
export type ErrorBody = z.infer<typeof ErrorBody>;

export const HealthResponse = z.strictObject({ status: z.literal('ok') }).describe('Health check.');
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Paths and methods of the published API (for clients and the server's 405 answers). */
export const ROUTES = {
  variantA: { method: 'POST', path: '/v1/optimize' },
  variantB: { method: 'POST', path: '/optimize' },
  health: { method: 'GET', path: '/healthz' },
  readiness: { method: 'GET', path: '/readyz' },
  openapi: { method: 'GET', path: '/openapi.json' },
} as const;

/** Key format: `tk_live_` or `tk_test_` followed by at least 32 URL-safe characters. */
export const API_KEY_PATTERN = /^tk_(live|test)_[A-Za-z0-9_-]{32,}$/;
