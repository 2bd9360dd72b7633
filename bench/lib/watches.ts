// Watches for bench/scan.ts, written with set-based SQL (a statement per 2,000 watches) in the
// shape the service itself writes (src/data/repositories/watches.ts): same columns, id format and
// attributes.
import type { Db } from '../../src/data/db.ts';
import { newId } from '../../src/domain/ids.ts';
import { MIRROR_SOURCE } from '../../src/register/sources.ts';
import type { WatchSpec } from './register.ts';

/** A team-tier user owning every benchmark watch (team includes alert e-mail: it is queued). */
export async function insertOwner(db: Db): Promise<string> {
  const id = newId('usr');
  await db.query(`INSERT INTO users (id, email, tier) VALUES ($1, $2, 'team')`, [
    id,
    `bench-scan-${id.slice(4, 12).toLowerCase()}@example.test`,
  ]);
  return id;
}

export type WatchState =
  /** A new watch: due now, its first scan is a full one. */
  | { kind: 'new' }
  /** A watch already scanned up to `scannedSeq`: its next scan is incremental. */
  | { kind: 'scanned'; scannedSeq: number };

const BATCH = 2000;

/** Inserts the watches and returns their ids, in the order of `specs`. */
export async function insertWatches(
  db: Db,
  ownerId: string,
  specs: readonly WatchSpec[],
  state: WatchState,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < specs.length; i += BATCH) {
    const rows = specs.slice(i, i + BATCH).map((s) => ({
      id: newId('wat'),
      name: s.name,
      attributes: { niceClasses: s.niceClasses, designations: s.designations },
    }));
    await db.query(
      `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                            scan_cadence, needs_full_scan, scanned_seq, last_scanned_at, next_scan_at)
       SELECT w.id, $2, $2, 'trademark', w.name, w.attributes, ARRAY[$3], 'daily',
              $4, $5, CASE WHEN $4 THEN NULL ELSE now_ms() END,
              CASE WHEN $4 THEN now_ms() ELSE now_ms() + interval '1 day' END
         FROM jsonb_to_recordset($1::text::jsonb) AS w(id text, name text, attributes jsonb)`,
      [
        JSON.stringify(rows),
        ownerId,
        MIRROR_SOURCE,
        state.kind === 'new',
        state.kind === 'new' ? 0 : state.scannedSeq,
      ],
    );
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/** Which (watch, external id) pairs among `pairs` have a hit. */
export async function pairsWithHits(db: Db, externalIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < externalIds.length; i += 5000) {
    const rows = await db.query<{ watch_id: string; external_id: string }>(
      'SELECT watch_id, external_id FROM hits WHERE external_id = ANY($1::text[])',
      [externalIds.slice(i, i + 5000)],
    );
    for (const r of rows) found.add(`${r.watch_id}|${r.external_id}`);
  }
  return found;
}

/** The external ids each of these watches has a hit on, sorted and joined, by watch id. */
export async function hitsByWatch(
  db: Db,
  watchIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ watch_id: string; ids: string }>(
    `SELECT watch_id, string_agg(external_id, ' ' ORDER BY external_id) AS ids
       FROM hits WHERE watch_id = ANY($1::text[]) GROUP BY watch_id`,
    [watchIds],
  );
  return new Map(rows.map((r) => [r.watch_id, r.ids]));
}
