import type { Queryable } from '../db.ts';
import { type JsonBytes, Params, WATCH_JSON } from './json-sql.ts';
import { ownedJsonLookup } from './owned-lookup.ts';

/** A watch as the rules read it before changing it (the API's JSON is built by PostgreSQL). */
export type WatchRecord = {
  id: string;
  ownerId: string;
  watchType: string;
  name: string;
  attributes: { niceClasses: number[]; designations: string[]; relatedClasses?: boolean };
  scanCadence: string;
  active: boolean;
  logoUrl: string | null;
  logoSt13: string | null;
};

export type WatchListFilter = {
  ownerId: string;
  watchType?: string | undefined;
  active?: boolean | undefined;
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
};

export async function listWatchesJson(
  db: Queryable,
  filter: WatchListFilter,
): Promise<JsonBytes[]> {
  const p = new Params();
  const where = [`w.owner_id = ${p.add(filter.ownerId)}`];
  if (filter.watchType !== undefined) where.push(`w.watch_type = ${p.add(filter.watchType)}`);
  if (filter.active !== undefined) where.push(`w.active = ${p.add(filter.active)}`);
  if (filter.after) {
    where.push(
      `(w.created_at, w.id) < (${p.add(filter.after.createdAt)}::timestamptz, ${p.add(filter.after.id)})`,
    );
  }
  // One more row than the page: it only tells whether a next page exists.
  return db.queryBytes(
    `SELECT ${WATCH_JSON} AS json
       FROM watches w
      WHERE ${where.join(' AND ')}
      ORDER BY w.created_at DESC, w.id DESC
      LIMIT ${p.add(filter.limit + 1)}`,
    p.values,
  );
}

/** A watch's API JSON by id, if `ownerId` owns it (lookups coalesced, owned-lookup.ts). */
export function createWatchJsonLookup(db: Queryable) {
  return ownedJsonLookup(db, { table: 'watches', alias: 'w', json: WATCH_JSON });
}

export async function getWatchRecord(
  db: Queryable,
  ownerId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WatchRecord | null> {
  const rows = await db.query<WatchRecord>(
    `SELECT id, owner_id AS "ownerId", watch_type AS "watchType", name, attributes,
            scan_cadence AS "scanCadence", active, logo_url AS "logoUrl", logo_st13 AS "logoSt13"
       FROM watches WHERE id = $1 AND owner_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, ownerId],
  );
  return rows[0] ?? null;
}

export async function countActiveWatches(db: Queryable, ownerId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM watches WHERE owner_id = $1 AND active',
    [ownerId],
  );
  return rows[0]?.n ?? 0;
}

/** Serialises quota checks of one owner: concurrent creates cannot both take the last slot. */
export async function lockOwner(tx: Queryable, ownerId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`owner:${ownerId}`]);
}

export type NewWatch = {
  id: string;
  ownerId: string;
  createdBy: string;
  watchType: string;
  name: string;
  attributes: unknown;
  sources: string[];
  scanCadence: string;
};

export async function insertWatch(db: Queryable, w: NewWatch): Promise<string> {
  const rows = await db.query<{ json: string }>(
    `INSERT INTO watches AS w (id, owner_id, created_by, watch_type, name, attributes, sources, scan_cadence)
     VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text[], $8)
     RETURNING ${WATCH_JSON} AS json`,
    [
      w.id,
      w.ownerId,
      w.createdBy,
      w.watchType,
      w.name,
      JSON.stringify(w.attributes),
      w.sources,
      w.scanCadence,
    ],
  );
  const json = rows[0]?.json;
  if (json === undefined) throw new Error('insert returned no row');
  return json;
}

export type WatchChanges = {
  name?: string;
  attributes?: unknown;
  scanCadence?: string;
  active?: boolean;
  logoUrl?: string | null;
  logoSt13?: string | null;
  /** The next scan must read the whole mirror (name or attributes changed). */
  needsFullScan?: boolean;
  /** Schedule the next scan now (re-activation: scanned within 60 s). */
  scanNow?: boolean;
};

const COLUMN: Record<string, string> = {
  name: 'name',
  scanCadence: 'scan_cadence',
  active: 'active',
  logoUrl: 'logo_url',
  logoSt13: 'logo_st13',
};

async function getWatchJson(db: Queryable, ownerId: string, id: string) {
  const rows = await db.query<{ json: string }>(
    `SELECT ${WATCH_JSON} AS json FROM watches w WHERE w.id = $1 AND w.owner_id = $2`,
    [id, ownerId],
  );
  return rows[0]?.json ?? null;
}

export async function updateWatch(
  db: Queryable,
  ownerId: string,
  id: string,
  changes: WatchChanges,
): Promise<string | null> {
  const p = new Params();
  const sets: string[] = [];
  for (const [key, column] of Object.entries(COLUMN)) {
    const value = changes[key as keyof WatchChanges];
    if (value !== undefined) sets.push(`${column} = ${p.add(value)}`);
  }
  if (changes.attributes !== undefined) {
    sets.push(`attributes = ${p.add(JSON.stringify(changes.attributes))}::text::jsonb`);
  }
  if (changes.needsFullScan) sets.push('needs_full_scan = true');
  if (changes.scanNow) sets.push('next_scan_at = now_ms()');
  if (sets.length === 0) return getWatchJson(db, ownerId, id);
  sets.push('updated_at = now_ms()');
  const rows = await db.query<{ json: string }>(
    `UPDATE watches AS w SET ${sets.join(', ')}
      WHERE w.id = ${p.add(id)} AND w.owner_id = ${p.add(ownerId)}
      RETURNING ${WATCH_JSON} AS json`,
    p.values,
  );
  return rows[0]?.json ?? null;
}
