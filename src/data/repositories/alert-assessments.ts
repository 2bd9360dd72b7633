import type { Queryable } from '../db.ts';

// The alerts whose assessment (severity, rationale, the hit's opposition window) is made again,
// and the writing of the new one. The assessment itself is the domain's (domain/alerts).

/**
 * Which alerts to assess again: those recorded before severities existed (migration 008), or those
 * whose hits migration 014 corrected (table invented_hits, present only while it runs).
 */
export type ReassessSelection = { kind: 'unassessed' } | { kind: 'corrected-hits' };

/** An alert to assess again: its watch as it is now, and its record as the hit recorded it. */
export type AlertToReassess = {
  alertId: string;
  watchName: string;
  niceClasses: number[];
  watchDesignations: string[];
  externalId: string;
  markText: string;
  ownerName: string | null;
  ownerCountryCode: string | null;
  jurisdiction: string;
  /** From the mirror, where the record is still there. */
  designations: string[];
  filedAt: string;
  status: string | null;
  classes: number[];
  publishedAt: string | null;
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
};

/** The next `limit` alerts of the selection after alert id `after`, in id order. */
export async function alertsToReassess(
  tx: Queryable,
  which: ReassessSelection,
  after: string,
  limit: number,
): Promise<AlertToReassess[]> {
  const { from, publishedAt } = SELECTIONS[which.kind];
  return tx.query<AlertToReassess>(
    `SELECT a.id AS "alertId", w.name AS "watchName",
            coalesce(w.attributes->'niceClasses', '[]'::jsonb) AS "niceClasses",
            coalesce(w.attributes->'designations', '[]'::jsonb) AS "watchDesignations",
            h.external_id AS "externalId", h.display_name AS "markText",
            h.owner_name AS "ownerName", h.owner_country_code AS "ownerCountryCode",
            h.jurisdiction, coalesce(m.designations, '{}') AS designations,
            iso_ms(h.filed_at) AS "filedAt", h.status, h.classes,
            iso_ms(${publishedAt}) AS "publishedAt"
       FROM ${from}
       JOIN watches w ON w.id = a.watch_id
       LEFT JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
      WHERE ${which.kind === 'unassessed' ? 'a.severity IS NULL AND ' : ''}a.id > $1
      ORDER BY a.id
      LIMIT $2`,
    [after, limit],
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
 * Writes the alerts' new assessments, and with `opposition` their hits' opposition windows too
 * (where there is one). The alerts' trigger (migration 004) rebuilds their API JSON from the hits,
 * so the hits are written first.
 */
export async function writeReassessments(
  tx: Queryable,
  assessed: readonly Reassessment[],
  options: { opposition: boolean },
): Promise<void> {
  const json = JSON.stringify(assessed);
  if (options.opposition) {
    await tx.query(
      `UPDATE hits SET opposition = a.opposition
         FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, opposition jsonb), alerts x
        WHERE x.id = a.id AND hits.id = x.hit_id AND a.opposition IS NOT NULL`,
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
