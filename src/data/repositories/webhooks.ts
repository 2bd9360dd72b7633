import type { Db, Queryable } from '../db.ts';
import { isoMs, type JsonBytes, Params } from './json-sql.ts';
import { ownedJsonLookup } from './owned-lookup.ts';

// Webhook endpoints and their deliveries (migration 010). The secret never appears in this JSON:
// the service adds it to the one response that shows it (create, rotate).
export const WEBHOOK_JSON = `json_build_object(
  'id', k.id,
  'url', k.url,
  'events', k.events,
  'description', k.description,
  'active', k.active,
  'disabledAt', ${isoMs('k.disabled_at')},
  'disabledReason', k.disabled_reason,
  'createdAt', ${isoMs('k.created_at')},
  'updatedAt', ${isoMs('k.updated_at')}
)::text`;

const DELIVERY_JSON = `json_build_object(
  'id', d.id,
  'eventId', d.event_id,
  'eventType', d.event_type,
  'status', CASE WHEN d.delivered_at IS NOT NULL THEN 'delivered'
                 WHEN d.failed_at IS NOT NULL THEN 'failed' ELSE 'pending' END,
  'attempts', d.attempts,
  'lastStatusCode', d.last_status,
  'lastError', d.last_error,
  'lastAttemptAt', ${isoMs('d.last_attempt_at')},
  'nextAttemptAt', CASE WHEN d.delivered_at IS NULL AND d.failed_at IS NULL
                        THEN ${isoMs('d.next_attempt_at')} END,
  'deliveredAt', ${isoMs('d.delivered_at')},
  'failedAt', ${isoMs('d.failed_at')},
  'createdAt', ${isoMs('d.created_at')}
)::text`;

type After = { createdAt: string; id: string } | undefined;

export async function listWebhooksJson(
  db: Queryable,
  filter: { ownerId: string; after: After; limit: number },
): Promise<JsonBytes[]> {
  const p = new Params();
  const where = [`k.owner_id = ${p.add(filter.ownerId)}`];
  if (filter.after) {
    where.push(
      `(k.created_at, k.id) < (${p.add(filter.after.createdAt)}::timestamptz, ${p.add(filter.after.id)})`,
    );
  }
  // One more row than the page: it only tells whether a next page exists.
  return db.queryBytes(
    `SELECT ${WEBHOOK_JSON} AS json FROM webhooks k
      WHERE ${where.join(' AND ')}
      ORDER BY k.created_at DESC, k.id DESC
      LIMIT ${p.add(filter.limit + 1)}`,
    p.values,
  );
}

/** A webhook's API JSON by id, if `ownerId` owns it (lookups coalesced, owned-lookup.ts). */
export function createWebhookJsonLookup(db: Queryable) {
  return ownedJsonLookup(db, { table: 'webhooks', alias: 'k', json: WEBHOOK_JSON });
}

/** The owner's endpoints, active or not: what the plan's cap counts. */
export async function countWebhooks(db: Queryable, ownerId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks WHERE owner_id = $1',
    [ownerId],
  );
  return rows[0]?.n ?? 0;
}

