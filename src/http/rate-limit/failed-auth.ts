import { LRUCache } from 'lru-cache';

const WINDOW_MS = 60_000;
/** Addresses remembered at once; the least recently failing are forgotten first. */
const MAX_ADDRESSES = 100_000;

/**
 * Failed API authentications per client address and wall-clock minute, in the process: checked
 * before the key lookup, so a flood of random keys costs a map lookup each instead of a database
 * query. In memory on purpose: it must stay cheap when the database or Redis is the thing under
 * pressure, and N instances allowing N times the limit still bounds the lookups of each.
 */
export class FailedAuthLimiter {
  private readonly counts = new LRUCache<string, { start: number; count: number }>({
    max: MAX_ADDRESSES,
  });

  constructor(private readonly perMinute: number) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfterSeconds(address: string, now: number): number {
    const start = now - (now % WINDOW_MS);
    const entry = this.counts.get(address);
    if (!entry || entry.start !== start || entry.count < this.perMinute) return 0;
    return Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000));
  }

  recordFailure(address: string, now: number): void {
    const start = now - (now % WINDOW_MS);
    const entry = this.counts.get(address);
    if (entry && entry.start === start) entry.count += 1;
    else this.counts.set(address, { start, count: 1 });
  }
}
