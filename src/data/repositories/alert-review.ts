import type { Queryable } from '../db.ts';
import { Params } from './json-sql.ts';

/** The dashboard's list orders (src/domain/alerts/review.ts says what each means). */
export type ReviewSort = 'newest' | 'severity' | 'deadline';

export type ReviewFilter = {
  ownerId: string;
  /** Alert states and severities: the values the alerts table's CHECK constraints allow. */
  states?: readonly string[] | undefined;
  severities?: readonly string[] | undefined;
  /** new_filing or existing_mark (the CHECK constraint's values); undefined: both. */
  origin?: string | undefined;
  watchId?: string | undefined;
  /** Text in the mark, compared case- and accent-insensitively. */
  q?: string | undefined;
};

/**
 * Where a page of the review list starts: strictly after this row. Every order is (rank ASC,
 * closes ASC, created_at DESC, id DESC), with rank and closes constant where an order does not use
 * them, so one keyset comparison serves the three orders.
 */
export type ReviewPosition = { rank: number; closes: string; createdAt: string; id: string };

export type ReviewRow = {
  /** The alert's API JSON, as GET /api/v1/alerts/{id} returns it. */
  json: string;
  note: string | null;
  position: ReviewPosition;
};

/** Sort keys as SQL over `a` (alerts) and `h` (hits); `today` is YYYY-MM-DD. */
function sortKeys(p: Params, sort: ReviewSort, today: string): { rank: string; closes: string } {
  if (sort === 'severity') {
    return {
      rank: `CASE a.severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END`,
      closes: `''`,
    };
  }
  if (sort === 'deadline') {
    // Open: the last day to oppose is today or later. Dates are YYYY-MM-DD, so text order is date
    // order; a window that is closed or not known ranks after every open one.
    const open = `(h.opposition->>'closesAt') COLLATE "C" >= ${p.add(today)}::text`;
    return {
      rank: `CASE WHEN ${open} THEN 0 ELSE 1 END`,
      closes: `CASE WHEN ${open} THEN (h.opposition->>'closesAt') ELSE '' END`,
    };
  }
  return { rank: '0', closes: `''` };
}

function whereOf(p: Params, filter: ReviewFilter): string[] {
  const where = [`a.owner_id = ${p.add(filter.ownerId)}`];
  if (filter.states && filter.states.length > 0) {
    where.push(`a.state = ANY(${p.add(filter.states)}::text[])`);
  }
  if (filter.severities && filter.severities.length > 0) {
    where.push(`a.severity = ANY(${p.add(filter.severities)}::text[])`);
  }
  if (filter.origin !== undefined) where.push(`a.origin = ${p.add(filter.origin)}`);
  if (filter.watchId !== undefined) where.push(`a.watch_id = ${p.add(filter.watchId)}`);
  if (filter.q !== undefined && filter.q !== '') {
    // strpos, not LIKE: the user's % and _ are text, not patterns.
    where.push(
      `strpos(lower(unaccent(h.display_name)), lower(unaccent(${p.add(filter.q)}::text))) > 0`,
    );
  }
  return where;
}

/**
 * Up to `limit` alerts of the filter in the order `sort`, after `after`. The export reads the whole
 * list through this in pages, so no more than one page is ever in memory.
 */
export async function reviewPage(
  db: Queryable,
  o: {
    filter: ReviewFilter;
    sort: ReviewSort;
    today: string;
    after?: ReviewPosition | undefined;
    limit: number;
  },
): Promise<ReviewRow[]> {
  const p = new Params();
  const where = whereOf(p, o.filter);
  const keys = sortKeys(p, o.sort, o.today);
  const outer: string[] = [];
  if (o.after) {
    const rank = p.add(o.after.rank);
    const closes = p.add(o.after.closes);
    const created = p.add(o.after.createdAt);
    const id = p.add(o.after.id);
    outer.push(
      `(s.rank > ${rank}::int OR (s.rank = ${rank}::int AND (s.closes > ${closes}::text
         OR (s.closes = ${closes}::text AND (s.created_at, s.id) < (${created}::timestamptz, ${id}::text)))))`,
    );
  }
  const rows = await db.query<{
    json: string;
    note: string | null;
    rank: number;
    closes: string;
    created: string;
    id: string;
  }>(
    `SELECT s.json, s.note, s.rank, s.closes, iso_ms(s.created_at) AS created, s.id
       FROM (SELECT a.api_json AS json, n.note, a.created_at, a.id,
                    (${keys.rank})::int AS rank, (${keys.closes})::text COLLATE "C" AS closes
               FROM alerts a
               JOIN hits h ON h.id = a.hit_id
               LEFT JOIN alert_notes n ON n.alert_id = a.id
              WHERE ${where.join(' AND ')}) s
      ${outer.length > 0 ? `WHERE ${outer.join(' AND ')}` : ''}
      ORDER BY s.rank, s.closes, s.created_at DESC, s.id DESC
      LIMIT ${p.add(o.limit)}`,
    p.values,
  );
  return rows.map((row) => ({
    json: row.json,
    note: row.note,
    position: { rank: row.rank, closes: row.closes, createdAt: row.created, id: row.id },
  }));
}

/** How many alerts of the filter (its states and severities left out) have each state and severity. */
export async function reviewCounts(
  db: Queryable,
  filter: Omit<ReviewFilter, 'states' | 'severities'>,
): Promise<{ state: string; severity: string; n: number }[]> {
  const p = new Params();
  const where = whereOf(p, filter);
  return db.query(
    `SELECT a.state, a.severity, count(*)::int AS n
       FROM alerts a
       JOIN hits h ON h.id = a.hit_id
      WHERE ${where.join(' AND ')}
      GROUP BY a.state, a.severity`,
    p.values,
  );
}

export type AlertNote = { note: string; authorEmail: string | null; updatedAt: string };

/** The note of an alert the owner owns, with its author's e-mail (null once the user is gone). */
export async function noteOf(
  db: Queryable,
  ownerId: string,
  alertId: string,
): Promise<AlertNote | null> {
  const rows = await db.query<AlertNote>(
    `SELECT n.note, u.email AS "authorEmail", iso_ms(n.updated_at) AS "updatedAt"
       FROM alert_notes n
       LEFT JOIN users u ON u.id = n.author_id
      WHERE n.alert_id = $1 AND n.owner_id = $2`,
    [alertId, ownerId],
  );
  return rows[0] ?? null;
}

/**
 * Writes (or, for null, deletes) the note of an alert the owner owns. Returns false when the owner
 * has no such alert. The owner is checked on the alert itself, so a note can never be attached to
 * another owner's alert.
 */
export async function writeNote(
  db: Queryable,
  o: { ownerId: string; alertId: string; authorId: string; note: string | null },
): Promise<boolean> {
  const owned = await db.query<{ id: string }>(
    'SELECT id FROM alerts WHERE id = $1 AND owner_id = $2',
    [o.alertId, o.ownerId],
  );
  if (owned.length === 0) return false;
  if (o.note === null) {
    await db.query('DELETE FROM alert_notes WHERE alert_id = $1', [o.alertId]);
    return true;
  }
  await db.query(
    `INSERT INTO alert_notes (alert_id, owner_id, note, author_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (alert_id) DO UPDATE
        SET note = EXCLUDED.note, author_id = EXCLUDED.author_id, updated_at = now_ms()`,
    [o.alertId, o.ownerId, o.note, o.authorId],
  );
  return true;
}
