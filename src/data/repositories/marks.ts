import type { RegisterRecord } from '../../register/record.ts';
import type { Queryable } from '../db.ts';

/** One register record ready to store: the normalized fields plus its match keys. */
export type MarkUpsert = RegisterRecord & {
  sourceCode: string;
  normText: string;
  compactText: string;
  tokens: string[];
  phonetic: string[];
};

// Any constant; the same in every process that imports.
const IMPORT_LOCK = 72_002;

/**
 * Inserts or updates a batch of records in one statement; an update takes a new change_seq so
 * incremental scans see it. The batch is passed as one JSON parameter (jsonb_to_recordset) because
 * rows carry arrays, which unnest() cannot take apart. Returns how many rows were new.
 */
export async function upsertMarks(
  tx: Queryable,
  batch: MarkUpsert[],
): Promise<{ inserted: number; updated: number }> {
  if (batch.length === 0) return { inserted: 0, updated: 0 };
  // Serialise imports so change_seq values commit in increasing order (see 002_register_mirror.sql).
  await tx.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
  const rows = await tx.query<{ inserted: boolean }>(
    `INSERT INTO marks AS m (source_code, external_id, mark_text, owner_name, owner_country_code,
                        jurisdiction, designations, filed_at, registered_at, expires_at, status,
                        classes, logo_url, raw_payload, norm_text, compact_text, tokens, phonetic)
     SELECT r."sourceCode", r."externalId", r."markText", r."ownerName", r."ownerCountryCode",
            r.jurisdiction, r.designations, r."filedAt", r."registeredAt", r."expiresAt", r.status,
            r.classes, r."logoUrl", r."rawPayload", r."normText", r."compactText", r.tokens, r.phonetic
       FROM jsonb_to_recordset($1::text::jsonb) AS r(
              "sourceCode" text, "externalId" text, "markText" text, "ownerName" text,
              "ownerCountryCode" text, jurisdiction text, designations text[],
              "filedAt" timestamptz, "registeredAt" timestamptz, "expiresAt" timestamptz,
              status text, classes integer[], "logoUrl" text, "rawPayload" jsonb,
              "normText" text, "compactText" text, tokens text[], phonetic text[])
     ON CONFLICT ON CONSTRAINT marks_source_external_key DO UPDATE SET
       mark_text = excluded.mark_text,
       owner_name = excluded.owner_name,
       owner_country_code = excluded.owner_country_code,
       jurisdiction = excluded.jurisdiction,
       designations = excluded.designations,
       filed_at = excluded.filed_at,
       registered_at = excluded.registered_at,
       expires_at = excluded.expires_at,
       status = excluded.status,
       classes = excluded.classes,
       logo_url = excluded.logo_url,
       raw_payload = excluded.raw_payload,
       norm_text = excluded.norm_text,
       compact_text = excluded.compact_text,
       tokens = excluded.tokens,
       phonetic = excluded.phonetic,
       change_seq = nextval('marks_change_seq'),
       updated_at = now_ms()
     RETURNING (xmax = 0) AS inserted`,
    [JSON.stringify(batch)],
  );
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

export async function countMarks(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks');
  return rows[0]?.n ?? 0;
}

/** The newest change_seq value committed: the upper bound of a scan. */
export async function highestChangeSeq(db: Queryable): Promise<number> {
  const rows = await db.query<{ seq: number }>(
    'SELECT coalesce(max(change_seq), 0)::int8 AS seq FROM marks',
  );
  return rows[0]?.seq ?? 0;
}
