import { availableParallelism } from 'node:os';

/** Everything the service can be configured with. Defaults in `DEFAULT_CONFIG`; env vars and flags in docs/server.md. */
export interface ServerConfig {
  host: string;
  port: number;
  /** Hashes of accepted keys, one per line; reloaded on SIGHUP and when the file changes. */
  keysFile?: string;
  /** Raw keys added at start (from PROMPT_OPTIMIZER_API_KEY or `--dev-key`); only their hashes are kept. */
  extraKeys: string[];
  /** Worker threads that run the compression. */
  workers: number;
  /** Requests allowed to wait for a worker beyond those running; above that the answer is 503 at once. */
  maxQueue: number;
  bodyLimitBytes: number;
  maxInputTokens: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Time allowed for one compression in a worker; the worker is stopped when it runs over. */
  taskTimeoutMs: number;
  /** Time allowed for a client to send the whole request (headers and body). */
  requestTimeoutMs: number;
  /** Time allowed for a client to send the request headers. */
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node checks connections for the two timeouts above. */
  connectionsCheckIntervalMs: number;
  /** Longest a graceful shutdown waits for in-flight requests before exiting anyway. */
  shutdownGraceMs: number;
  /** `redis://…` for shared rate-limit counters across instances (needs `ioredis` installed). */
  redisUrl?: string;
  /** With Redis unreachable: serve without a limit (true) instead of answering 503 (false, the default). */
  rateLimitFailOpen: boolean;
  /** Origins allowed to call from a browser (CORS), e.g. `https://vscode.dev`, or `*`. Empty: no CORS headers. */
  corsOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export const DEFAULT_CONFIG: ServerConfig = {
  host: '127.0.0.1',
  port: 8787,
  extraKeys: [],
  corsOrigins: [],
  workers: Math.max(1, availableParallelism()),
  maxQueue: 256,
  bodyLimitBytes: 1024 * 1024,
  maxInputTokens: 128_000,
  rateLimitMax: 60,
  rateLimitWindowMs: 60_000,
  taskTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckIntervalMs: 1_000,
  shutdownGraceMs: 10_000,
  rateLimitFailOpen: false,
  logLevel: 'info',
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Environment variables and the config field each one sets. */
export const ENV_VARS: Record<string, keyof ServerConfig> = {
  PROMPT_OPTIMIZER_HOST: 'host',
  PROMPT_OPTIMIZER_PORT: 'port',
  PROMPT_OPTIMIZER_KEYS_FILE: 'keysFile',
  PROMPT_OPTIMIZER_WORKERS: 'workers',
  PROMPT_OPTIMIZER_MAX_QUEUE: 'maxQueue',
  PROMPT_OPTIMIZER_BODY_LIMIT: 'bodyLimitBytes',
  PROMPT_OPTIMIZER_MAX_INPUT_TOKENS: 'maxInputTokens',
  PROMPT_OPTIMIZER_RATE_LIMIT: 'rateLimitMax',
  PROMPT_OPTIMIZER_RATE_LIMIT_WINDOW_MS: 'rateLimitWindowMs',
  PROMPT_OPTIMIZER_TASK_TIMEOUT_MS: 'taskTimeoutMs',
  PROMPT_OPTIMIZER_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
  PROMPT_OPTIMIZER_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  PROMPT_OPTIMIZER_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  PROMPT_OPTIMIZER_REDIS_URL: 'redisUrl',
  PROMPT_OPTIMIZER_RATE_LIMIT_FAIL_OPEN: 'rateLimitFailOpen',
  PROMPT_OPTIMIZER_CORS_ORIGINS: 'corsOrigins',
  PROMPT_OPTIMIZER_LOG_LEVEL: 'logLevel',
};

/** Command-line flags (`--name value`) and the config field each one sets. */
export const FLAGS: Record<string, keyof ServerConfig> = {
  host: 'host',
  port: 'port',
  'keys-file': 'keysFile',
  workers: 'workers',
  'max-queue': 'maxQueue',
  'body-limit': 'bodyLimitBytes',
  'max-input-tokens': 'maxInputTokens',
  'rate-limit': 'rateLimitMax',
  'rate-limit-window-ms': 'rateLimitWindowMs',
  'task-timeout-ms': 'taskTimeoutMs',
  'request-timeout-ms': 'requestTimeoutMs',
  'headers-timeout-ms': 'headersTimeoutMs',
  'shutdown-grace-ms': 'shutdownGraceMs',
  'redis-url': 'redisUrl',
  'rate-limit-fail-open': 'rateLimitFailOpen',
  'cors-origins': 'corsOrigins',
  'log-level': 'logLevel',
};

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host);
}

/**
 * Applies string settings (from env vars or flags) over a config, validating each one.
 * `source` names where a value came from in error messages.
 */
export function applySettings(base: ServerConfig, settings: Partial<Record<keyof ServerConfig, string>>, source: (field: keyof ServerConfig) => string): ServerConfig {
  const config: ServerConfig = { ...base, extraKeys: [...base.extraKeys], corsOrigins: [...base.corsOrigins] };
  for (const [field, raw] of Object.entries(settings) as [keyof ServerConfig, string | undefined][]) {
    if (raw === undefined) continue;
    const value = raw.trim();
    switch (field) {
      case 'host':
        if (!value) throw new ConfigError(`${source(field)} must not be empty.`);
        config.host = value;
        break;
      case 'keysFile':
      case 'redisUrl':
        config[field] = value || undefined;
        break;
      case 'logLevel':
        if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new ConfigError(`${source(field)} must be one of ${LOG_LEVELS.join(', ')}; got "${value}".`);
        config.logLevel = value as ServerConfig['logLevel'];
        break;
      case 'corsOrigins': {
        const origins = value.split(',').map((o) => o.trim()).filter(Boolean);
        const bad = origins.find((o) => o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o));
        if (bad) throw new ConfigError(`${source(field)} must be a comma-separated list of origins such as https://vscode.dev (scheme and host, no path), or *; got "${bad}".`);
        config.corsOrigins = origins;
        break;
      }
      case 'rateLimitFailOpen':
        if (!['true', 'false', '1', '0'].includes(value)) throw new ConfigError(`${source(field)} must be true or false; got "${value.slice(0, 64)}".`);
        config.rateLimitFailOpen = value === 'true' || value === '1';
        break;
      case 'extraKeys':
        break;
      default: {
        const min = field === 'port' || field === 'maxQueue' ? 0 : 1;
        const max = field === 'port' ? 65535 : Number.MAX_SAFE_INTEGER;
        if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
          throw new ConfigError(`${source(field)} must be a whole number from ${min} to ${max}; got "${value}".`);
        }
        config[field] = Number(value);
      }
    }
  }
  return config;
}

/** Reads the PROMPT_OPTIMIZER_* variables (PROMPT_OPTIMIZER_API_KEY is handled by the caller: it is a secret). */
export function configFromEnv(env: NodeJS.ProcessEnv, base: ServerConfig = DEFAULT_CONFIG): ServerConfig {
  const settings: Partial<Record<keyof ServerConfig, string>> = {};
  const names: Partial<Record<keyof ServerConfig, string>> = {};
  for (const [name, field] of Object.entries(ENV_VARS)) {
    if (env[name] !== undefined) {
      settings[field] = env[name];
      names[field] = name;
    }
  }
  return applySettings(base, settings, (field) => `Environment variable ${names[field]}`);
}
