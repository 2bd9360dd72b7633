import { TWO_EDITS_MIN_LENGTH } from '../../matching/decide.ts';
import type { RegisterRecord } from '../../register/record.ts';
import {
  COPY_SPECIAL,
  copyNumberArray,
  copyTextArray,
  copyValue,
  type Db,
  type Queryable,
} from '../db.ts';
import { foldWordCounts, wordCountDeltas } from './word-counts.ts';

/** One register record ready to store: the normalized fields plus its match keys. */
export type MarkUpsert = Omit<RegisterRecord, 'ownerKey'> & {
  sourceCode: string;
  normText: string;
  compactText: string;
  /** compactText.length: the length the matching rules count (partial trigram indexes). */
  compactLength: number;
  tokens: string[];
  /** Whole-mark Double Metaphone codes the phonetic rule compares (column sound_codes). */
  soundCodes: string[];
  /** YYYY-MM-DD: the day of the register this version is as of; null when unknown (column as_of). */
  asOf: string | null;
  /**
   * The office's key of the owner, for an office that names owners by key only (EUIPO): the name
   * is then filled in from register_parties (column owner_key). Null for every other record.
   */
  ownerKey: string | null;
};

// Any constant; the same in every process that imports.
const IMPORT_LOCK = 72_002;

/** The lock every write to the mirror takes, until its transaction ends. */
export async function takeImportLock(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
}

/**
 * The staging table of stageMarks: one per session, emptied at every commit. The batch is
 * COPY-ed into it, then moved into marks by one INSERT … ON CONFLICT (COPY cannot upsert).
 */
const STAGING = 'marks_import';
const CREATE_STAGING = `CREATE TEMP TABLE IF NOT EXISTS ${STAGING} (
  source_code text, external_id text, mark_text text, owner_name text, owner_country_code text,
  jurisdiction text, designations text[], filed_at timestamptz, registered_at timestamptz,
  expires_at timestamptz, published_at timestamptz, status text, classes integer[], logo_url text, raw_payload jsonb,
  norm_text text, compact_text text, compact_len smallint, tokens text[], sound_codes text[],
  goods jsonb, owner_key text, as_of date, live boolean
) ON COMMIT DELETE ROWS`;
const COLUMNS = `source_code, external_id, mark_text, owner_name, owner_country_code, jurisdiction,
  designations, filed_at, registered_at, expires_at, published_at, status, classes, logo_url, raw_payload,
  norm_text, compact_text, compact_len, tokens, sound_codes, goods, owner_key, as_of, live`;
/** The staged columns that marks stores; the match keys go to mark_keys (migration 035). */
const MARK_COLUMNS = COLUMNS.replace('tokens, sound_codes, ', '');
/**
 * The staged columns as written into marks: an owner named by key only (EUIPO) gets the name and
 * country of its applicant record, where the mirror holds one (the lookup runs only for such rows).
 */
