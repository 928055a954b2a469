/**
 * Shared rate-limit counters in Redis (ioredis), for several instances behind one load balancer.
 * Redis state changes are logged as structured lines (`{"redis":"ready"|"down",…}`) instead of ioredis'
 * own "[ioredis] Unhandled error event" output, and a failing counter becomes 503
 * `rate_limit_unavailable` with Retry-After rather than a 500.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { ApiError } from './errors';

/** @fastify/rate-limit's own Redis store (its Lua script); wrapped below, not re-implemented. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, prefix: string) => CounterStore = require('@fastify/rate-limit/store/RedisStore');

type Done = (error: Error | null, result: { current: number; ttl: number } | null) => void;
interface CounterStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  read?(key: string, done: Done, timeWindow: number, max: number): void;
}

export const REDIS_PREFIX = 'prompt-optimizer-rl-';

export function countersUnavailable(): ApiError {
  return new ApiError(503, 'rate_limit_unavailable', 'The rate-limit store (Redis) is unreachable; retry shortly.', null, { 'Retry-After': '1' });
}

/** Connects without queueing commands while Redis is down (they fail at once), and reconnects forever. */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  watchRedis(redis, log);
  return redis;
}

/** Logs each change between ready and down once, with the reason. Listening to 'error' also keeps ioredis quiet. */
export function watchRedis(redis: Redis, log: FastifyBaseLogger): void {
  let state: 'connecting' | 'ready' | 'down' = 'connecting';
  const become = (next: 'ready' | 'down', reason?: string) => {
    if (next === state) return;
    const was = state;
    state = next;
    if (next === 'ready') log.info({ redis: 'ready', was }, 'redis state');
    else log.warn({ redis: 'down', was, reason: reason ?? null }, 'redis state');
  };
  redis.on('ready', () => become('ready'));
  redis.on('error', (error: NodeJS.ErrnoException) => become('down', error.code ?? error.message));
  redis.on('close', () => become('down', 'connection closed'));
}

export function redisReady(redis: unknown): boolean {
  return (redis as Redis).status === 'ready';
}

/** A store class for @fastify/rate-limit: its Redis store, with failures turned into 503 rate_limit_unavailable. */
export function sharedCountersStore(redis: unknown): new () => CounterStore {
  const wrap =
    (done: Done): Done =>
    (error, result) =>
      done(error ? countersUnavailable() : null, result);
  return class SharedCounters implements CounterStore {
    private readonly inner = new RedisStore(false, false, redis as Redis, REDIS_PREFIX);
    incr(key: string, done: Done, timeWindow: number, max: number) {
      this.inner.incr(key, wrap(done), timeWindow, max);
    }
    read(key: string, done: Done, timeWindow: number, max: number) {
      this.inner.read!(key, wrap(done), timeWindow, max);
    }
  };
}
