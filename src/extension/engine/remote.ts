/**
 * The remote engine: the project's HTTP service, Variant A (`/v1/optimize`) or B (`/optimize`).
 * Requests and responses are checked with the service's own zod schemas (src/schemas). The API key is
 * passed in per call and used only for the Authorization header.
 */
import { ErrorBody, VariantAResponse, VariantBResponse, type VariantARequest, type VariantBRequest } from '../../schemas';
import { endpointFor, failureFromException, failureFromStatus, parseRetryAfter, type ApiVariant, type ServerError } from '../logic/remote';
import { cancelled, EngineError, type EngineRequest, type EngineResult } from './types';

export interface RemoteSettings {
  readonly baseUrl: string;
  readonly apiVariant: ApiVariant;
  readonly timeoutMs: number;
}

export interface RemoteDeps {
  /** The core's `resolveBudget`: a budget (tokens or "40%") to tokens, given the original count. */
  readonly resolveBudget: (budget: number | string, originalTokens: number) => number;
  /** Tokens of `text` for Variant A, which counts with gpt-4o's encoding and accepts only token budgets. */
  readonly countForVariantA: (text: string) => number;
  readonly fetch?: typeof fetch;
  /** The browser page's origin when the extension runs in a browser (see failureFromException). */
  readonly pageOrigin?: string | undefined;
  readonly now?: () => number;
}

export async function optimizeRemotely(request: EngineRequest, settings: RemoteSettings, apiKey: string, signal: AbortSignal, deps: RemoteDeps): Promise<EngineResult> {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const endpoint = endpointFor(settings.baseUrl, settings.apiVariant);

  let budgetTokens: number | undefined;
  let body: VariantARequest | VariantBRequest;
  if (settings.apiVariant === 'A') {
    budgetTokens = typeof request.budget === 'number' ? request.budget : deps.resolveBudget(request.budget, deps.countForVariantA(request.text));
    body = { prompt: request.text, budget: budgetTokens, mode: request.mode };
  } else {
    body = { text: request.text, budget: request.budget, model: request.model, ...(request.task ? { task: request.task } : {}) };
  }
  if (signal.aborted) throw cancelled();

  const controller = new AbortController();
  let reason: 'timeout' | 'cancelled' | undefined;
  const onAbort = (): void => {
    reason ??= 'cancelled';
    controller.abort();
  };
  signal.addEventListener('abort', onAbort);
  const timer = setTimeout(() => {
    reason ??= 'timeout';
    controller.abort();
  }, settings.timeoutMs);

  try {
    let response: Response;
    try {
      response = await doFetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${apiKey}` },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      throw new EngineError(failureFromException(error, reason, settings.timeoutMs, endpoint, deps.pageOrigin));
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      if (reason) throw new EngineError(failureFromException(error, reason, settings.timeoutMs, endpoint, deps.pageOrigin));
      json = undefined;
    }
    if (!response.ok) {
      const parsed = ErrorBody.safeParse(json);
      const serverError: ServerError | undefined = parsed.success ? { code: parsed.data.error.code, message: parsed.data.error.message } : undefined;
      throw new EngineError(failureFromStatus(response.status, serverError, parseRetryAfter(response.headers.get('retry-after'), now())));
    }
    return settings.apiVariant === 'A' ? fromVariantA(json, budgetTokens) : fromVariantB(json, request.budget, deps.resolveBudget);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function invalidResponse(issues: string): EngineError {
  return new EngineError({ kind: 'invalid_response', fallbackSuggested: true, message: `The Prompt Optimizer server sent an unexpected response (${issues}). Check promptOptimizer.remote.apiVariant.` });
}

function fromVariantA(json: unknown, budgetTokens: number | undefined): EngineResult {
  const parsed = VariantAResponse.safeParse(json);
  if (!parsed.success) throw invalidResponse(parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  const { text, stats, latency_ms } = parsed.data;
  return {
    text,
    originalTokens: stats.original_tokens,
    optimizedTokens: stats.optimized_tokens,
    budgetTokens,
    softLimitEnforced: budgetTokens !== undefined && stats.optimized_tokens > budgetTokens,
    latencyMs: latency_ms,
    engine: 'remote',
  };
}

function fromVariantB(json: unknown, budget: number | string, resolveBudget: RemoteDeps['resolveBudget']): EngineResult {
  const parsed = VariantBResponse.safeParse(json);
  if (!parsed.success) throw invalidResponse(parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  const data = parsed.data;
  return {
    text: data.optimized_text,
    originalTokens: data.original_tokens,
    optimizedTokens: data.optimized_tokens,
    budgetTokens: resolveBudget(budget, data.original_tokens),
    softLimitEnforced: data.soft_limit_enforced,
    latencyMs: data.latency_ms,
    engine: 'remote',
  };
}
