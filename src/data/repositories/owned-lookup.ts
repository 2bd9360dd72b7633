import { byOrdinal, coalesced } from '../coalesce.ts';
import type { Queryable } from '../db.ts';

/** A resource id and the owner the caller acts for: visibility is `owner_id = ownerId`. */
export type OwnedId = { ownerId: string; id: string };

/**
 * The API JSON of one resource by id, if the owner owns it; the lookups of one turn of the event
 * loop share a statement (coalesce.ts). `json` is the JSON expression over `alias`, the alias
 * of `table`. Each pair is one primary-key probe (LATERAL ... LIMIT 1, which PostgreSQL does not
 * flatten into a join over the whole table).
 */
export function ownedJsonLookup(
  db: Queryable,
  source: { table: string; alias: string; json: string },
): (key: OwnedId) => Promise<string | null> {
  const text = `SELECT q.i, p.json
       FROM jsonb_to_recordset($1::text::jsonb) AS q(i int, id text, owner_id text)
      CROSS JOIN LATERAL (
            SELECT ${source.json} AS json FROM ${source.table} ${source.alias}
             WHERE ${source.alias}.id = q.id AND ${source.alias}.owner_id = q.owner_id
             LIMIT 1) p`;
  return coalesced(async (keys: readonly OwnedId[]) => {
    const rows = await db.query<{ i: number; json: string }>(text, [
      JSON.stringify(keys.map((key, i) => ({ i, id: key.id, owner_id: key.ownerId }))),
    ]);
    return byOrdinal(keys.length, rows, (row) => row.json);
  });
}
