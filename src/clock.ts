/**
 * The time, behind one interface: whatever asks "what time is it" asks a Clock it was given, so
 * that tests can stand at any moment (a rate-limit window's edge, the hour of the register sync,
 * the day an opposition period closes). `systemClock` is the real one. Times the database records
 * itself (now() in SQL) are the database's.
 */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** The clock's time as a Date. */
export function dateOf(clock: Clock): Date {
  return new Date(clock.now());
}
