import { Redis } from 'ioredis';
import type { RateLimitStore } from './store.ts';

// INCR and the expiry in one script: one round trip, atomic across every instance of the service.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type RedisWithHit = Redis & { tmwHit(key: string, ttlMs: number): Promise<number> };

/** Counters shared by every instance that points at the same Redis (D6). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  /**
   * `onError` hears about connection trouble (ioredis reconnects by itself; requests meanwhile fail
   * and are answered 503 `unavailable` by the error handler). Without a listener ioredis prints raw stacks.
   */
  constructor(url: string, onError: (error: Error) => void = () => {}) {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    redis.on('error', onError);
    redis.defineCommand('tmwHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(key: string, windowStartMs: number, windowMs: number): Promise<number> {
    // The window start is part of the key, so a new minute starts a new counter even if the expiry
    // of the old one is late; the expiry only cleans up.
    return Number(await this.redis.tmwHit(`tmw:rl:${key}:${windowStartMs}`, windowMs + 5_000));
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close() {
    this.redis.disconnect();
  }
}
