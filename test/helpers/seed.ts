import type { Db } from '../../src/data/db.ts';
import type { NewAlert, NewHit } from '../../src/data/repositories/alerts.ts';
import { newId, randomBase62 } from '../../src/domain/ids.ts';
import { matchKeys } from '../../src/matching/normalize.ts';
import { MIRROR_SOURCE } from '../../src/register/sources.ts';

// The only rows of the test suite written by hand: everything else is made through the domain
// services (factories.ts), or by a scan.

/**
 * Bulk rows written straight to the database, for tests that need hundreds of watches (quota caps,
 * page walks) where creating each one through the API would cost minutes. Rows are what the API
 * would write: same columns, same id shape.
 */
export async function seedWatches(
  db: Db,
  options: {
    ownerId: string;
    createdBy: string;
    count: number;
    active?: boolean;
    /** Every row gets this createdAt (ties on purpose); default: one millisecond apart, older first. */
    createdAt?: string;
  },
): Promise<string[]> {
  const batch = randomBase62(8);
  const rows = await db.query<{ id: string }>(
    `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                          scan_cadence, active, created_at)
     SELECT 'wat_' || $1 || lpad(g::text, 5, '0'), $2, $3, 'trademark', 'Seeded ' || g,
            '{"niceClasses":[9],"designations":["DE"]}'::jsonb,
            ARRAY[$7::text], 'daily', $5,
            coalesce($6::timestamptz, date_trunc('milliseconds', now()) - interval '1 hour'
                                       + g * interval '1 millisecond')
       FROM generate_series(1, $4::int) AS g
     RETURNING id`,
    [
      batch,
      options.ownerId,
      options.createdBy,
      options.count,
      options.active ?? true,
      options.createdAt ?? null,
      MIRROR_SOURCE,
    ],
  );
  return rows.map((row) => row.id);
}

/**
 * A watch as the schema before migration 008 stored it, for the tests that upgrade such a
 * database (the watch service writes today's schema).
 */
export async function insertWatchBefore008(db: Db, ownerId: string): Promise<string> {
  const watchId = newId('wat');
  await db.query(
    `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                          scan_cadence)
     VALUES ($1, $2, $2, 'trademark', 'Acme', '{"niceClasses":[9],"designations":["DE"]}',
             ARRAY[$3::text], 'daily')`,
    [watchId, ownerId, MIRROR_SOURCE],
  );
  return watchId;
}

/**
 * An alert and its hit as the schema before migration 008 stored them (no severity, rationale,
 * publication date or opposition window), for the tests that upgrade such a database: no service
 * of today can write that shape.
 */
export async function insertAlertBefore008(
  db: Db,
  watchId: string,
  options: { markText?: string; externalId?: string; jurisdiction?: string } = {},
): Promise<string> {
  const hitId = newId('hit');
  const alertId = newId('alt');
  const markText = options.markText ?? 'ACME';
  const externalId = options.externalId ?? `EM5000000${hitId.slice(4, 12)}`;
  await db.query(
    `INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                       owner_name, owner_country_code, jurisdiction, filed_at, status, classes,
                       raw_payload)
     VALUES ($1, $2, $7, $3, 'trademark', $4, 'Acme Holdings Ltd', 'GB',
             $5, '2026-10-01T00:00:00Z', 'filed', '{9,42}', $6)`,
    [
      hitId,
      watchId,
      externalId,
      markText,
      options.jurisdiction ?? 'EM',
      { externalId, markText },
      MIRROR_SOURCE,
    ],
  );
  await db.query(
    `INSERT INTO alerts (id, watch_id, hit_id, owner_id)
     SELECT $1, $2, $3, owner_id FROM watches WHERE id = $2`,
    [alertId, watchId, hitId],
  );
  return alertId;
}

/**
 * A hit and its alert as the schema from 008 to 029 stored them (no origin), for the tests that
 * upgrade such a database; `row` is what the factories make (hitWithAlert).
 */
export async function insertAlertBefore030(db: Db, row: NewHit & NewAlert): Promise<string> {
  await db.query(
    `INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                       owner_name, owner_country_code, jurisdiction, filed_at, status, classes,
                       raw_payload, published_at, opposition)
     VALUES ($1, $2, $3, $4, 'trademark', $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13,
             $14::text::jsonb)`,
    [
      row.id,
      row.watchId,
      row.sourceCode,
      row.externalId,
      row.displayName,
      row.ownerName,
      row.ownerCountryCode,
      row.jurisdiction,
      row.filedAt,
      row.status,
      row.classes,
      JSON.stringify(row.rawPayload),
      row.publishedAt,
      JSON.stringify(row.opposition),
    ],
  );
  await db.query(
    `INSERT INTO alerts (id, watch_id, hit_id, owner_id, severity, rationale, rationale_at)
     SELECT $1, $2, $3, owner_id, $4, $5, now_ms() FROM watches WHERE id = $2`,
    [row.alertId, row.watchId, row.id, row.severity, row.rationale],
  );
  return row.alertId;
}

/**
 * Register records as the importer stored them from migration 028 to 034: the match keys in
 * marks' own columns, the two-edit band's rows beside them. For the test that upgrades such a
 * mirror; `records` are what makeRecord makes.
 */
export async function insertMarksBefore035(
  db: Db,
  records: readonly {
    externalId: string;
    markText: string;
    jurisdiction: string;
    designations?: string[];
    classes: number[];
  }[],
): Promise<void> {
  const rows = records.map((r) => {
    const keys = matchKeys(r.markText);
    return {
      ...r,
      designations: r.designations ?? [],
      normText: keys.normalized,
      compact: keys.compact,
      compactLength: keys.compact.length,
      tokens: keys.tokens,
      soundCodes: keys.soundCodes,
    };
  });
  await db.query(
    `WITH written AS (
       INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                          jurisdiction, designations, filed_at, status, classes, raw_payload,
                          norm_text, compact_text, compact_len, tokens, sound_codes)
       SELECT $2, r."externalId", r."markText", NULL, NULL, r.jurisdiction, r.designations,
              '2026-10-01', 'filed', r.classes, '{}', r."normText", r.compact,
              r."compactLength", r.tokens, r."soundCodes"
         FROM jsonb_to_recordset($1::text::jsonb) AS r("externalId" text, "markText" text,
              jurisdiction text, designations text[], classes int[], "normText" text,
              compact text, "compactLength" smallint, tokens text[], "soundCodes" text[])
       RETURNING id, compact_text, compact_len, classes, jurisdiction, designations)
     INSERT INTO mark_band (id, compact_text, compact_len, class_keys, coverage_keys)
     SELECT id, compact_text, compact_len, mark_class_keys(classes),
            mark_coverage_keys(jurisdiction, designations)
       FROM written WHERE compact_len >= 8`,
    [JSON.stringify(rows), MIRROR_SOURCE],
  );
}
