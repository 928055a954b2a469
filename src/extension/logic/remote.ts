/**
 * Pure parts of the remote engine: endpoints, Retry-After, and turning HTTP outcomes into failures
 * with messages a user can act on. No key, prompt text or request body ever goes into a message.
 */

export type ApiVariant = 'A' | 'B';

/**
 * The optimize endpoint. `baseUrl` is the server's root; Variant A lives under `/v1`. A base that
 * already ends in `/v1` is accepted for Variant A (and stripped for Variant B).
 */
export function endpointFor(baseUrl: string, variant: ApiVariant): string {
  let root = baseUrl.trim().replace(/\/+$/, '');
  const hasV1 = /\/v1$/i.test(root);
  if (variant === 'A') return `${root}${hasV1 ? '' : '/v1'}/optimize`;
  if (hasV1) root = root.slice(0, -3);
  return `${root}/optimize`;
}

/** Checks the base URL setting; returns a message when it cannot be used. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  if (baseUrl.trim() === '') return 'Set promptOptimizer.remote.baseUrl to the server address (e.g. http://127.0.0.1:8787) to use the remote engine.';
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return `promptOptimizer.remote.baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `promptOptimizer.remote.baseUrl must start with http:// or https:// (got ${url.protocol}).`;
  if (url.username || url.password) return 'promptOptimizer.remote.baseUrl must not contain a user name or password; use Set API Key.';
  return undefined;
}

/**
 * Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or undefined.
 * `nowMs` is passed in for determinism.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export type RemoteFailureKind =
  | 'unauthorized'
  | 'rate_limited'
  | 'client'
  | 'server'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'invalid_response'
  | 'configuration'
  | 'no_key';

export interface RemoteFailure {
  readonly kind: RemoteFailureKind;
  readonly message: string;
  readonly status?: number | undefined;
  /** The server's machine-readable `error.code`, when it sent one. */
  readonly code?: string | undefined;
  readonly retryAfterSeconds?: number | undefined;
  /** True when running the local engine instead makes sense (the server is unreachable or failing). */
  readonly fallbackSuggested: boolean;
}

/** A server error body, already validated (`ErrorBody` in src/schemas), or undefined. */
export interface ServerError {
  readonly code: string;
  readonly message: string;
}

/** Maps a non-2xx answer to a failure. */
export function failureFromStatus(status: number, serverError: ServerError | undefined, retryAfterSeconds: number | undefined): RemoteFailure {
  const said = serverError ? ` The server said: ${serverError.message}` : '';
  const code = serverError?.code;
  if (status === 401 || status === 403) {
    return {
      kind: 'unauthorized',
      status,
      code,
      fallbackSuggested: false,
      message: `The Prompt Optimizer server refused the API key (${status}${code ? ` ${code}` : ''}). Set a valid key with "Prompt Optimizer: Set API Key".`,
    };
  }
  if (status === 429) {
    const wait = retryAfterSeconds !== undefined ? ` Try again in ${formatWait(retryAfterSeconds)}.` : ' Try again later.';
    // The local engine has no limit: offer it, as for a server that is down.
    return { kind: 'rate_limited', status, code, retryAfterSeconds, fallbackSuggested: true, message: `Too many requests to the Prompt Optimizer server (429).${wait}` };
  }
  if (status >= 500 || status === 408) {
    return { kind: 'server', status, code, retryAfterSeconds, fallbackSuggested: true, message: `The Prompt Optimizer server failed (${status}).${said}` };
  }
  return {
    kind: 'client',
    status,
    code,
    fallbackSuggested: false,
    message: serverError ? `The Prompt Optimizer server rejected the request (${status}): ${serverError.message}` : `The Prompt Optimizer server rejected the request (${status}).`,
  };
}

/**
 * Maps a thrown fetch error (no HTTP answer) to a failure. `pageOrigin` is the browser page's origin
 * when the extension runs in a browser: there a server without CORS for that origin looks exactly like
 * a server that is down ("Failed to fetch"), so the message names both causes.
 */
export function failureFromException(error: unknown, reason: 'timeout' | 'cancelled' | undefined, timeoutMs: number, endpoint: string, pageOrigin?: string): RemoteFailure {
  if (reason === 'cancelled') return { kind: 'cancelled', fallbackSuggested: false, message: 'Optimization cancelled.' };
  if (reason === 'timeout') {
    return { kind: 'timeout', fallbackSuggested: true, message: `The Prompt Optimizer server did not answer within ${timeoutMs} ms (${originOf(endpoint)}).` };
  }
  const detail = networkDetail(error);
  const reach = `Could not reach the Prompt Optimizer server at ${originOf(endpoint)}${detail ? ` (${detail})` : ''}.`;
  if (pageOrigin !== undefined) {
    return {
      kind: 'network',
      fallbackSuggested: true,
      message: `${reach} If the server is running, it must allow this page's origin, because VS Code runs in a browser here: start it with --cors-origins ${pageOrigin}.`,
    };
  }
  return { kind: 'network', fallbackSuggested: true, message: reach };
}

/** The scheme, host and port only: never paths or query strings in messages. */
export function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'the configured address';
  }
}

function networkDetail(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return code;
  return error.message && error.message !== 'fetch failed' ? error.message : undefined;
}
