/**
 * Delays between attempts, after the Standard Webhooks recommendation (the schedule Svix uses):
 * the first attempt at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, about 27 hours in
 * all. An event whose last attempt fails is marked failed.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** Attempts an event gets in all (the first, then one after each delay). */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds until the next attempt after `attempts` failed ones; null: no attempt is left. */
export function nextRetryDelaySeconds(attempts: number): number | null {
  if (attempts < 1) return 0;
  return RETRY_DELAYS_SECONDS[attempts - 1] ?? null;
}

/** An endpoint whose every attempt failed for this long is turned off (and says so in GET). */
export const DISABLE_AFTER_FAILING_SECONDS = 5 * 24 * 3600;
