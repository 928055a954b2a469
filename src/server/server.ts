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
import { connectRedis } from './redis';
import type { Redis } from 'ioredis';

/** How long after the grace period a close that still hangs is cut short (exit 1). */
const BACKSTOP_MS = 5_000;

export interface StartOptions {
  /** Defaults to a worker-thread pool of `config.workers` threads. */
  executor?: Executor;
  logStream?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT/SIGHUP handlers (the CLI does; in-process tests do not). */
  handleSignals?: boolean;
  /** An ioredis client for shared rate-limit counters (the caller closes it); default: from `config.redisUrl`, else in-memory. */
  redis?: unknown;
}

export interface RunningServer {
  app: FastifyInstance;
  /** `http://host:port` actually bound (port 0 resolves to the chosen one). */
  url: string;
  keys: KeyStore;
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const keys = new KeyStore(config.keysFile, config.extraKeys);
  const executor = options.executor ?? new PoolExecutor({ workers: config.workers, maxQueue: config.maxQueue });
  // The app's logger logs Redis state, so the client is made once the app exists (it connects in the background).
  let owned: Redis | undefined;
  const app = await buildApp({ config, keys, executor, logStream: options.logStream, redis: options.redis ?? (config.redisUrl ? (log) => (owned = connectRedis(config.redisUrl!, log)) : undefined) });
  app.addHook('onClose', async () => {
    keys.close();
    await executor.close();
    if (owned) await owned.quit().catch(() => owned!.disconnect());
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
  app.log.info({ url, workers: executor.threads, keys: keys.size, rateLimit: config.rateLimitMax, store: options.redis || owned ? 'redis' : 'memory' }, 'listening');

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
