/**
 * Where compression runs. `PoolExecutor` is the real one: a piscina pool of worker threads. Tests may
 * pass any `Executor` (e.g. one that waits) to control timing; the server suite also runs the real pool.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { OptimizeTask, TaskOutcome } from './task';

export interface Executor {
  /** Runs one task. Rejects with an `AbortError` (name) when `signal` aborts. */
  run(task: OptimizeTask, signal: AbortSignal): Promise<TaskOutcome>;
  /** Optional: get ready before the server listens. */
  warmUp?(): Promise<void>;
  /** Worker threads (for capacity: running + queued may not exceed threads + maxQueue). */
  readonly threads: number;
  close(): Promise<void>;
}

/**
 * The worker file: `server-worker.js` next to the running bundle (dist/cli.js → dist/server-worker.js),
 * else this folder's `worker.ts`, which loads when the process runs under tsx (tests, `npm run serve`).
 */
export function defaultWorkerFile(): string {
  const built = join(__dirname, 'server-worker.js');
  if (existsSync(built)) return built;
  const source = join(__dirname, 'worker.ts');
  if (existsSync(source)) return source;
  throw new Error(`Worker file not found: looked for ${built} and ${source}. Run "npm run build".`);
}

export class PoolExecutor implements Executor {
  private readonly pool: Piscina<OptimizeTask, TaskOutcome>;
  readonly threads: number;

  constructor(options: { workers: number; maxQueue: number; filename?: string }) {
    this.threads = options.workers;
    this.pool = new Piscina({
      filename: options.filename ?? defaultWorkerFile(),
      minThreads: options.workers,
      maxThreads: options.workers,
      // The server hands over at most one task per thread (it queues the rest itself); this is a backstop.
      maxQueue: Math.max(1, options.maxQueue + options.workers),
      idleTimeout: 60_000,
    });
  }

  run(task: OptimizeTask, signal: AbortSignal): Promise<TaskOutcome> {
    return this.pool.run(task, { signal });
  }

  /** Resolves once every thread is up and has loaded the core (so the first requests are not slow). */
  async warmUp(): Promise<void> {
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: this.threads }, () => this.run({ text: 'warm up', maxInputTokens: 100 }, signal)));
  }

  async close(): Promise<void> {
    await this.pool.close({ force: false });
    await this.pool.destroy();
  }
}
