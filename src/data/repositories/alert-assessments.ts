import type { Queryable } from '../db.ts';
import type { NewHit } from './alerts.ts';

// The alerts whose assessment (severity, rationale, the hit's opposition window) is made again,
// and the writing of the new one. The assessment itself is the domain's (domain/alerts).

/**
 * Which alerts to assess again: those recorded before severities existed (migration 008), those
 * whose hits migration 014 corrected (table invented_hits, present only while it runs), or those
 * migration 028 changes: on a dead record, or with a window computed for a publication from before
 * its office's rule came into force (`rulesFrom`: office → first day, filled in by the domain,
 * which holds the rules).
 */
export type ReassessSelection =
  | { kind: 'unassessed' }
  | { kind: 'corrected-hits' }
  | { kind: 'dead-or-before-rule'; rulesFrom?: Readonly<Record<string, string>> };

/** An alert to assess again: its watch as it is now, and its record as the hit recorded it. */
export type AlertToReassess = {
  alertId: string;
  watchName: string;
  niceClasses: number[];
  watchDesignations: string[];
  /** The watch attribute; absent in the stored attributes reads as true. */
  relatedClasses: boolean;
  externalId: string;
  markText: string;
  ownerName: string | null;
  ownerCountryCode: string | null;
  jurisdiction: string;
  /** From the mirror, where the record is still there. */
  designations: string[];
  filedAt: string;
  status: string | null;
  live: boolean | null;
  classes: number[];
  publishedAt: string | null;
  /** When the mirror took the office's deletion of the record (migration 037); null otherwise. */
  removedAt: string | null;
  /** When the database assessed it (its now()): a window closed by then reads as past. */
  assessedAt: string;
};

const SELECTIONS: Record<ReassessSelection['kind'], { from: string; publishedAt: string }> = {
  // The hit's own publication date, or the mirror's for hits recorded before hits kept one.
  unassessed: {
    from: 'alerts a JOIN hits h ON h.id = a.hit_id',
    publishedAt: 'coalesce(h.published_at, m.published_at)',
  },
  'corrected-hits': {
    from: 'invented_hits i JOIN hits h ON h.id = i.id JOIN alerts a ON a.hit_id = h.id',
    publishedAt: 'h.published_at',
  },
  'dead-or-before-rule': {
    from: 'alerts a JOIN hits h ON h.id = a.hit_id',
    publishedAt: 'h.published_at',
  },
};

/** The next `limit` alerts of the selection after alert id `after`, in id order. */
export async function alertsToReassess(
  tx: Queryable,
  which: ReassessSelection,
  after: string,
  limit: number,
): Promise<AlertToReassess[]> {
  const { from, publishedAt } = SELECTIONS[which.kind];
  const condition =
    which.kind === 'unassessed'
      ? 'a.severity IS NULL AND '
      : which.kind === 'dead-or-before-rule'
        ? `(h.live IS FALSE OR (h.opposition IS NOT NULL
             AND to_char(h.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') < ($3::jsonb->>h.jurisdiction))) AND `
        : '';
  return tx.query<AlertToReassess>(
    `SELECT a.id AS "alertId", w.name AS "watchName",
            coalesce(w.attributes->'niceClasses', '[]'::jsonb) AS "niceClasses",
            coalesce(w.attributes->'designations', '[]'::jsonb) AS "watchDesignations",
            coalesce((w.attributes->>'relatedClasses')::boolean, true) AS "relatedClasses",
            h.external_id AS "externalId", h.display_name AS "markText",
            h.owner_name AS "ownerName", h.owner_country_code AS "ownerCountryCode",
            h.jurisdiction, coalesce(m.designations, '{}') AS designations,
            iso_ms(h.filed_at) AS "filedAt", h.status,
            -- Read through the row's JSON: migrations before 028 (which adds the column) assess
            -- alerts too, with this same query.
            (to_jsonb(h)->>'live')::boolean AS live, h.classes,
            iso_ms(${publishedAt}) AS "publishedAt", iso_ms(now()) AS "assessedAt",
            iso_ms((to_jsonb(h)->>'removed_at')::timestamptz) AS "removedAt"
       FROM ${from}
       JOIN watches w ON w.id = a.watch_id
       LEFT JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
      WHERE ${condition}a.id > $1
      ORDER BY a.id
      LIMIT $2`,
    which.kind === 'dead-or-before-rule'
      ? [after, limit, JSON.stringify(which.rulesFrom ?? {})]
      : [after, limit],
  );
}

export type Reassessment = {
  id: string;
  severity: string;
  /** Markdown. */
  rationale: string;
  opposition: unknown;
};

/**
 * Writes the alerts' new assessments, and their hits' opposition windows too: `where-found` only
 * where there is one, `always` also where there is none now (null), `never` not at all. The
 * alerts' trigger (migration 004) rebuilds their API JSON from the hits, so the hits are written
 * first.
 */
export async function writeReassessments(
  tx: Queryable,
  assessed: readonly Reassessment[],
  options: { opposition: 'where-found' | 'always' | 'never' },
): Promise<void> {
  const json = JSON.stringify(assessed);
  if (options.opposition !== 'never') {
    await tx.query(
      `UPDATE hits SET opposition = a.opposition
         FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, opposition jsonb), alerts x
        WHERE x.id = a.id AND hits.id = x.hit_id
          ${options.opposition === 'where-found' ? 'AND a.opposition IS NOT NULL' : ''}`,
      [json],
    );
  }
  await tx.query(
    `UPDATE alerts SET severity = a.severity, rationale = a.rationale, rationale_at = now_ms()
       FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, severity text, rationale text)
      WHERE alerts.id = a.id`,
    [json],
  );
}

/** A hit as its record is now (its window included), to write over the hit `hitId`. */
export type RefreshedHit = Omit<NewHit, 'id' | 'watchId'> & { hitId: string };

/**
 * Writes the hits of alerts whose register record changed as the record is now (a record the
 * office deleted: as it was last held, with when the mirror took the deletion). The alerts are
 * written after (writeReassessments), which rebuilds their JSON from these rows.
 */
export async function writeRefreshedHits(
  tx: Queryable,
  hits: readonly RefreshedHit[],
): Promise<void> {
  if (hits.length === 0) return;
  await tx.query(
    `UPDATE hits SET display_name = r."displayName", owner_name = r."ownerName",
            owner_country_code = r."ownerCountryCode", jurisdiction = r.jurisdiction,
            filed_at = r."filedAt", registered_at = r."registeredAt", expires_at = r."expiresAt",
            published_at = r."publishedAt", status = r.status, live = r.live,
            classes = r.classes, raw_payload = r."rawPayload", opposition = r.opposition,
            removed_at = r."removedAt"
       FROM jsonb_to_recordset($1::text::jsonb) AS r(
              "hitId" text, "displayName" text, "ownerName" text, "ownerCountryCode" text,
              jurisdiction text, "filedAt" timestamptz, "registeredAt" timestamptz,
              "expiresAt" timestamptz, "publishedAt" timestamptz, status text, live boolean,
              classes integer[], "rawPayload" jsonb, opposition jsonb, "removedAt" timestamptz)
      WHERE hits.id = r."hitId"`,
    [JSON.stringify(hits)],
  );
}
