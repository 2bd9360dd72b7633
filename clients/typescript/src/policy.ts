/**
 * The service's client guidance as a fetch wrapper (api-v1 section 8): on 429, wait Retry-After
 * plus up to 25% jitter and try again, at most `maxAttempts` times in all; 503 (an outage, also
 * with Retry-After) is handled the same way; and when X-RateLimit-Remaining drops below 10% of
 * X-RateLimit-Limit, requests are spaced out to one per (60 s / limit) until the window resets,
 * so a busy client slows down instead of running into 429s.
 */
export type PolicyOptions = {
  /** Attempts in all for one request, the first included (default 4). */
  maxAttempts?: number;
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait; tests pass one that records the delays. */
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ random() < 1, for the jitter. */
  random?: () => number;
  /** The clock, in milliseconds. */
  now?: () => number;
};

const RETRYABLE = new Set([429, 503]);
/** Seconds to wait for a 503 that says nothing (1, 2, 4 … s). */
const fallbackSeconds = (attempt: number) => 2 ** (attempt - 1);

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function createPolicyFetch(options: PolicyOptions = {}) {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const doFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  // The earliest time the next request may start (slow-down); shared by every request.
  let notBefore = 0;

  function observe(response: Response) {
    const limit = Number(response.headers.get('x-ratelimit-limit'));
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    if (
      !Number.isFinite(limit) ||
      limit <= 0 ||
      response.headers.get('x-ratelimit-remaining') === null
    ) {
      return;
    }
    if (remaining < limit * 0.1) {
      // Spread what is left of the quota: one request per (60 s / limit).
      notBefore = Math.max(notBefore, now() + 60_000 / limit);
    }
  }

  return async function policyFetch(request: Request): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const wait = notBefore - now();
      if (wait > 0) await sleep(wait);
      // Each attempt sends a fresh copy: a body can be read only once.
      const response = await doFetch(request.clone());
      observe(response);
      if (!RETRYABLE.has(response.status) || attempt >= maxAttempts) return response;
      const seconds =
        retryAfterSeconds(response.headers.get('retry-after'), now()) ?? fallbackSeconds(attempt);
      await response.body?.cancel();
      await sleep(seconds * 1000 * (1 + 0.25 * random()));
    }
  };
}