/** Serialises the cap checks of one owner: concurrent creates cannot both take the last place. */
export async function lockOwnerWebhooks(tx: Queryable, ownerId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${ownerId}`]);
}

export type NewWebhook = {
  id: string;
  ownerId: string;
  createdBy: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
};

export async function insertWebhook(db: Queryable, w: NewWebhook): Promise<string> {
  const rows = await db.query<{ json: string }>(
    `INSERT INTO webhooks AS k (id, owner_id, created_by, url, events, description, secret)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7)
     RETURNING ${WEBHOOK_JSON} AS json`,
    [w.id, w.ownerId, w.createdBy, w.url, w.events, w.description, w.secret],
  );
  const json = rows[0]?.json;
  if (json === undefined) throw new Error('insert returned no row');
  return json;
}

export type WebhookChanges = {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | null | undefined;
  active?: boolean | undefined;
  secret?: string | undefined;
};

/** Applies the changes; turning an endpoint back on clears its disabled and failing marks. */
export async function updateWebhook(
  db: Queryable,
  ownerId: string,
  id: string,
  changes: WebhookChanges,
): Promise<string | null> {
  const p = new Params();
  const sets = ['updated_at = now_ms()'];
  if (changes.url !== undefined) sets.push(`url = ${p.add(changes.url)}`);
  if (changes.events !== undefined) sets.push(`events = ${p.add(changes.events)}::text[]`);
  if (changes.description !== undefined) {
    sets.push(`description = ${p.add(changes.description)}`);
  }
  if (changes.secret !== undefined) sets.push(`secret = ${p.add(changes.secret)}`);
  if (changes.active !== undefined) {
    sets.push(`active = ${p.add(changes.active)}`);
    if (changes.active) {
      sets.push('disabled_at = NULL', 'disabled_reason = NULL', 'failing_since = NULL');
    }
  }
  const rows = await db.query<{ json: string }>(
    `UPDATE webhooks AS k SET ${sets.join(', ')}
      WHERE k.id = ${p.add(id)} AND k.owner_id = ${p.add(ownerId)}
      RETURNING ${WEBHOOK_JSON} AS json`,
    p.values,
  );
  return rows[0]?.json ?? null;
}

/** Removes the endpoint and its deliveries (ON DELETE CASCADE); returns what it was. */
export async function deleteWebhook(
  db: Queryable,
  ownerId: string,
  id: string,
): Promise<string | null> {
  const rows = await db.query<{ json: string }>(
    `DELETE FROM webhooks AS k WHERE k.id = $1 AND k.owner_id = $2 RETURNING ${WEBHOOK_JSON} AS json`,
    [id, ownerId],
  );
  return rows[0]?.json ?? null;
}

export async function listDeliveriesJson(
  db: Queryable,
  filter: { webhookId: string; after: After; limit: number },
): Promise<JsonBytes[]> {
  const p = new Params();
  const where = [`d.webhook_id = ${p.add(filter.webhookId)}`];
  if (filter.after) {
    where.push(
      `(d.created_at, d.id) < (${p.add(filter.after.createdAt)}::timestamptz, ${p.add(filter.after.id)})`,
    );
  }
  return db.queryBytes(
    `SELECT ${DELIVERY_JSON} AS json FROM webhook_deliveries d
      WHERE ${where.join(' AND ')}
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT ${p.add(filter.limit + 1)}`,
    p.values,
  );
}

/** The owner's active endpoints subscribed to `eventType`. */
export async function subscribedWebhookIds(
  db: Queryable,
  ownerId: string,
  eventType: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM webhooks WHERE owner_id = $1 AND active AND $2 = ANY(events) ORDER BY id',
    [ownerId, eventType],
  );
  return rows.map((row) => row.id);
}

/**
 * A delivery's body: `{"type":…,"timestamp":…,"data":…}` written as compactly as the alert JSON it
 * carries (json_build_object would put spaces around every colon of the envelope only).
 */
const envelope = (type: string, dataText: string) =>
  `'{"type":' || to_json(${type})::text || ',"timestamp":' || to_json(iso_ms(now_ms()))::text
     || ',"data":' || ${dataText} || '}'`;

/**
 * One delivery per (endpoint, alert): the body carries the alert's API JSON as it is now, in the
 * caller's transaction (a new alert is visible to it; a state change has already been applied).
 */
export async function insertAlertDeliveries(
  db: Queryable,
  eventType: string,
  rows: { id: string; webhookId: string; eventId: string; alertId: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body)
     SELECT r.id, r."webhookId", r."eventId", $2,
            ${envelope('$2::text', 'a.api_json')}
       FROM jsonb_to_recordset($1::text::jsonb)
            AS r(id text, "webhookId" text, "eventId" text, "alertId" text)
       JOIN alerts a ON a.id = r."alertId"`,
    [JSON.stringify(rows), eventType],
  );
}

