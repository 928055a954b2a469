import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applySettings, ConfigError, configFromEnv, DEFAULT_CONFIG, FLAGS, isLoopback, type ServerConfig } from '../../server/config';
import { generateKey, isWellFormedKey } from '../../server/keys';
import { CliFailure, CliUsageError, EXIT, type CliCommand } from '../command';

/** Used when neither --keys-file nor PROMPT_OPTIMIZER_KEYS_FILE is given and it exists (what `keys create` writes by default). */
export const DEFAULT_KEYS_FILE = 'prompt-optimizer-keys.txt';

const d = DEFAULT_CONFIG;
const usage = `Usage: prompt-optimizer serve [options]

Starts the HTTP service (POST /v1/optimize, POST /optimize, GET /healthz, GET /openapi.json).
Logs are JSON lines on stdout; the line with "msg":"listening" carries the bound "url".
SIGTERM or SIGINT: stop accepting, finish in-flight requests, exit. SIGHUP: reload the keys file.

Options (each also an environment variable, shown after it; flags win):
      --host HOST              Interface to bind. Default ${d.host}; anything else (e.g. 0.0.0.0)
                               must be asked for explicitly.                 PROMPT_OPTIMIZER_HOST
      --port N                 Port, 0 for any free one. Default ${d.port}.     PROMPT_OPTIMIZER_PORT
      --keys-file FILE         Accepted key hashes (see 'prompt-optimizer keys'). Default
                               ./${DEFAULT_KEYS_FILE} when it exists.     PROMPT_OPTIMIZER_KEYS_FILE
      --workers N              Worker threads. Default: one per core.        PROMPT_OPTIMIZER_WORKERS
      --max-queue N            Requests waiting for a worker before answering 503. Default ${d.maxQueue}.
                                                                             PROMPT_OPTIMIZER_MAX_QUEUE
      --body-limit BYTES       Largest request body. Default ${d.bodyLimitBytes} (1 MiB). PROMPT_OPTIMIZER_BODY_LIMIT
      --max-input-tokens N     Largest prompt in tokens. Default ${d.maxInputTokens}.  PROMPT_OPTIMIZER_MAX_INPUT_TOKENS
      --rate-limit N           Requests per key per window. Default ${d.rateLimitMax}.   PROMPT_OPTIMIZER_RATE_LIMIT
      --rate-limit-window-ms N Window length. Default ${d.rateLimitWindowMs}.        PROMPT_OPTIMIZER_RATE_LIMIT_WINDOW_MS
      --task-timeout-ms N      Longest compression of one prompt. Default ${d.taskTimeoutMs}.
                                                                             PROMPT_OPTIMIZER_TASK_TIMEOUT_MS
      --request-timeout-ms N   Longest time to receive a whole request. Default ${d.requestTimeoutMs}.
                                                                             PROMPT_OPTIMIZER_REQUEST_TIMEOUT_MS
      --headers-timeout-ms N   Longest time to receive the headers. Default ${d.headersTimeoutMs}.
                                                                             PROMPT_OPTIMIZER_HEADERS_TIMEOUT_MS
      --shutdown-grace-ms N    Longest wait for in-flight requests on shutdown. Default ${d.shutdownGraceMs}.
                                                                             PROMPT_OPTIMIZER_SHUTDOWN_GRACE_MS
      --redis-url URL          Share rate-limit counters between instances (needs 'npm install ioredis').
                                                                             PROMPT_OPTIMIZER_REDIS_URL
      --cors-origins LIST      Browser origins allowed to call (CORS), comma-separated, e.g.
                               https://vscode.dev, or *. Default none.      PROMPT_OPTIMIZER_CORS_ORIGINS
      --log-level LEVEL        fatal, error, warn, info, debug, trace or silent. Default ${d.logLevel}.
                                                                             PROMPT_OPTIMIZER_LOG_LEVEL
      --dev-key                Create a tk_test_ key for this run only and print it once on stderr.
  -h, --help                   Show this help.

PROMPT_OPTIMIZER_API_KEY=tk_… adds one accepted key (for development and tests).

Exit status: 0 after a graceful shutdown, 1 could not start (port in use, worker failed, shutdown
deadline passed), 2 bad arguments or environment variables.

Examples:
  prompt-optimizer keys create --test && prompt-optimizer serve
  PROMPT_OPTIMIZER_API_KEY=tk_test_... prompt-optimizer serve --port 0 --workers 1
  prompt-optimizer serve --host 0.0.0.0 --keys-file /etc/prompt-optimizer/keys.txt
`;

/** Resolves the configuration from defaults, environment variables and flags (flags win). */
export function resolveServeConfig(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): { config: ServerConfig; devKey: string | undefined } {
  const options = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }]));
  const { values } = parseArgs({ args: [...args], strict: true, allowPositionals: false, options: { ...options, 'dev-key': { type: 'boolean', default: false } } });
  let config: ServerConfig;
  try {
    config = configFromEnv(env);
    const settings: Partial<Record<keyof ServerConfig, string>> = {};
    for (const [flag, field] of Object.entries(FLAGS)) {
      const value = (values as Record<string, unknown>)[flag];
      if (typeof value === 'string') settings[field] = value;
    }
    config = applySettings(config, settings, (field) => `--${Object.keys(FLAGS).find((flag) => FLAGS[flag] === field)}`);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliUsageError(error.message);
    throw error;
  }
  if (config.keysFile) config.keysFile = resolve(cwd, config.keysFile);
  else if (existsSync(resolve(cwd, DEFAULT_KEYS_FILE))) config.keysFile = resolve(cwd, DEFAULT_KEYS_FILE);

  const envKey = env.PROMPT_OPTIMIZER_API_KEY?.trim();
  if (envKey) {
    if (!isWellFormedKey(envKey)) throw new CliUsageError('PROMPT_OPTIMIZER_API_KEY is malformed: it must be tk_live_ or tk_test_ followed by at least 32 URL-safe characters (A-Z a-z 0-9 _ -).');
    config.extraKeys.push(envKey);
  }
  let devKey: string | undefined;
  if (values['dev-key']) {
    devKey = generateKey('test');
    config.extraKeys.push(devKey);
  }
  return { config, devKey };
}

export const command: CliCommand = {
  name: 'serve',
  summary: 'Run the HTTP service (both API variants) on 127.0.0.1:8787',
  usage,
  async run(args, io) {
    const { config, devKey } = resolveServeConfig(args, io.env, io.cwd);
    if (!isLoopback(config.host)) io.stderr.write(`prompt-optimizer serve: binding to ${config.host}: reachable from other machines.\n`);
    if (devKey) io.stderr.write(`Development API key for this run (shown once, not stored):\n  ${devKey}\n`);
    if (!config.keysFile && config.extraKeys.length === 0) {
      io.stderr.write(`prompt-optimizer serve: no API keys configured, every optimize request will get 401. Create one with 'prompt-optimizer keys create', or use --dev-key.\n`);
    }
    // Loaded here, not at the top: other commands should not pay for loading Fastify.
    const { startServer } = await import('../../server/server');
    let server;
    try {
      server = await startServer(config, { handleSignals: true, logStream: io.stdout });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new CliFailure(`port ${config.port} on ${config.host} is already in use (try --port 0 or another port)`);
      if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliFailure(`cannot listen on ${config.host}:${config.port} (${code})`);
      throw new CliFailure(error instanceof Error ? error.message : String(error));
    }
    // Resolves when the server has closed (after SIGTERM/SIGINT); close-with-grace then exits the process.
    await new Promise<void>((done) => server.app.server.once('close', () => done()));
    return EXIT.OK;
  },
};
