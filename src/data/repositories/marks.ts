import type { RegisterRecord } from '../../register/record.ts';
import type { Queryable } from '../db.ts';

/** One register record ready to store: the normalized fields plus its match keys. */
export type MarkUpsert = RegisterRecord & {
  sourceCode: string;
  normText: string;
  compactText: string;
  /** compactText.length: the length the matching rules count (partial trigram indexes). */
  compactLength: number;
  tokens: string[];
  /** Whole-mark Double Metaphone codes the phonetic rule compares (column sound_codes). */
  soundCodes: string[];
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
                        classes, logo_url, raw_payload, norm_text, compact_text, compact_len, tokens,
                        sound_codes)
     SELECT r."sourceCode", r."externalId", r."markText", r."ownerName", r."ownerCountryCode",
            r.jurisdiction, r.designations, r."filedAt", r."registeredAt", r."expiresAt", r.status,
            r.classes, r."logoUrl", r."rawPayload", r."normText", r."compactText", r."compactLength",
            r.tokens, r."soundCodes"
       FROM jsonb_to_recordset($1::text::jsonb) AS r(
              "sourceCode" text, "externalId" text, "markText" text, "ownerName" text,
              "ownerCountryCode" text, jurisdiction text, designations text[],
              "filedAt" timestamptz, "registeredAt" timestamptz, "expiresAt" timestamptz,
              status text, classes integer[], "logoUrl" text, "rawPayload" jsonb,
              "normText" text, "compactText" text, "compactLength" smallint, tokens text[],
              "soundCodes" text[])
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
       compact_len = excluded.compact_len,
       tokens = excluded.tokens,
       sound_codes = excluded.sound_codes,
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

/** Imports smaller than this leave the planner statistics to autovacuum. */
const ANALYZE_MIN_ROWS = 10_000;

/**
 * After an import, makes the mirror fast to search at once instead of after autovacuum's next visit:
 * - merges the pending lists of the GIN indexes (fastupdate queues new entries in a list, up to
 *   gin_pending_list_limit, 4 MB per index, that every search reads in full: after an import each
 *   candidate query would read ~1,500 such pages). The merge is work the inserts would have done
 *   later anyway;
 * - refreshes the planner statistics when the import wrote at least 10,000 rows and more than
 *   autoanalyze's own threshold (10% of the table, as of its last ANALYZE).
 * Both need the table's owner (the role that migrated); for another role they are skipped.
 */
export async function settleMarkIndexes(db: Queryable, written: number): Promise<void> {
  try {
    await db.query(
      `SELECT gin_clean_pending_list(i.indexrelid)
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = 'marks'::regclass AND am.amname = 'gin'`,
    );
  } catch {
    // Not the owner: the pending lists are merged by the next insert over the limit or autovacuum.
  }
  if (written < ANALYZE_MIN_ROWS) return;
  const stats = await db.query<{ tuples: number }>(
    `SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = 'marks'::regclass`,
  );
  const tuples = stats[0]?.tuples ?? -1;
  // reltuples is -1 for a table never analyzed (PostgreSQL 14+), 0 before 14.
  if (tuples <= 0 || written > 50 + 0.1 * tuples) await db.query('ANALYZE marks');
}
