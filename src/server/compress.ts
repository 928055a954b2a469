/**
 * One compression as the routes run it: cheap checks on the event loop, a place in line (WorkSlots), a
 * started worker, and the per-request time limit, with each way out mapped to its answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodingForModel, isOptimizeError, validateBudget } from '../core/index';
import type { ServerConfig } from './config';
import { ApiError, capEcho } from './errors';
import { NoWorkerError, type Executor } from './executor';
import type { Drain } from './shutdown';
import type { WorkSlots } from './slots';
import type { OptimizeTask, TaskResult } from './task';

export const round2 = (value: number) => Math.round(value * 100) / 100;

export function shuttingDown(): ApiError {
  return new ApiError(503, 'shutting_down', 'The server is shutting down; retry on another instance.', null, { 'Retry-After': '1' });
}

/** A timer that can be paused: the time limit does not run while a replacement worker starts. */
export class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private left: number;
  private since = 0;

  constructor(
    ms: number,
    private readonly expire: () => void,
  ) {
    this.left = ms;
    this.resume();
  }

  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left -= performance.now() - this.since;
  }

  resume(): void {
    if (this.timer) return;
    this.since = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, this.left));
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export interface CompressDeps {
  config: ServerConfig;
  executor: Executor;
  slots: WorkSlots;
  drain: Drain;
}

export type Compress = (request: FastifyRequest, reply: FastifyReply, task: Omit<OptimizeTask, 'maxInputTokens'>, textParam: string) => Promise<TaskResult>;

export function makeCompress({ config, executor, slots, drain }: CompressDeps): Compress {
  return async (request, reply, task, textParam) => {
    const param = (name: string) => (name === 'text' ? textParam : name);
    // Cheap checks on the event loop, so a bad model or budget never waits for a worker.
    try {
      if (task.model !== undefined) encodingForModel(task.model);
      if (task.budget !== undefined) validateBudget(task.budget);
    } catch (error) {
      if (isOptimizeError(error)) throw new ApiError(400, error.code, capEcho(error.message, error.param === 'model' ? task.model : task.budget), param(error.param));
      throw error;
    }
    if (slots.full) {
      throw new ApiError(503, 'overloaded', 'The server is at capacity; retry shortly.', null, { 'Retry-After': '1' });
    }
    // The time limit covers waiting in line and running, not a replacement worker's start-up. Leaving the
    // line is free; stopping a running task restarts its worker, so only the time limit does that, never a
    // client that went away.
    const timeLimit = new AbortController();
    const stopWaiting = new AbortController();
    let timedOut = false;
    const deadline = new Deadline(config.taskTimeoutMs, () => {
      timedOut = true;
      timeLimit.abort();
      stopWaiting.abort();
    });
    const onClose = () => {
      if (!reply.raw.writableFinished) stopWaiting.abort();
    };
    reply.raw.once('close', onClose);
    // Past the shutdown grace period, whatever is still waiting or running is answered 503.
    let shutDown = false;
    const onShutdown = () => {
      shutDown = true;
      timeLimit.abort();
      stopWaiting.abort();
    };
    drain.deadlineSignal.addEventListener('abort', onShutdown, { once: true });
    if (drain.deadlineSignal.aborted) onShutdown();
    const tooSlow = () =>
      shutDown ? shuttingDown() : new ApiError(503, 'processing_timeout', `Optimizing this prompt took longer than the server's limit of ${config.taskTimeoutMs} ms; send a shorter prompt.`);
    const gone = () => new ApiError(408, 'request_timeout', 'The client closed the connection before a worker was free.');
    let outcome;
    try {
      try {
        await slots.acquire(stopWaiting.signal);
      } catch {
        if (timedOut || shutDown) throw tooSlow();
        throw gone();
      }
      try {
        if (executor.reserve) {
          // A worker's start-up is not charged to the time limit (the executor bounds it on its own).
          deadline.pause();
          try {
            await executor.reserve(stopWaiting.signal);
          } catch (error) {
            if (shutDown) throw tooSlow();
            if (error instanceof NoWorkerError) throw new ApiError(503, 'overloaded', 'No worker could be started; retry shortly.', null, { 'Retry-After': '1' });
            throw gone();
          }
          deadline.resume();
        }
        outcome = await executor.run({ ...task, maxInputTokens: config.maxInputTokens }, timeLimit.signal);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (timedOut || shutDown) throw tooSlow();
        throw error;
      } finally {
        slots.release();
      }
    } finally {
      deadline.clear();
      reply.raw.off('close', onClose);
      drain.deadlineSignal.removeEventListener('abort', onShutdown);
    }
    if (!outcome.ok) throw new ApiError(400, outcome.error.code, outcome.error.message, param(outcome.error.param));
    const r = outcome.result;
    request.tokenStats = { original: r.originalTokens, optimized: r.optimizedTokens, budget: r.budgetTokens };
    reply.headers({ 'X-Budget-Tokens': String(r.budgetTokens), 'X-Tokenizer-Encoding': r.encoding, 'X-Compute-Ms': String(round2(r.latencyMs)) });
    return r;
  };
}
