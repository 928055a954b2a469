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
