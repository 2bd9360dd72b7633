import type { Queryable } from '../data/db.ts';
import { wordStatsFor } from '../data/repositories/word-counts.ts';
import type { WordStats } from '../matching/word-weights.ts';

/**
 * The register's word counts as scans read them, kept per process while the mirror stays as it
 * was. A scan reads the counts of its brand's words before it searches and those of the records it
 * raises after: two round trips per watch, and across the watches of one scheduler run most of the
 * second kind are the same common words. The counts change only when the mirror does, and every
 * write to the mirror takes a new change sequence value, so the cache is keyed by the sources'
 * sequence values that the scan reads first anyway: a new import empties it, and a scan never
 * reads counts older than the records it searches. (An operator's DELETE of marks does not move
 * the sequence; the counts are then corrected at the next import.)
 */
export type WordStatsCache = {
  /** The counts of `words` and the number of marks, as of the mirror state named by `key`. */
  statsFor(db: Queryable, key: string, words: readonly string[]): Promise<WordStats>;
};

/** Words kept per database before the cache starts over. */
const MAX_WORDS = 200_000;

type Entry = { key: string; total: number; counts: Map<string, number> };

export function createWordStatsCache(): WordStatsCache {
  const byDb = new WeakMap<Queryable, Entry>();
  return {
    async statsFor(db, key, words) {
      let entry = byDb.get(db);
      if (entry === undefined || entry.key !== key || entry.counts.size > MAX_WORDS) {
        entry = { key, total: -1, counts: new Map() };
        byDb.set(db, entry);
      }
      const missing = words.filter((w) => w !== '' && !entry.counts.has(w));
      if (missing.length > 0 || entry.total < 0) {
        const read = await wordStatsFor(db, missing);
        // Another scan may have started over meanwhile: fill the entry this one read for.
        entry.total = read.total;
        for (const w of missing) entry.counts.set(w, read.counts.get(w) ?? 0);
      }
      const counts = new Map<string, number>();
      for (const w of words) {
        const n = entry.counts.get(w);
        if (n !== undefined && n > 0) counts.set(w, n);
      }
      return { total: entry.total, counts };
    },
  };
}