const STAGED = MARK_COLUMNS.replace(
  'owner_name, owner_country_code,',
  `CASE WHEN s.owner_key IS NULL OR s.owner_name IS NOT NULL THEN s.owner_name
        ELSE (SELECT p.name FROM register_parties p WHERE p.office = s.jurisdiction
                 AND p.role = 'applicant' AND p.party_key = s.owner_key) END,
   CASE WHEN s.owner_key IS NULL OR s.owner_name IS NOT NULL THEN s.owner_country_code
        ELSE (SELECT p.country_code FROM register_parties p WHERE p.office = s.jurisdiction
                 AND p.role = 'applicant' AND p.party_key = s.owner_key) END,`,
);
const UPSERT = `WITH written AS (
  INSERT INTO marks AS m (${MARK_COLUMNS})
  SELECT ${STAGED} FROM ${STAGING} s
  ON CONFLICT ON CONSTRAINT marks_source_external_key DO UPDATE SET
    mark_text = excluded.mark_text,
    owner_name = excluded.owner_name,
    owner_country_code = excluded.owner_country_code,
    jurisdiction = excluded.jurisdiction,
    designations = excluded.designations,
    filed_at = excluded.filed_at,
    registered_at = excluded.registered_at,
    expires_at = excluded.expires_at,
    published_at = excluded.published_at,
    status = excluded.status,
    live = excluded.live,
    classes = excluded.classes,
    logo_url = excluded.logo_url,
    raw_payload = excluded.raw_payload,
    norm_text = excluded.norm_text,
    compact_text = excluded.compact_text,
    compact_len = excluded.compact_len,
    as_of = excluded.as_of,
    goods = excluded.goods,
    owner_key = excluded.owner_key,
    change_seq = nextval('marks_change_seq'),
    updated_at = now_ms()
  -- An older version than the one stored is left out (migration 019): not written, not returned,
  -- so neither mark_band nor change_seq moves for it. wordCountDeltas applies the same test.
  WHERE mark_supersedes(excluded.as_of, m.as_of)
  RETURNING id, source_code, external_id, compact_text, compact_len, classes, jurisdiction, designations,
            (xmax = 0) AS inserted
), keys AS (
  -- The candidate query's keys (migration 035), in the same statement as the mark, as the band
  -- below; an update that changed none of them leaves the row and its index entries alone.
  INSERT INTO mark_keys AS k (id, class_keys, coverage_keys, tokens, sound_codes)
  SELECT w.id, mark_class_keys(w.classes), mark_coverage_keys(w.jurisdiction, w.designations),
         s.tokens, s.sound_codes
    FROM written w
    JOIN ${STAGING} s ON s.external_id = w.external_id AND s.source_code = w.source_code
  ON CONFLICT (id) DO UPDATE SET
    class_keys = excluded.class_keys,
    coverage_keys = excluded.coverage_keys,
    tokens = excluded.tokens,
    sound_codes = excluded.sound_codes
  WHERE (k.class_keys, k.coverage_keys, k.tokens, k.sound_codes)
        IS DISTINCT FROM
        (excluded.class_keys, excluded.coverage_keys, excluded.tokens, excluded.sound_codes)
), band AS (
  -- The two-edit band's own table (migration 016): written in the same statement, so a committed
  -- mark is always in it, and left alone where an update changed nothing it holds.
  INSERT INTO mark_band AS b (id, compact_text, compact_len, class_keys, coverage_keys)
  SELECT id, compact_text, compact_len, mark_class_keys(classes),
         mark_coverage_keys(jurisdiction, designations)
    FROM written WHERE compact_len >= ${TWO_EDITS_MIN_LENGTH}
  ON CONFLICT (id) DO UPDATE SET
    compact_text = excluded.compact_text,
    compact_len = excluded.compact_len,
    class_keys = excluded.class_keys,
    coverage_keys = excluded.coverage_keys
  WHERE (b.compact_text, b.class_keys, b.coverage_keys)
        IS DISTINCT FROM (excluded.compact_text, excluded.class_keys, excluded.coverage_keys)
), shortened AS (
  DELETE FROM mark_band b USING written w
   WHERE b.id = w.id AND NOT w.inserted AND w.compact_len < ${TWO_EDITS_MIN_LENGTH}
)
SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*)::int AS written,
       (SELECT count(*) FROM ${STAGING})::int AS staged
  FROM written`;

const WORD_COUNT_DELTAS = wordCountDeltas(STAGING);

/**
 * A batch of records for stageMarks, held as their COPY text rows (UTF-8), each encoded when it is
 * added. The importer keeps up to three batches in memory while it reads on; held as MarkUpsert
 * objects (about 35 small objects per record with its raw payload and keys, all alive until the
 * batch is written) they made every young-generation collection copy thousands of records, a fifth
 * of the importer's CPU. Encoded right away, a record leaves one map entry behind.
 *
 * Keyed by externalId: a batch may not touch one row twice, and the later line wins anyway. A
 * record added again replaces the earlier one's row in its place, as a Map keeps the first
 * insertion's position, unless it is as of an earlier day than the one held: then it is dropped,
 * as the merge would drop it were the two in different batches.
 */
