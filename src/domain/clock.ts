/** Time behind an interface so tests can stand at any point of a rate-limit window. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };
