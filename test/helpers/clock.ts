import type { Clock } from '../../src/clock.ts';

/** A clock standing still at `iso`. */
export function clockAt(iso: string): Clock {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new Error(`not a time: ${iso}`);
  return { now: () => time };
}
