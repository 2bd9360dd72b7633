// Upgrade steps written in TypeScript: data a SQL migration cannot compute, because it comes from
// the matching module. Each runs right after the SQL migration of the same version, in the same
// transaction (migrate.ts), so a database is never left half upgraded. They call pure functions
// only (matching, the alert assessment); the SQL stays here.
import { type AssessedRecord, assessAlert } from '../domain/alert-assessment.ts';
import { decideConflictPrepared, prepareWatch } from '../matching/decide.ts';
import { MATCH_KEYS_VERSION, matchKeys } from '../matching/normalize.ts';
import type { Db, Queryable } from './db.ts';

const BATCH = 2_000;

/**
 * Gives every stored mark the keys of the current MATCH_KEYS_VERSION, after the migrations, one
 * transaction per batch of marks in id order (keyset), each recording the last id done in
 * match_keys_state: a re-key stopped halfway continues from there on the next start, and no
 * transaction holds the whole mirror. The state row is locked per batch, so processes that start
 * together take turns; code older than the recorded version leaves it alone.
 * change_seq is left alone: the record did not change, and re-scanning the whole mirror for every
 * watch would raise alerts on marks filed long ago. The new rules apply to records imported from
 * now on and to every full scan. A mark whose text an import changed meanwhile is skipped: the
 * import stored the current keys.
 * Scans may run while it works: version 6 removed keys that no rule reads (anchors of word pairs
 * and whole marks, skeletons of common words) and added only what two new rules read (the spoken
 * form of a mark with a digit, compound keys), so a mark not yet re-keyed is found by every rule
 * but `digits_as_words` and `compound`.
 */
export async function rekeyStoredMarks(
  db: Db,
  options: { batchSize?: number; afterBatch?: (rekeyedThrough: number) => void } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? BATCH;
  for (;;) {
    const through = await db.transaction(async (tx) => {
      const [state] = await tx.query<{ version: number; through: number | null }>(
        'SELECT version, rekeyed_through AS through FROM match_keys_state FOR UPDATE',
      );
      if (state === undefined || state.version > MATCH_KEYS_VERSION) return null;
      if (state.version === MATCH_KEYS_VERSION && state.through === null) return null;
      const after = state.version === MATCH_KEYS_VERSION ? Number(state.through) : 0;
      const last = await rekeyBatch(tx, after, batchSize);
      await tx.query('UPDATE match_keys_state SET version = $1, rekeyed_through = $2', [
        MATCH_KEYS_VERSION,
        last,
      ]);
      return last;
    });
    if (through === null) return;
    options.afterBatch?.(through);
  }
}

/** Re-keys the next marks after id `after`; returns the last id done, or null when none was left. */
async function rekeyBatch(tx: Queryable, after: number, size: number): Promise<number | null> {
  const rows = await tx.query<{ id: number; markText: string }>(
    'SELECT id, mark_text AS "markText" FROM marks WHERE id > $1 ORDER BY id LIMIT $2',
    [after, size],
  );
  if (rows.length === 0) return null;
  const keys = rows.map((r) => {
    const k = matchKeys(r.markText);
    return { id: r.id, markText: r.markText, tokens: k.tokens, soundCodes: k.soundCodes };
  });
  await tx.query(
    `UPDATE marks m SET tokens = k.tokens, sound_codes = k."soundCodes"
       FROM jsonb_to_recordset($1::text::jsonb)
            AS k(id bigint, "markText" text, tokens text[], "soundCodes" text[])
      WHERE m.id = k.id AND m.mark_text = k."markText"`,
    [JSON.stringify(keys)],
  );
  return Number((rows.at(-1) as { id: number }).id);
}

type UnassessedAlert = AssessedRecord & {
  alertId: string;
  watchName: string;
  niceClasses: number[];
  watchDesignations: string[];
};

/**
 * Alerts recorded before severities existed get theirs: the decision is made again between the
 * watch as it is now and the record as the hit recorded it (designations from the mirror where the
 * record is still there). When today's rules no longer see the conflict (the watch was edited, or
 * a rule changed), the rationale says so and the severity is low.
 */
