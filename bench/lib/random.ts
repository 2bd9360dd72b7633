// Seeded randomness shared by the benchmarks and scripts/eval-matching.ts: the same seed gives the
// same data on every machine, so two runs of a benchmark measure the same register.

/** Mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = {
  /** A float in [0, 1). */
  next: () => number;
  /** An integer in [0, n). */
  int: (n: number) => number;
  /** An element of a non-empty list. */
  pick: <T>(xs: readonly T[]) => T;
  /** Shuffles in place (Fisher–Yates) and returns the list. */
  shuffle: <T>(xs: T[]) => T[];
};

export function random(next: () => number): Random {
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] as T,
    shuffle<T>(xs: T[]): T[] {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
      }
      return xs;
    },
  };
}

/** The index drawn from cumulative weights (binary search: O(log n)). */
export function drawIndex(
  cumulative: ArrayLike<number>,
  total: number,
  rand: () => number,
): number {
  const x = rand() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A sampler over a fixed weight table: O(log n) per draw. */
export function weighted<T>(table: readonly (readonly [T, number])[], rand: () => number): () => T {
  const values = table.map(([v]) => v);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, w] of table) {
    total += w;
    cumulative.push(total);
  }
  return () => values[drawIndex(cumulative, total, rand)] as T;
}