/** A delivery whose body is given (the dashboard's test event). */
export async function insertDelivery(
  db: Queryable,
  d: { id: string; webhookId: string; eventId: string; eventType: string; data: unknown },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body)
     VALUES ($1, $2, $3, $4,
             ${envelope('$4::text', '($5::text::json)::text')})`,
    [d.id, d.webhookId, d.eventId, d.eventType, JSON.stringify(d.data)],
  );
}

export type DueDelivery = {
  id: string;
  webhookId: string;
  eventId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
};

// Any constant works; it only has to be the same in every process that claims deliveries.
const DELIVERY_CLAIM_LOCK = 72_002;

/**
 * Claims up to `limit` due deliveries of active endpoints for one sender, with a lease that
 * expires: a sender that dies mid-request does not keep them from being retried, and SKIP LOCKED
 * lets any number of senders share the work without sending one delivery twice at a time.
 *
 * Fair between owners: an owner never has more than `perOwner` deliveries in flight (under an
 * unexpired lease) across all senders, and the owners with due deliveries take turns (each one's
 * first, then each one's second…), so one owner's slow endpoints can hold at most `perOwner`
 * requests, never the senders. Claims take a transaction-scoped advisory lock, so that two senders
 * do not both count the same free places. A delivery in flight was due when it was claimed (its
 * next_attempt_at is not moved), so the due deliveries are all the rows the counting reads.
 */
export async function claimDueDeliveries(
  db: Db,
  claim: { limit: number; leaseSeconds: number; perOwner: number },
): Promise<DueDelivery[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DELIVERY_CLAIM_LOCK]);
    return tx.query<DueDelivery>(
      `WITH due AS (
         SELECT d.id, d.next_attempt_at, k.owner_id,
                coalesce(d.claimed_until >= now(), false) AS leased
           FROM webhook_deliveries d
           JOIN webhooks k ON k.id = d.webhook_id AND k.active
          WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_at <= now()),
       turns AS (
         SELECT id, next_attempt_at, leased,
                count(*) FILTER (WHERE leased) OVER (PARTITION BY owner_id) AS busy,
                row_number() OVER (PARTITION BY owner_id, leased ORDER BY next_attempt_at, id) AS turn
           FROM due),
       picked AS (
         SELECT id FROM turns
          WHERE NOT leased AND busy + turn <= $3
          ORDER BY turn, next_attempt_at, id
          LIMIT $1),
       claimed AS (
         UPDATE webhook_deliveries
            SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
          WHERE id IN (SELECT id FROM webhook_deliveries
                        WHERE id IN (SELECT id FROM picked)
                          FOR UPDATE SKIP LOCKED)
         RETURNING id, webhook_id, event_id, body, attempts)
       SELECT c.id, c.webhook_id AS "webhookId", c.event_id AS "eventId", c.body, c.attempts,
              k.url, k.secret
         FROM claimed c JOIN webhooks k ON k.id = c.webhook_id`,
      [claim.limit, claim.leaseSeconds, claim.perOwner],
    );
  });
}

/** A 2xx answer: the delivery is done and the endpoint is no longer failing. */
export async function markDelivered(db: Queryable, delivery: DueDelivery, status: number) {
  await db.query(
    `UPDATE webhook_deliveries
        SET delivered_at = now_ms(), last_attempt_at = now_ms(), last_status = $2,
            last_error = NULL, claimed_until = NULL
      WHERE id = $1`,
    [delivery.id, status],
  );
  await db.query('UPDATE webhooks SET failing_since = NULL WHERE id = $1', [delivery.webhookId]);
}

/**
 * A failed attempt: retried in `retryInSeconds`, or marked failed when that is null. The endpoint
 * is disabled once it has failed every attempt for `disableAfterSeconds` (no success since).
 * Returns whether this attempt disabled it.
 */
export async function markAttemptFailed(
  db: Queryable,
  delivery: DueDelivery,
  outcome: {
    status: number | null;
    error: string;
    retryInSeconds: number | null;
    disableAfterSeconds: number;
  },
): Promise<boolean> {
  await db.query(
    `UPDATE webhook_deliveries
        SET last_attempt_at = now_ms(), last_status = $2, last_error = $3, claimed_until = NULL,
            next_attempt_at = CASE WHEN $4::int IS NULL THEN next_attempt_at
                                   ELSE now_ms() + make_interval(secs => $4::int) END,
            failed_at = CASE WHEN $4::int IS NULL THEN now_ms() END
      WHERE id = $1`,
    [delivery.id, outcome.status, outcome.error.slice(0, 500), outcome.retryInSeconds],
  );
  const rows = await db.query<{ disabled: boolean }>(
    `WITH k0 AS (
       SELECT id, (active AND failing_since IS NOT NULL
                   AND failing_since <= now() - make_interval(secs => $2)) AS disable
         FROM webhooks WHERE id = $1 FOR UPDATE)
     UPDATE webhooks k
        SET failing_since = coalesce(k.failing_since, now_ms()),
            active = k.active AND NOT k0.disable,
            disabled_at = CASE WHEN k0.disable THEN now_ms() ELSE k.disabled_at END,
            disabled_reason = CASE WHEN k0.disable THEN $3 ELSE k.disabled_reason END
       FROM k0
      WHERE k.id = k0.id
      RETURNING k0.disable AS disabled`,
    [delivery.webhookId, outcome.disableAfterSeconds, disabledReason(outcome.disableAfterSeconds)],
  );
  return rows[0]?.disabled ?? false;
}

function disabledReason(seconds: number): string {
  const days = Math.round(seconds / 86_400);
  return `Every delivery failed for ${days} day${days === 1 ? '' : 's'}; turn the endpoint back on once it answers.`;
}
