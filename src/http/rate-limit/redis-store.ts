import { Redis } from 'ioredis';
import { ApiError } from '../../domain/errors.ts';
import type { RateLimitStore } from './store.ts';

/**
 * A command Redis has not answered in this time fails: a request must not wait for a Redis that
 * is gone (the 503 of an outage comes within this plus the request's own work).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Retry-After of a 503 while Redis cannot be reached: its reconnection takes about a second. */
const REDIS_RETRY_AFTER_SECONDS = 2;

// INCR and the expiry in one script: one round trip, atomic across every instance of the service.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type RedisWithHit = Redis & { tmwHit(key: string, ttlMs: number): Promise<number> };

/** Counters shared by every instance that points at the same Redis. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  /**
   * `onError` hears about connection trouble (ioredis reconnects by itself; requests meanwhile fail
   * and are answered 503 `unavailable` by the error handler). Without a listener ioredis prints raw stacks.
   */
  constructor(url: string, onError: (error: Error) => void = () => {}) {
    const redis = new Redis(url, {
      enableAutoPipelining: true,
      // While disconnected a command fails at once instead of queueing until Redis is back: every
      // API request would otherwise wait for the whole outage.
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      // Reconnects forever, at most a second apart, so service resumes by itself when Redis does.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    redis.on('error', onError);
    redis.defineCommand('tmwHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(key: string, windowStartMs: number, windowMs: number): Promise<number> {
    // The window start is part of the key, so a new minute starts a new counter even if the expiry
    // of the old one is late; the expiry only cleans up.
    try {
      return Number(await this.redis.tmwHit(`tmw:rl:${key}:${windowStartMs}`, windowMs + 5_000));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (error) {
      throw unavailable(error);
    }
  }

  async close() {
    this.redis.disconnect();
  }
}

// ioredis's failures here (offline, "Command timed out", connection closed) carry no code that
// tells them apart from a bug: any failure of the store is an outage of the store.
function unavailable(cause: unknown): ApiError {
  return new ApiError(
    'unavailable',
    'The rate-limit store (Redis) cannot be reached; retry shortly.',
    { headers: { 'retry-after': String(REDIS_RETRY_AFTER_SECONDS) }, cause },
  );
}
