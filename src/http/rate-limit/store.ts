/**
 * A fixed-window counter per API key. The window is the wall-clock minute because the spec promises
 * a reset at the top of the minute; `hit` counts the request and returns the count so far, in
 * one atomic step, so concurrent requests can never be over-admitted.
 */
export interface RateLimitStore {
  hit(key: string, windowStartMs: number, windowMs: number): Promise<number>;
  /** Resolves when the store answers (readiness); a store in the process always does. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/** In-process counters (the default): correct for one process, N × the limit for N processes. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweptAt = 0;

  async hit(key: string, windowStartMs: number): Promise<number> {
    this.sweep(windowStartMs);
    const current = this.windows.get(key);
    if (current && current.start === windowStartMs) {
      current.count += 1;
      return current.count;
    }
    this.windows.set(key, { start: windowStartMs, count: 1 });
    return 1;
  }

  // Forget keys of past windows once per window, so memory stays bounded by the active keys.
  private sweep(windowStartMs: number) {
    if (this.sweptAt === windowStartMs) return;
    this.sweptAt = windowStartMs;
    for (const [key, value] of this.windows) {
      if (value.start < windowStartMs) this.windows.delete(key);
    }
  }

  async close() {
    this.windows.clear();
  }
}
