// The two baselines bench/scan.ts compares the real scan with: the plain pg_trgm query of the
// issue's measurements, and a naive scorer that runs the real decision over every record.
import type { Db } from '../../src/data/db.ts';
import { decideConflictPrepared, type PreparedWatch } from '../../src/matching/decide.ts';

export type BaselineWatch = { watchId: string; prepared: PreparedWatch };

/** The plain query: `compact_text % $1` at threshold 0.4 plus `classes && $2` (GIN trigram index). */
export const PLAIN_TRGM_SQL = `SELECT external_id FROM marks
  WHERE compact_text % $1 AND classes && $2::int[]`;
export const PLAIN_TRGM_THRESHOLD = 0.4;

export type QueryResult = { watchId: string; ms: number; externalIds: Set<string> };

export async function plainTrigram(db: Db, watches: readonly BaselineWatch[]) {
  const results: QueryResult[] = [];
  for (const w of watches) {
    const t0 = performance.now();
    const rows = await db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('pg_trgm.similarity_threshold', $1, true)`, [
        String(PLAIN_TRGM_THRESHOLD),
      ]);
      return tx.query<{ external_id: string }>(PLAIN_TRGM_SQL, [
        w.prepared.brand.compact,
        [...w.prepared.classes],
      ]);
    });
    results.push({
      watchId: w.watchId,
      ms: performance.now() - t0,
      externalIds: new Set(rows.map((r) => r.external_id)),
    });
  }
  return results;
}

type LeanRecord = {
  id: number;
  externalId: string;
  markText: string;
  classes: number[];
  jurisdiction: string;
  designations: string[];
};

/**
 * Every record, read from the database in pages of 10,000 (keyset on id), decided against every
 * watch with the service's own decideConflictPrepared. Returns the conflicts per watch, the wall
 * time (reading included) and the CPU time of the decisions alone. Only a page is held at a time;
 * `onPage` hears the records read so far after each.
 */
export async function naiveScorer(
  db: Db,
  watches: readonly BaselineWatch[],
  onPage?: (records: number) => void,
) {
  const hits = new Map<string, Set<string>>(watches.map((w) => [w.watchId, new Set<string>()]));
  const t0 = performance.now();
  let decideMs = 0;
  let records = 0;
  let last = 0;
  for (;;) {
    const page = await db.query<LeanRecord>(
      `SELECT id, external_id AS "externalId", mark_text AS "markText", classes, jurisdiction,
              designations
         FROM marks WHERE id > $1 ORDER BY id LIMIT 10000`,
      [last],
    );
    if (page.length === 0) break;
    last = (page[page.length - 1] as LeanRecord).id;
    records += page.length;
    const d0 = performance.now();
    for (const w of watches) {
      const found = hits.get(w.watchId) as Set<string>;
      for (const record of page) {
        if (decideConflictPrepared(w.prepared, record).conflict) found.add(record.externalId);
      }
    }
    decideMs += performance.now() - d0;
    onPage?.(records);
  }
  return { hits, wallMs: performance.now() - t0, decideMs, records };
}