export class MarkBatch {
  #bytes = Buffer.allocUnsafe(0);
  #length = 0;
  /** Where each row is in #bytes, in the order of their externalIds' first appearance. */
  #starts: number[] = [];
  #ends: number[] = [];
  #rowOf = new Map<string, number>();
  #asOf: (string | null)[] = [];
  /** Rows a later deletion of the same record took out of the batch. */
  #removed: boolean[] = [];
  #removedCount = 0;
  /** Records the office deleted (externalId → as-of date), to delete from the mirror. */
  #deletions = new Map<string, string | null>();
  #replaced = false;
  #stale = 0;

  /** How many distinct records the batch holds to write. */
  get size(): number {
    return this.#starts.length - this.#removedCount;
  }

  /** How many records to write or delete the batch holds. */
  get pending(): number {
    return this.size + this.#deletions.size;
  }

  /** The records to delete, each with the as-of date of its deletion. */
  get deletions(): { externalId: string; asOf: string | null }[] {
    return [...this.#deletions].map(([externalId, asOf]) => ({ externalId, asOf }));
  }

  /** How many records were dropped as older than the version of the same record held. */
  get stale(): number {
    return this.#stale;
  }

  add(record: MarkUpsert): void {
    const index = this.#rowOf.get(record.externalId);
    if (this.#deletions.has(record.externalId)) {
      // Deleted earlier in the batch: this version replaces the deletion, unless it is older.
      if (isOlder(record.asOf, this.#deletions.get(record.externalId) ?? null)) {
        this.#stale++;
        return;
      }
      this.#deletions.delete(record.externalId);
    } else if (index !== undefined && isOlder(record.asOf, this.#asOf[index] ?? null)) {
      this.#stale++;
      return;
    }
    if (index !== undefined && this.#removed[index]) {
      this.#removed[index] = false;
      this.#removedCount--;
    }
    const row = copyRow(record);
    const start = this.#length;
    this.#reserve(3 * row.length); // at most 3 bytes of UTF-8 per UTF-16 unit
    this.#length += this.#bytes.write(row, start, 'utf8');
    if (index === undefined) {
      this.#rowOf.set(record.externalId, this.#starts.length);
      this.#starts.push(start);
      this.#ends.push(this.#length);
      this.#asOf.push(record.asOf);
      this.#removed.push(false);
    } else {
      this.#starts[index] = start;
      this.#ends[index] = this.#length;
      this.#asOf[index] = record.asOf;
      this.#replaced = true;
    }
  }

  /**
   * The office deleted this record: a version of it held in the batch is dropped, and the stored
   * one is deleted when the batch is written, unless either is as of a later day.
   */
  delete(externalId: string, asOf: string | null): void {
    const index = this.#rowOf.get(externalId);
    if (index !== undefined && !this.#removed[index]) {
      if (isOlder(asOf, this.#asOf[index] ?? null)) {
        this.#stale++;
        return;
      }
      this.#removed[index] = true;
      this.#removedCount++;
      this.#replaced = true;
    }
    const earlier = this.#deletions.get(externalId);
    if (earlier === undefined || !isOlder(asOf, earlier)) this.#deletions.set(externalId, asOf);
  }

  /** The COPY text of the batch: one row per record, in the order they were first added. */
  copyRows(): Buffer<ArrayBuffer> {
    if (!this.#replaced) return this.#bytes.subarray(0, this.#length);
    let size = 0;
    for (let i = 0; i < this.#starts.length; i++) {
      if (!this.#removed[i]) size += (this.#ends[i] as number) - (this.#starts[i] as number);
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < this.#starts.length; i++) {
      if (!this.#removed[i]) at += this.#bytes.copy(out, at, this.#starts[i], this.#ends[i]);
    }
    return out;
  }

  /** Grows the buffer (at least doubling it) to take `bytes` more. */
  #reserve(bytes: number): void {
    if (this.#length + bytes <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(
      Math.max(2 * this.#bytes.length, this.#length + bytes, 64 * 1024),
    );
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }
}

/** A version as of `incoming` is older than one as of `held`: both days known, and earlier. */
const isOlder = (incoming: string | null, held: string | null) =>
  incoming !== null && held !== null && incoming < held;

/**
 * COPY text rows of the staging table, UTF-8, batched as the importer batches them (for bench:scan,
 * which times the importer's steps).
 */
export function markCopyRows(records: readonly MarkUpsert[]): Buffer<ArrayBuffer> {
  const batch = new MarkBatch();
  for (const r of records) batch.add(r);
  return batch.copyRows();
}

const asIs = (value: string) => value;
const textOrNull = (value: string | null, text: (v: string) => string) =>
  value === null ? '\\N' : text(value);

/** One row of the staging table in COPY's text format (columns in the order of COLUMNS). */
function copyRow(r: MarkUpsert): string {
  // Nulls and values with a tab, newline, carriage return or backslash go through copyValue;
  // dates, codes, numbers and the match keys never hold one, most texts neither.
  const raw = JSON.stringify(r.rawPayload);
  const goods = r.goods.length === 0 ? '[]' : JSON.stringify(r.goods);
  const plain = !(
    COPY_SPECIAL.test(r.externalId) ||
    COPY_SPECIAL.test(r.markText) ||
    (r.ownerName !== null && COPY_SPECIAL.test(r.ownerName)) ||
    (r.status !== null && COPY_SPECIAL.test(r.status)) ||
    COPY_SPECIAL.test(raw) ||
    COPY_SPECIAL.test(goods) ||
    (r.logoUrl !== null && COPY_SPECIAL.test(r.logoUrl))
  );
  // Module-level functions rather than closures: a named closure made per row costs a
  // defineProperty each time under tsx (keep-names).
  const text = plain ? asIs : copyValue;
  // Owner, country and status are null when the source does not give them (COPY's \N).
  return `${text(r.sourceCode)}\t${text(r.externalId)}\t${text(r.markText)}\t${textOrNull(r.ownerName, text)}\t${textOrNull(
    r.ownerCountryCode,
    text,
  )}\t${text(r.jurisdiction)}\t${copyTextArray(r.designations)}\t${r.filedAt}\t${copyValue(
    r.registeredAt,
  )}\t${copyValue(r.expiresAt)}\t${copyValue(r.publishedAt)}\t${textOrNull(r.status, text)}\t${copyNumberArray(r.classes)}\t${copyValue(
    r.logoUrl,
  )}\t${text(raw)}\t${copyValue(r.normText)}\t${copyValue(r.compactText)}\t${r.compactLength}\t${copyTextArray(
    r.tokens,
  )}\t${copyTextArray(r.soundCodes)}\t${text(goods)}\t${copyValue(r.ownerKey)}\t${r.asOf ?? '\\N'}\t${r.live === null ? '\\N' : r.live ? 't' : 'f'}\n`;
}

/**
 * First half of writing a batch of records (distinct externalIds) in the transaction `tx`: COPY
 * them into the session's temporary staging table. It takes no lock, so the importer stages the
 * next batch while the previous one is merged. PostgreSQL spent ~25 us per row parsing the earlier
 * single JSON parameter (jsonb_to_recordset), ~12 us per row through COPY.
 */
export async function stageMarks(tx: Queryable, batch: MarkBatch): Promise<void> {
  await tx.exec(CREATE_STAGING);
  if (batch.size > 0) await tx.copyFrom(`${STAGING} (${COLUMNS})`, batch.copyRows());
}

/**
 * Second half: moves the staged rows into marks in one statement; an update takes a new
 * change_seq so incremental scans see it. Returns how many rows were new, how many updated, and
 * how many were left out as older than the version stored (`stale`).
 */
export async function mergeStagedMarks(
  tx: Queryable,
  options: { foldWordCounts?: boolean; countWords?: boolean } = {},
): Promise<{ inserted: number; updated: number; stale: number }> {
  // Serialise imports so change_seq values commit in increasing order (see 002_register_mirror.sql):
  // held from the first nextval to the commit. The word counts' changes are appended under the
  // same lock, from the stored versions the upsert then replaces (not by an initial load, which
  // counts every word once at its end). The statements are sent together.
  const [, , rows] = await Promise.all([
    takeImportLock(tx),
    options.countWords === false ? undefined : tx.query(WORD_COUNT_DELTAS),
    tx.query<{ inserted: number; written: number; staged: number }>(UPSERT),
  ]);
  if (options.foldWordCounts) await foldWordCounts(tx);
  const inserted = rows[0]?.inserted ?? 0;
  const written = rows[0]?.written ?? 0;
  return { inserted, updated: written - inserted, stale: (rows[0]?.staged ?? 0) - written };
}

/**
 * Deletes the marks the office deleted, in the batch's transaction after its merge (the import
 * lock held), unless the stored version is as of a later day than the deletion (mark_supersedes).
 * The word counts' changes waiting in mark_word_deltas are folded first: the delete trigger
 * (migration 011) subtracts the deleted marks' words from mark_words, which must hold them by
 * then. mark_band and mark_keys follow by their own triggers. Returns how many marks were deleted.
 */
export async function deleteMarks(
  tx: Queryable,
  sourceCode: string,
  deletions: readonly { externalId: string; asOf: string | null }[],
): Promise<number> {
  if (deletions.length === 0) return 0;
  await foldWordCounts(tx);
  const rows = await tx.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM marks m USING jsonb_to_recordset($1::text::jsonb) AS d("externalId" text, "asOf" date)
        WHERE m.source_code = $2 AND m.external_id = d."externalId" AND mark_supersedes(d."asOf", m.as_of)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [JSON.stringify(deletions), sourceCode],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Folds the word counts' changes that batches left waiting (the end of an import, or those of an
 * import that stopped) into mark_words, under the import lock.
 */
export async function foldPendingWordCounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await takeImportLock(tx);
    await foldWordCounts(tx);
  });
}

export async function countMarks(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks');
  return rows[0]?.n ?? 0;
}

/** The mirror's records per office (jurisdiction), the largest first. */
export async function countMarksByOffice(
  db: Queryable,
): Promise<{ jurisdiction: string; n: number }[]> {
  return db.query<{ jurisdiction: string; n: number }>(
    'SELECT jurisdiction, count(*)::int AS n FROM marks GROUP BY jurisdiction ORDER BY n DESC, jurisdiction',
  );
}

/**
 * The newest change_seq value committed, of a mark or of a deletion (mark_removals, migration
 * 037): the upper bound of a scan. Each max is an index's last entry.
 */
export async function highestChangeSeq(db: Queryable): Promise<number> {
  const rows = await db.query<{ seq: number }>(
    `SELECT greatest((SELECT max(change_seq) FROM marks),
                     (SELECT max(change_seq) FROM mark_removals), 0)::int8 AS seq`,
  );
  return rows[0]?.seq ?? 0;
}

/**
 * Deletes the removals (mark_removals, migration 037) that no scan can use any more, under the
 * import lock (so that no deletion or republication of a record commits while it decides);
 * returns how many went. A removal is read by the scans of a watch whose range holds its
 * change_seq, for the hits of that watch that do not show it yet (changedRecordsBehindAlerts).
 * It is kept while any of these holds:
 * - it holds the highest change_seq committed: highestChangeSeq reads it, and without it the
 *   bound of the next scan would go back below the watches' scanned_seq;
 * - a hit on its record does not show it (removed_at distinct from the removal's), whatever the
 *   watch's state: the next scan of that watch (or its first after reactivation) needs it;
 * - a watch may still scan a range that ends before it: an active watch that has not scanned
 *   past it (scanned_seq below its change_seq) or awaits a full scan (which reads from 0), or a
 *   scan in hand (a lease is held; a paused watch's scan claimed before the pause still commits).
 *   Such a scan may have read the record before its deletion and commit a hit on it that shows it
 *   as live: its watch's next scan marks that hit removed from this row.
 * A paused or deleted watch (active false) with no scan in hand does not hold removals back: its
 * hits do (above), and once active again its scans read the mirror as it is then, where the
 * record is gone; its candidates come from marks only.
 * A removal whose record the office published again (marks holds it) goes in any case: the
 * scans read the record's new row, and a hit marked removed is written as the record is then.
 */
export async function pruneMarkRemovals(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await takeImportLock(tx);
    const rows = await tx.query<{ n: number }>(
      `WITH bound AS (
         SELECT greatest((SELECT max(change_seq) FROM marks),
                         (SELECT max(change_seq) FROM mark_removals)) AS highest,
                (SELECT min(CASE WHEN w.needs_full_scan THEN 0 ELSE w.scanned_seq END)
                   FROM watches w
                  WHERE w.active OR w.lease_owner IS NOT NULL) AS scanned),
       -- The removals a hit does not show yet. Hits have no index by record alone: one pass over
       -- them, joined by hash, done once (MATERIALIZED), not once per removal.
       shown_to_none AS MATERIALIZED (
         SELECT DISTINCT r.source_code, r.external_id
           FROM mark_removals r
           JOIN hits h ON h.source_code = r.source_code AND h.external_id = r.external_id
          WHERE h.removed_at IS DISTINCT FROM r.removed_at),
       pruned AS (
         DELETE FROM mark_removals r USING bound b
          WHERE r.change_seq < b.highest
            AND (EXISTS (SELECT 1 FROM marks m
                          WHERE m.source_code = r.source_code AND m.external_id = r.external_id)
              OR ((b.scanned IS NULL OR r.change_seq <= b.scanned)
                  AND NOT EXISTS (SELECT 1 FROM shown_to_none n
                                   WHERE n.source_code = r.source_code
                                     AND n.external_id = r.external_id)))
         RETURNING 1)
       SELECT count(*)::int AS n FROM pruned`,
    );
    return rows[0]?.n ?? 0;
  });
}

/** Imports smaller than this leave the planner statistics to autovacuum. */
const ANALYZE_MIN_ROWS = 10_000;

/**
 * After an import, makes the mirror fast to search at once instead of after autovacuum's next visit:
 * - merges the pending lists of the GIN indexes of marks, mark_band and mark_keys (fastupdate queues new
 *   entries in a list, up to gin_pending_list_limit, 4 MB per index, that every search reads in
 *   full: after an import each candidate query would read ~1,500 such pages). The merge is work
 *   the inserts would have done later anyway;
 * - refreshes the planner statistics (of the word counts too) when the import wrote at least 10,000
 *   rows and more than autoanalyze's own threshold (10% of the table, as of its last ANALYZE).
 * Both need the table's owner (the role that migrated); for another role they are skipped.
 */
export async function settleMarkIndexes(db: Queryable, written: number): Promise<void> {
  try {
    await db.query(
      `SELECT gin_clean_pending_list(i.indexrelid)
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid IN ('marks'::regclass, 'mark_band'::regclass, 'mark_keys'::regclass)
          AND am.amname = 'gin'`,
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
  // mark_band and mark_keys follow marks row for row (migrations 016, 035), and the word counts
  // grow with them. Those too: a scan reads the counts of a few dozen words by their key, which a
  // planner without statistics of mark_words read by scanning the whole table (10M records:
  // 3.75M rows, 27 ms a read instead of a few).
  if (tuples <= 0 || written > 50 + 0.1 * tuples) {
    await db.query('ANALYZE marks, mark_band, mark_keys, mark_words');
  }
}
