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

/**
 * The time a hit has to reach Redis, counted from when it is sent: less than the command time-out
 * by the reply's way back, so that a hit counts only when its request is answered by it. A command
 * written to a Redis that is frozen (SIGSTOP, a stalled disk or fork, a starved CPU) waits in its
 * socket and runs when Redis resumes, long after its request was answered 503: counted then, a
 * burst refused during the outage would fill the window, and the client's next requests would get
 * 429 for the rest of the minute.
 */
const HIT_DEADLINE_MS = REDIS_COMMAND_TIMEOUT_MS - 200;

// INCR and the expiry in one script: one round trip, atomic across every instance of the service.
// ARGV[2] is the hit's deadline on Redis's clock (0: none): past it, nothing is counted and the
// answer says so (-1). Redis's own time is read with TIME, which scripts may call before a write
// since Redis 5 (effects replication); both return values are integers.
const HIT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = tonumber(ARGV[2])
if deadline > 0 and now > deadline then return {-1, now} end
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, now}`;

type RedisWithHit = Redis & {
  tmwHit(key: string, ttlMs: number, deadline: number): Promise<[number, number]>;
};

/** Counters shared by every instance that points at the same Redis. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  /**
   * Redis's clock minus this process's monotonic one (performance.now), from Redis's last answer:
   * a hit's deadline is set on Redis's clock, so the two machines' clocks need not agree. Unknown
   * until Redis first answers (then a hit has no deadline).
   */
  private offsetMs: number | undefined;

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
    // Each (re)connection learns the clocks' offset before the first hit needs it.
    redis.on('ready', () => {
      redis.time().then(
        ([seconds, micros]) => this.learnOffset(Number(seconds) * 1000 + Number(micros) / 1000),
        () => {},
      );
    });
    redis.defineCommand('tmwHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  private learnOffset(redisNowMs: number) {
    this.offsetMs = redisNowMs - performance.now();
  }

  async hit(key: string, windowStartMs: number, windowMs: number): Promise<number> {
    const deadline =
      this.offsetMs === undefined
        ? 0
        : Math.floor(performance.now() + this.offsetMs + HIT_DEADLINE_MS);
    let reply: [number, number];
    try {
      // The window start is part of the key, so a new minute starts a new counter even if the
      // expiry of the old one is late; the expiry only cleans up.
      reply = await this.redis.tmwHit(`tmw:rl:${key}:${windowStartMs}`, windowMs + 5_000, deadline);
    } catch (error) {
      throw unavailable(error);
    }
    const [count, redisNowMs] = reply.map(Number) as [number, number];
    this.learnOffset(redisNowMs);
    if (count < 0) {
      throw unavailable(new Error('the hit reached Redis after its deadline and was not counted'));
    }
    return count;
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
