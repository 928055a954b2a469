/**
 * Starts the service: builds the app, listens, reloads keys on SIGHUP and file changes, and closes
 * gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight requests, stop the workers, exit).
 */
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { ServerConfig } from './config';
import { PoolExecutor, type Executor } from './executor';
import { KeyStore } from './keys';

/** How long after the grace period a close that still hangs is cut short (exit 1). */
const BACKSTOP_MS = 5_000;

export interface StartOptions {
  /** Defaults to a worker-thread pool of `config.workers` threads. */
  executor?: Executor;
  logStream?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT/SIGHUP handlers (the CLI does; in-process tests do not). */
  handleSignals?: boolean;
  /** An ioredis client for shared rate-limit counters; default: from `config.redisUrl`, else in-memory. */
  redis?: unknown;
}

export interface RunningServer {
  app: FastifyInstance;
  /** `http://host:port` actually bound (port 0 resolves to the chosen one). */
  url: string;
  keys: KeyStore;
  close(): Promise<void>;
}

/** Connects to Redis through `ioredis`, which is not a dependency: install it where you need it. */
async function connectRedis(url: string): Promise<{ quit(): Promise<unknown> }> {
  const name = 'ioredis';
  let Redis: new (url: string, options: object) => { quit(): Promise<unknown> };
  try {
    const loaded = await import(name);
    Redis = loaded.default ?? loaded.Redis ?? loaded;
  } catch {
    throw new Error('PROMPT_OPTIMIZER_REDIS_URL is set but the "ioredis" package is not installed. Run "npm install ioredis" next to the server.');
  }
  // Fail fast instead of queueing commands while Redis is down (the rate limiter then answers 500, closed).
  return new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const keys = new KeyStore(config.keysFile, config.extraKeys);
  const redis = options.redis ?? (config.redisUrl ? await connectRedis(config.redisUrl) : undefined);
  const executor = options.executor ?? new PoolExecutor({ workers: config.workers, maxQueue: config.maxQueue });
  const app = await buildApp({ config, keys, executor, logStream: options.logStream, redis });
  app.addHook('onClose', async () => {
    keys.close();
    await executor.close();
    if (!options.redis && redis) await (redis as { quit(): Promise<unknown> }).quit().catch(() => {});
  });
  keys.watch();

  try {
    await executor.warmUp?.();
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  app.log.info({ url, workers: executor.threads, keys: keys.size, rateLimit: config.rateLimitMax, store: redis ? 'redis' : 'memory' }, 'listening');

  // Drain first (answers everything already sent, up to the grace period), then Fastify's close.
  const shutDown = async () => {
    await app.drain.run(config.shutdownGraceMs);
    await app.close();
  };

  let uninstall = () => {};
  if (options.handleSignals) {
    const onHangup = () => keys.reload();
    process.on('SIGHUP', onHangup);
    // The grace period ends the drain with 503s; this later deadline is only for a close that hangs.
    const grace = closeWithGrace({ delay: config.shutdownGraceMs + BACKSTOP_MS, skip: ['SIGHUP'], logger: { error: (message: unknown) => app.log.error({ detail: String(message) }, 'shutdown') } }, async ({ signal, err }) => {
      if (err) app.log.error({ err: { type: err.name, message: err.message, stack: err.stack } }, 'fatal error; shutting down');
      else app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      await shutDown();
      app.log.info('closed');
    });
    uninstall = () => {
      grace.uninstall();
      process.off('SIGHUP', onHangup);
    };
  }

  return {
    app,
    url,
    keys,
    async close() {
      uninstall();
      await shutDown();
    },
  };
}
