/**
 * Where compression runs. `PoolExecutor` is the real one: a piscina pool of worker threads. Tests may
 * pass any `Executor` (e.g. one that waits) to control timing; the server suite also runs the real pool.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { OptimizeTask, TaskOutcome } from './task';

/** `reserve` gave up: no worker started within the executor's start-up limit. */
export class NoWorkerError extends Error {
  override readonly name = 'NoWorkerError';
}

export interface Executor {
  /** Runs one task. Rejects with an `AbortError` (name) when `signal` aborts. */
  run(task: OptimizeTask, signal: AbortSignal): Promise<TaskOutcome>;
  /** Optional: get ready before the server listens. */
  warmUp?(): Promise<void>;
  /**
   * Optional: resolves once a started worker is free for one task, and keeps it for the next `run`
   * (call `run` right after). Rejects if `signal` aborts first. The server does not charge this wait to
   * the request's time limit: it is where a replacement worker's start-up goes. Rejects with
   * `NoWorkerError` if no worker is free within the executor's own start-up limit.
   */
  reserve?(signal: AbortSignal): Promise<void>;
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

/**
 * A piscina pool whose tasks start only on a started worker. Stopping a running task (its time limit)
 * terminates its thread; piscina starts the replacement at once, before any request needs it, and
 * `reserve` makes the next task wait for it outside its time limit instead of in piscina's queue.
 */
export class PoolExecutor implements Executor {
  private readonly pool: Piscina<OptimizeTask, TaskOutcome>;
  readonly threads: number;
  /** Started threads (piscina reports each once it has loaded the worker file, and each it destroys). */
  private started = 0;
  /** Tasks handed to the pool or reserved for the next `run`. */
  private busy = 0;
  private reserved = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly startTimeoutMs: number;

  /** `startTimeoutMs`: the longest `reserve` waits for a started worker (default 60 s; a worker that cannot start must not hang requests). */
  constructor(options: { workers: number; maxQueue: number; filename?: string; startTimeoutMs?: number }) {
    this.threads = options.workers;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.pool = new Piscina({
      filename: options.filename ?? defaultWorkerFile(),
      minThreads: options.workers,
      maxThreads: options.workers,
      // The server hands over at most one task per thread (it queues the rest itself); this is a backstop.
      maxQueue: Math.max(1, options.maxQueue + options.workers),
      idleTimeout: 60_000,
    });
    this.pool.on('workerCreate', () => {
      this.started++;
      this.wake();
    });
    this.pool.on('workerDestroy', () => {
      this.started--;
    });
  }

  /** Threads that have started and can take a task now or once their current one ends. */
  get startedThreads(): number {
    return this.started;
  }

  reserve(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    if (this.busy < this.started) {
      this.busy++;
      this.reserved++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.busy++;
        this.reserved++;
        resolve();
      };
      const leave = (error: Error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const index = this.waiting.indexOf(take);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(error);
      };
      const onAbort = () => leave(new Error('aborted'));
      const timer = setTimeout(() => leave(new NoWorkerError(`no worker started within ${this.startTimeoutMs} ms`)), this.startTimeoutMs);
      this.waiting.push(take);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async run(task: OptimizeTask, signal: AbortSignal): Promise<TaskOutcome> {
    if (this.reserved > 0) this.reserved--;
    else this.busy++;
    try {
      return await this.pool.run(task, { signal });
    } finally {
      this.busy--;
      this.wake();
    }
  }

  /** Hands free started threads to the tasks waiting in `reserve`, first come first served. */
  private wake(): void {
    while (this.waiting.length > 0 && this.busy < this.started) this.waiting.shift()!();
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