async function assessOldAlerts(tx: Queryable): Promise<void> {
  for (;;) {
    const rows = await tx.query<UnassessedAlert>(
      `SELECT a.id AS "alertId", w.name AS "watchName",
              coalesce(w.attributes->'niceClasses', '[]'::jsonb) AS "niceClasses",
              coalesce(w.attributes->'designations', '[]'::jsonb) AS "watchDesignations",
              h.external_id AS "externalId", h.display_name AS "markText",
              h.owner_name AS "ownerName", h.owner_country_code AS "ownerCountryCode",
              h.jurisdiction, coalesce(m.designations, '{}') AS designations,
              iso_ms(h.filed_at) AS "filedAt", h.status, h.classes,
              iso_ms(coalesce(h.published_at, m.published_at)) AS "publishedAt"
         FROM alerts a
         JOIN hits h ON h.id = a.hit_id
         JOIN watches w ON w.id = a.watch_id
         LEFT JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
        WHERE a.severity IS NULL
        ORDER BY a.id
        LIMIT $1`,
      [BATCH],
    );
    if (rows.length === 0) return;
    const assessed = rows.map((r) => {
      const watch = prepareWatch({
        name: r.watchName,
        niceClasses: r.niceClasses,
        designations: r.watchDesignations,
      });
      const a = assessAlert(watch, r, decideConflictPrepared(watch, r));
      return {
        id: r.alertId,
        severity: a.severity,
        rationale: a.rationale,
        opposition: a.opposition,
      };
    });
    const json = JSON.stringify(assessed);
    // The hits first: the alerts' trigger builds their API JSON from them.
    await tx.query(
      `UPDATE hits SET opposition = a.opposition
         FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, opposition jsonb), alerts x
        WHERE x.id = a.id AND hits.id = x.hit_id AND a.opposition IS NOT NULL`,
      [json],
    );
    await tx.query(
      `UPDATE alerts SET severity = a.severity, rationale = a.rationale, rationale_at = now_ms()
         FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, severity text, rationale text)
        WHERE alerts.id = a.id`,
      [json],
    );
  }
}

/**
 * The alerts of the hits migration 014 corrected (table invented_hits): their rationale quoted an
 * owner, country or classes the source never gave, and their severity was set with classes that
 * were made up. Each is assessed again, as assessOldAlerts does, from the corrected hit.
 */
async function reassessCorrectedAlerts(tx: Queryable): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await tx.query<UnassessedAlert>(
      `SELECT a.id AS "alertId", w.name AS "watchName",
              coalesce(w.attributes->'niceClasses', '[]'::jsonb) AS "niceClasses",
              coalesce(w.attributes->'designations', '[]'::jsonb) AS "watchDesignations",
              h.external_id AS "externalId", h.display_name AS "markText",
              h.owner_name AS "ownerName", h.owner_country_code AS "ownerCountryCode",
              h.jurisdiction, coalesce(m.designations, '{}') AS designations,
              iso_ms(h.filed_at) AS "filedAt", h.status, h.classes,
              iso_ms(h.published_at) AS "publishedAt"
         FROM invented_hits i
         JOIN hits h ON h.id = i.id
         JOIN alerts a ON a.hit_id = h.id
         JOIN watches w ON w.id = a.watch_id
         LEFT JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
        WHERE a.id > $1
        ORDER BY a.id
        LIMIT $2`,
      [after, BATCH],
    );
    if (rows.length === 0) return;
    const assessed = rows.map((r) => {
      const watch = prepareWatch({
        name: r.watchName,
        niceClasses: r.niceClasses,
        designations: r.watchDesignations,
      });
      const a = assessAlert(watch, r, decideConflictPrepared(watch, r));
      return { id: r.alertId, severity: a.severity, rationale: a.rationale };
    });
    // The alerts' trigger rebuilds their API JSON from the corrected hits.
    await tx.query(
      `UPDATE alerts SET severity = a.severity, rationale = a.rationale, rationale_at = now_ms()
         FROM jsonb_to_recordset($1::text::jsonb) AS a(id text, severity text, rationale text)
        WHERE alerts.id = a.id`,
      [JSON.stringify(assessed)],
    );
    after = (rows.at(-1) as UnassessedAlert).alertId;
  }
}

export const UPGRADES: Readonly<Record<string, (tx: Queryable) => Promise<void>>> = {
  '014_no_invented_values': async (tx) => {
    await reassessCorrectedAlerts(tx);
    await tx.exec('DROP TABLE invented_hits');
  },
  '008_alert_assessment': async (tx) => {
    // The keys of version 4 come with rekeyStoredMarks, which migrate() runs after the migrations.
    await assessOldAlerts(tx);
    // The alerts' list-version triggers (007) are deferred to the commit, and PostgreSQL alters no
    // table with pending trigger events: they run now (once per owner, as at a commit), and the
    // triggers are deferred again for whatever the transaction does next.
    await tx.exec(`SET CONSTRAINTS alerts_list_version, alerts_list_version_update IMMEDIATE;
      ALTER TABLE alerts
        ALTER COLUMN severity SET NOT NULL,
        ALTER COLUMN rationale SET NOT NULL,
        ALTER COLUMN rationale_at SET NOT NULL;
      SET CONSTRAINTS alerts_list_version, alerts_list_version_update DEFERRED`);
  },
};
