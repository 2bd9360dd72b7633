import { byOrdinal, coalesced } from '../coalesce.ts';
import type { Queryable } from '../db.ts';
import { type JsonBytes, Params } from './json-sql.ts';
import { ownedJsonLookup } from './owned-lookup.ts';

export type AlertListFilter = {
  ownerId: string;
  /** Alert states and severities: the values the alerts table's CHECK constraints allow. */
  states?: readonly string[] | undefined;
  severities?: readonly string[] | undefined;
  /** new_filing or existing_mark: the values the alerts table's CHECK constraint allows. */
  origin?: string | undefined;
  watchId?: string | undefined;
  since?: string | undefined;
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
};

export async function listAlertsJson(db: Queryable, filter: AlertListFilter): Promise<JsonBytes[]> {
  const p = new Params();
  const where = [`a.owner_id = ${p.add(filter.ownerId)}`];
  if (filter.states && filter.states.length > 0) {
    where.push(
      filter.states.length === 1
        ? `a.state = ${p.add(filter.states[0])}`
        : `a.state = ANY(${p.add(filter.states)}::text[])`,
    );
  }
  if (filter.severities && filter.severities.length > 0) {
    where.push(
      filter.severities.length === 1
        ? `a.severity = ${p.add(filter.severities[0])}`
        : `a.severity = ANY(${p.add(filter.severities)}::text[])`,
    );
  }
  if (filter.origin !== undefined) where.push(`a.origin = ${p.add(filter.origin)}`);
  if (filter.watchId !== undefined) where.push(`a.watch_id = ${p.add(filter.watchId)}`);
  if (filter.since !== undefined) where.push(`a.created_at >= ${p.add(filter.since)}::timestamptz`);
  if (filter.after) {
    where.push(
      `(a.created_at, a.id) < (${p.add(filter.after.createdAt)}::timestamptz, ${p.add(filter.after.id)})`,
    );
  }
  // One more row than the page: it only tells whether a next page exists.
  return db.queryBytes(
    `SELECT a.api_json AS json
       FROM alerts a
      WHERE ${where.join(' AND ')}
      ORDER BY a.created_at DESC, a.id DESC
      LIMIT ${p.add(filter.limit + 1)}`,
    p.values,
  );
}

/**
 * The version of each owner's alert list (migration 007): an opaque text that changes with every
 * committed transaction that changes any of the owner's alerts (the row's random token; "none" for
 * an owner whose alerts were never written). Lookups of one turn of the event loop share a
 * statement, one index probe per owner (LATERAL ... LIMIT 1, as in createPrincipalLookup: not
 * flattened into a join over the whole table).
 */
export function createAlertListVersionLookup(db: Queryable): (ownerId: string) => Promise<string> {
  return coalesced(async (owners: readonly string[]) => {
    const rows = await db.query<{ i: number; token: string }>(
      `SELECT q.i::int - 1 AS i, v.token::text AS token
         FROM jsonb_array_elements_text($1::text::jsonb) WITH ORDINALITY AS q(owner_id, i)
        CROSS JOIN LATERAL (
              SELECT token FROM alert_list_versions WHERE owner_id = q.owner_id LIMIT 1) v`,
      [JSON.stringify(owners)],
    );
    return byOrdinal(owners.length, rows, (row) => row.token).map((token) => token ?? 'none');
  });
}

/** An alert's API JSON by id, if `ownerId` owns it (lookups coalesced, owned-lookup.ts). */
export function createAlertJsonLookup(db: Queryable) {
  return ownedJsonLookup(db, { table: 'alerts', alias: 'a', json: 'a.api_json' });
}

/**
 * The alert's state, its row locked until the transaction ends (a state change reads the state it
 * changes from); null when the owner has no such alert.
 */
export async function lockAlertState(
  tx: Queryable,
  ownerId: string,
  id: string,
): Promise<string | null> {
  const rows = await tx.query<{ state: string }>(
    'SELECT state FROM alerts WHERE id = $1 AND owner_id = $2 FOR UPDATE',
    [id, ownerId],
  );
  return rows[0]?.state ?? null;
}

/** Sets the state (idempotent: the same state again changes nothing) and returns the alert. */
export async function setAlertState(
  db: Queryable,
  ownerId: string,
  id: string,
  state: string,
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
  /** Null when the source does not publish it, as the record's owner, country and status. */
  ownerName: string | null;
  ownerCountryCode: string | null;
  jurisdiction: string;
  filedAt: string;
  registeredAt: string | null;
  expiresAt: string | null;
  status: string | null;
  /** Live or dead at its office; null when its code says neither. */
  live: boolean | null;
  classes: number[];
  rawPayload: unknown;
  /** When the office published the record for opposition; null when the source does not say. */
  publishedAt: string | null;
  /** The opposition window computed when the hit was recorded (src/domain/opposition.ts). */
  opposition: unknown;
  /**
   * When the mirror took the office's deletion of the record (migration 037); null while the
   * register holds it. A new hit is never on a removed record.
   */
  removedAt?: string | null;
};

/** What a new alert says about its hit (src/domain/alerts/assessment.ts). */
export type NewAlert = {
  alertId: string;
  /** high, medium or low. */
  severity: string;
  /** Markdown. */
  rationale: string;
  /** new_filing or existing_mark (src/domain/alerts/origin.ts). */
  origin: string;
};

/**
 * Records hits and their alerts in one statement (a scan's findings: one round trip instead of one
 * per hit), skipping the hits the watch already has for a source record; returns the hit and
 * alert ids of those recorded. Alerts are never created through the API: scans (and the tests'
 * factories) call this.
 */
export async function insertHitsWithAlerts(
  db: Queryable,
  hits: (NewHit & NewAlert)[],
): Promise<{ hitId: string; alertId: string }[]> {
  if (hits.length === 0) return [];
  return db.query<{ hitId: string; alertId: string }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(
         id text, "watchId" text, "sourceCode" text, "externalId" text, "entityType" text,
         "displayName" text, "ownerName" text, "ownerCountryCode" text, jurisdiction text,
         "filedAt" timestamptz, "registeredAt" timestamptz, "expiresAt" timestamptz, status text, live boolean,
         classes integer[], "rawPayload" jsonb, "publishedAt" timestamptz, opposition jsonb,
         "alertId" text, severity text, rationale text, origin text)
     ),
     new_hits AS (
       INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                         owner_name, owner_country_code, jurisdiction, filed_at, registered_at,
                         expires_at, status, live, classes, raw_payload, published_at, opposition)
       SELECT id, "watchId", "sourceCode", "externalId", "entityType", "displayName", "ownerName",
              "ownerCountryCode", jurisdiction, "filedAt", "registeredAt", "expiresAt", status, live,
              classes, "rawPayload", "publishedAt", opposition
         FROM input
       ON CONFLICT ON CONSTRAINT hits_watch_source_external_key DO NOTHING
       RETURNING id, watch_id
     )
     -- Read through new_hits: each alert is written after its hit, which its JSON is built from
     -- (migration 004).
     INSERT INTO alerts (id, watch_id, hit_id, owner_id, severity, rationale, rationale_at, origin)
     SELECT i."alertId", new_hits.watch_id, new_hits.id, w.owner_id, i.severity, i.rationale,
            now_ms(), i.origin
       FROM new_hits
       JOIN input i ON i.id = new_hits.id
       JOIN watches w ON w.id = new_hits.watch_id
     RETURNING hit_id AS "hitId", id AS "alertId"`,
    [JSON.stringify(hits)],
  );
}
