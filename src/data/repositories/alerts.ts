import { coalesced } from '../coalesce.ts';
import type { Queryable } from '../db.ts';
import type { JsonRow } from './json-sql.ts';
import { ownedJsonLookup } from './owned-lookup.ts';

export type AlertState = 'unread' | 'read' | 'dismissed';

export type AlertListFilter = {
  ownerId: string;
  states?: AlertState[] | undefined;
  watchId?: string | undefined;
  since?: string | undefined;
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
};

/**
 * The conditions of an alert list, each value written by `ref` (its name, SQL type and value).
 * The shape (which optional filters are present) decides the statement's text.
 */
function alertListConditions(
  filter: AlertListFilter,
  ref: (name: string, type: string, value: unknown) => string,
): string[] {
  const where = [`a.owner_id = ${ref('owner_id', 'text', filter.ownerId)}`];
  const states = filter.states ?? [];
  if (states.length === 1) where.push(`a.state = ${ref('state', 'text', states[0])}`);
  if (states.length > 1) where.push(`a.state = ANY(${ref('states', 'text[]', states)})`);
  if (filter.watchId !== undefined) {
    where.push(`a.watch_id = ${ref('watch_id', 'text', filter.watchId)}`);
  }
  if (filter.since !== undefined) {
    where.push(`a.created_at >= ${ref('since', 'timestamptz', filter.since)}`);
  }
  if (filter.after) {
    where.push(
      `(a.created_at, a.id) < (${ref('after_created_at', 'timestamptz', filter.after.createdAt)}, ${ref('after_id', 'text', filter.after.id)})`,
    );
  }
  return where;
}

/**
 * Alert lists, newest first, up to `limit + 1` rows each (the extra row only tells that a next
 * page exists). The lists of one shape asked for in one turn of the event loop share a statement
 * (coalesce.ts): each list is a LATERAL subquery over its own row of a JSON parameter, numbering
 * its rows so that each caller gets exactly its own, in order.
 */
export function createAlertListLookup(
  db: Queryable,
): (filter: AlertListFilter) => Promise<JsonRow[]> {
  const byShape = new Map<string, (filter: AlertListFilter) => Promise<JsonRow[]>>();
  return (filter) => {
    const columns = new Map<string, string>();
    const where = alertListConditions(filter, (name, type) => {
      columns.set(name, type);
      return `q.${name}`;
    });
    const shape = [...columns.keys()].join(',');
    let lookup = byShape.get(shape);
    if (!lookup) {
      const definition = [...columns].map(([name, type]) => `${name} ${type}`).join(', ');
      const text = `SELECT q.i, p.n, p.json
         FROM jsonb_to_recordset($1::text::jsonb) AS q(i int, row_limit int, ${definition})
        CROSS JOIN LATERAL (
              SELECT a.api_json AS json,
                     row_number() OVER (ORDER BY a.created_at DESC, a.id DESC) AS n
                FROM alerts a
               WHERE ${where.join(' AND ')}
               ORDER BY a.created_at DESC, a.id DESC
               LIMIT q.row_limit) p`;
      lookup = coalesced(async (filters: readonly AlertListFilter[]) => {
        const records = filters.map((f, i) => {
          const record: Record<string, unknown> = { i, row_limit: f.limit + 1 };
          alertListConditions(f, (name, _type, value) => {
            record[name] = value;
            return '';
          });
          return record;
        });
        const rows = await db.query<{ i: number; n: number; json: string }>(text, [
          JSON.stringify(records),
        ]);
        const lists: { n: number; json: string }[][] = filters.map(() => []);
        for (const row of rows) lists[row.i]?.push(row);
        return lists.map((list) => list.sort((x, y) => x.n - y.n).map(({ json }) => ({ json })));
      });
      byShape.set(shape, lookup);
    }
    return lookup(filter);
  };
}

/**
 * An alert's API JSON by id, if `ownerId` owns it, lookups coalesced (owned-lookup.ts): for the
 * root database only, never a transaction.
 */
export function createAlertJsonLookup(db: Queryable) {
  return ownedJsonLookup(db, { table: 'alerts', alias: 'a', json: 'a.api_json' });
}

/** Sets the state (idempotent: the same state again changes nothing) and returns the alert. */
export async function setAlertState(
  db: Queryable,
  ownerId: string,
  id: string,
  state: AlertState,
): Promise<string | null> {
  const rows = await db.query<{ json: string }>(
    // The trigger of migration 004 has rebuilt api_json by the time RETURNING reads it.
    'UPDATE alerts SET state = $3 WHERE id = $1 AND owner_id = $2 RETURNING api_json AS json',
    [id, ownerId, state],
  );
  return rows[0]?.json ?? null;
}

export async function countUnread(db: Queryable, ownerId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM alerts WHERE owner_id = $1 AND state = 'unread'`,
    [ownerId],
  );
  return rows[0]?.n ?? 0;
}

export type NewHit = {
  id: string;
  watchId: string;
  sourceCode: string;
  externalId: string;
  entityType: string;
  displayName: string;
  ownerName: string;
  ownerCountryCode: string;
  jurisdiction: string;
  filedAt: string;
  registeredAt: string | null;
  expiresAt: string | null;
  status: string;
  classes: number[];
  rawPayload: unknown;
};

/**
 * Records a hit and its alert, unless the watch already has a hit for this source record
 * (spec 2.3). Returns the new alert's id, or null when the hit existed. Alerts are never created
 * through the API: scans (and tests) call this.
 */
export async function insertHitWithAlert(
  db: Queryable,
  hit: NewHit,
  alertId: string,
): Promise<string | null> {
  const [created] = await insertHitsWithAlerts(db, [{ ...hit, alertId }]);
  return created?.alertId ?? null;
}

/**
 * Records many hits and their alerts in one statement (a scan's findings: one round trip instead
 * of one per hit). Hits the watch already has are skipped, as in insertHitWithAlert; returns the
 * hit and alert ids of those recorded.
 */
export async function insertHitsWithAlerts(
  db: Queryable,
  hits: (NewHit & { alertId: string })[],
): Promise<{ hitId: string; alertId: string }[]> {
  if (hits.length === 0) return [];
  return db.query<{ hitId: string; alertId: string }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(
         id text, "watchId" text, "sourceCode" text, "externalId" text, "entityType" text,
         "displayName" text, "ownerName" text, "ownerCountryCode" text, jurisdiction text,
         "filedAt" timestamptz, "registeredAt" timestamptz, "expiresAt" timestamptz, status text,
         classes integer[], "rawPayload" jsonb, "alertId" text)
     ),
     new_hits AS (
       INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                         owner_name, owner_country_code, jurisdiction, filed_at, registered_at,
                         expires_at, status, classes, raw_payload)
       SELECT id, "watchId", "sourceCode", "externalId", "entityType", "displayName", "ownerName",
              "ownerCountryCode", jurisdiction, "filedAt", "registeredAt", "expiresAt", status,
              classes, "rawPayload"
         FROM input
       ON CONFLICT ON CONSTRAINT hits_watch_source_external_key DO NOTHING
       RETURNING id, watch_id
     )
     -- Read through new_hits: each alert is written after its hit, which its JSON is built from
     -- (migration 004).
     INSERT INTO alerts (id, watch_id, hit_id, owner_id)
     SELECT i."alertId", new_hits.watch_id, new_hits.id, w.owner_id
       FROM new_hits
       JOIN input i ON i.id = new_hits.id
       JOIN watches w ON w.id = new_hits.watch_id
     RETURNING hit_id AS "hitId", id AS "alertId"`,
    [JSON.stringify(hits)],
  );
}
