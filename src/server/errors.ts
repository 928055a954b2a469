import type { ErrorBody, ErrorCode, ErrorType } from '../schemas/index';

/** An error the service answers with on purpose: a status, a stable code and a message safe to show. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorTypeFor(statusCode: number): ErrorType {
  if (statusCode === 401) return 'authentication_error';
  if (statusCode === 429) return 'rate_limit_error';
  if (statusCode >= 500) return 'api_error';
  return 'invalid_request_error';
}

export function errorBody(error: ApiError): ErrorBody {
  return { error: { type: errorTypeFor(error.statusCode), code: error.code, message: error.message, param: error.param } };
}

/** Longest request value an error message repeats. */
export const ECHO_LIMIT = 64;

/**
 * A request value as an error message may show it: at most 64 characters, JSON-quoted, with `<`, `>`
 * and `&` escaped, so a message never carries a huge or markup-bearing value.
 */
export function quote(value: string): string {
  const capped = value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value;
  return JSON.stringify(capped).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces the core's raw echo of `value` in `message` (as "value" or its JSON form) with `quote(value)`. */
export function capEcho(message: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') return message;
  return message.split(JSON.stringify(value)).join(quote(value)).split(`"${value}"`).join(quote(value));
}
