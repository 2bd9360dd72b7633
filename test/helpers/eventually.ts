import { setTimeout as sleep } from 'node:timers/promises';

export type EventuallyOptions = {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Pause between two probes (default 50 ms). */
  everyMs?: number;
  /** A probe that throws means "not yet" instead of failing the wait (a server still starting). */
  ignoreErrors?: boolean;
};

type Reached<T> = Exclude<T, undefined | false | null>;

/**
 * Waits for a condition instead of a fixed sleep: calls `probe` until it returns something other
 * than `undefined`, `null` or `false`, and returns that. Fails with `what` in the message when the
 * time is up, with the probe's last error if it threw.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Reached<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value as Reached<T>;
    } catch (error) {
      if (!options.ignoreErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out waiting for ${what}${cause}`);
    }
    await sleep(options.everyMs ?? 50);
  }
}
