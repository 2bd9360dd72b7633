import { anyClassForms } from '../../matching/any-class.ts';
import {
  bandBuckets,
  bandLengths,
  bandThreshold,
  type IndexedRecordRow,
  watchTokens,
} from '../../matching/candidates.ts';
import { coverageSearch } from '../../matching/coverage.ts';
import type { PreparedWatch } from '../../matching/decide.ts';
import type { RegisterRecord } from '../../register/record.ts';
import { MIRROR_SOURCE } from '../../register/sources.ts';
import type { Db, Queryable } from '../db.ts';

// The register mirror's SQL for scans (table marks, source `global_trademark_database`): the candidate query of the one candidate rule
// (src/matching/candidates.ts), the keys of a range of changes for the in-memory index of
// src/scan/sources/recent-changes.ts, and the records themselves.

/**
 * A register record as a source returns it for the final decision: the normalized record, and the
 * words its office says are disclaimed (USPTO disclaimers, from the raw payload; empty otherwise).
 */
export type CandidateRecord = RegisterRecord & { disclaimed?: string[] };

/** A range of the source's change sequence: (fromSeq, toSeq]. A full scan starts at 0. */
export type SeqRange = { fromSeq: number; toSeq: number };

export const RECORD_COLUMNS = `m.external_id AS "externalId", m.mark_text AS "markText",
  m.owner_name AS "ownerName", m.owner_country_code AS "ownerCountryCode",
  m.jurisdiction, m.designations, iso_ms(m.filed_at) AS "filedAt",
  iso_ms(m.registered_at) AS "registeredAt", iso_ms(m.expires_at) AS "expiresAt",
  iso_ms(m.published_at) AS "publishedAt",
  m.status, m.live, m.classes, m.logo_url AS "logoUrl", m.goods, m.raw_payload AS "rawPayload",
  ARRAY(SELECT jsonb_array_elements_text(
    CASE jsonb_typeof(m.raw_payload->'disclaimedWords') WHEN 'array'
      THEN m.raw_payload->'disclaimedWords' ELSE '[]'::jsonb END)) AS disclaimed`;

/**
 * The records of this source changed in `range` that are behind alerts of the watch, where the
 * record is no longer what the alert's hit shows (status, live or dead, name, owner, dates,
 * classes, payload): the alerts to assess again (domain/alerts/reassess.ts). Served by the hits'
 * unique key (watch, source, record) and the marks' (source, record).
 */
export async function changedRecordsBehindAlerts(
  db: Queryable,
  watchId: string,
  range: SeqRange,
): Promise<(CandidateRecord & { alertId: string; hitId: string })[]> {
  return db.query(
    `SELECT a.id AS "alertId", h.id AS "hitId", ${RECORD_COLUMNS}
       FROM hits h
       JOIN alerts a ON a.hit_id = h.id
       JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
      WHERE h.watch_id = $1 AND h.source_code = $2
        AND m.change_seq > $3 AND m.change_seq <= $4
        AND (h.display_name, h.owner_name, h.owner_country_code, h.jurisdiction, h.filed_at,
             h.registered_at, h.expires_at, h.published_at, h.status, h.live, h.classes,
             h.raw_payload)
            IS DISTINCT FROM
            (m.mark_text, m.owner_name, m.owner_country_code, m.jurisdiction, m.filed_at,
             m.registered_at, m.expires_at, m.published_at, m.status, m.live, m.classes,
             m.raw_payload)
      ORDER BY a.id`,
    [watchId, MIRROR_SOURCE, range.fromSeq, range.toSeq],
  );
}

/**
 * The two-edit band, searched in its own narrow table (migration 016) as OR-ed branches, one per
 * trigram index bucket that overlaps the lengths the band allows; each branch names its bucket
 * literally so that the planner can use that partial index, and carries the class and territory
 * keys so that the same index leaves out the records of other classes and territories. `$text`,
 * `$classes` and `$coverage` are the parameters holding the brand's compact text, the watch's
 * class keys and its coverage keys (bandSearchKeys).
 */
function bandCondition(length: number, text: string, classes: string, coverage: string): string {
  const { low, high } = bandLengths(length);
  const branches = bandBuckets(length).map(([from, to]) => {
    const bucket =
      to === null
        ? `b.compact_len >= ${from}`
        : from === to
          ? `b.compact_len = ${from}`
          : `b.compact_len BETWEEN ${from} AND ${to}`;
    return `(${bucket} AND b.compact_len BETWEEN ${low} AND ${high} AND b.compact_text % ${text}
             AND b.class_keys && ${classes}::int[] AND b.coverage_keys && ${coverage}::text[])`;
  });
  return `m.id = ANY(ARRAY(SELECT b.id FROM mark_band b WHERE ${branches.join('\n OR ')}))`;
}

/**
 * The watch's keys of the band table's class and territory columns (migration 016): its classes
 * and 0, which stands for "no class published"; its offices and 'WO:' + each office an
 * international registration may designate.
 */
export function bandSearchKeys(watch: PreparedWatch): { classes: number[]; coverage: string[] } {
  const territory = coverageSearch(watch.designations);
  return {
    classes: [0, ...watch.candidateClasses],
    coverage: [...territory.jurisdictions, ...territory.woDesignations.map((d) => `WO:${d}`)],
  };
}

/**
 * Settings of the candidate query's transaction; `$1` is the band's trigram threshold. A custom
 * plan for every execution (see findCandidates). No JIT, no parallel workers and no sequential
 * scan: the query reads a few hundred rows at most, but the planner's estimate for `tokens &&`
 * grows with the number of keys sent (a brand sends up to ~400 one-edit texts: estimated at a
 * quarter of the table), so it would otherwise compile the query (80 ms), start two workers for
 * 2 ms of index work, or (PGlite) read the whole table. Every branch of the query has an index.
 *
 * `work_mem` (CANDIDATE_WORK_MEM) bounds each bitmap the index scans build. Past it a bitmap turns
 * lossy: it keeps whole pages instead of rows, and every row of such a page is read and checked
 * again. With the default 4MB a short brand on a 10M register (BRIO: 68,000 matching rows on 66,000
 * pages) went lossy and rechecked 320,000 rows (docs/benchmarks.md). An exact bitmap costs some
 * 50-100 bytes per page, so 32MB keeps about 400,000 pages exact; it is the most a query takes,
 * only while it runs, and only in this transaction (set_config's `true`: SET LOCAL).
 */
export const CANDIDATE_WORK_MEM = '32MB';
export const CANDIDATE_SETTINGS = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
  set_config('work_mem', '${CANDIDATE_WORK_MEM}', true),
  set_config('jit', 'off', true),
  set_config('max_parallel_workers_per_gather', '0', true),
  set_config('enable_seqscan', 'off', true),
  set_config('pg_trgm.similarity_threshold', $1, true)`;

/**
 * Candidates for `watch` among the mirror's records changed in `range`: records sharing a Nice
 * class (or without any: their source publishes none), possibly covering a watched territory, and
 * any of the watch's search keys, each served by an index (002_register_mirror.sql,
 * 008_alert_assessment.sql, docs/matching.md): tokens (forms, words, runs, stems, anchors and the
 * texts one edit away); phonetic codes; and, for brands of 8+ characters, trigram similarity of
 * the compact text within the length buckets of the two-edit band. The planner combines them
 * (BitmapOr); the pure module makes the final decision.
 */
export async function queryCandidates(
  db: Db,
  watch: PreparedWatch,
  range: SeqRange,
): Promise<CandidateRecord[]> {
  const keys = watch.search;
  // Territory prefilter; the pure module still decides coverage exactly (coverage.ts).
  const territory = coverageSearch(watch.designations);
  const params: unknown[] = [
    [...watch.candidateClasses],
    range.fromSeq,
    range.toSeq,
    territory.jurisdictions,
    territory.woDesignations,
    watchTokens(watch),
  ];
  // The record's tokens hold its compact forms, so `tokens &&` also finds equal compact texts;
  // its words and runs, so the one-edit texts find near forms inside it too.
  const textMatch = ['m.tokens && $6::text[]'];
  if (keys.phonetic.length > 0) {
    params.push(keys.phonetic);
    textMatch.push(`m.sound_codes && $${params.length}::text[]`);
  }
  if (keys.useTrigram) {
    // `%` uses pg_trgm.similarity_threshold, set below in the query's transaction.
    const band = bandSearchKeys(watch);
    params.push(keys.compact, band.classes, band.coverage);
    const n = params.length;
    textMatch.push(bandCondition(keys.compact.length, `$${n - 2}`, `$${n - 1}`, `$${n}`));
  }
  // `change_seq + 0`: the sequence range is a filter, never an index scan. A full scan's range is
  // the whole mirror, and the planner, whose row estimate for `tokens &&` grows with the number
  // of keys (a brand sends up to ~1,000), would otherwise walk the change_seq index over every
  // record (a second on a million); an incremental scan of a short range is served from memory
  // (recent-changes.ts), so the range condition of this query is never the selective one.
  const common = `m.source_code = '${MIRROR_SOURCE}'
    AND m.change_seq + 0 > $2 AND m.change_seq + 0 <= $3
    AND (m.jurisdiction = ANY($4::text[])
         OR (m.jurisdiction = 'WO' AND m.designations && $5::text[]))`;
  let sql = `SELECT ${RECORD_COLUMNS}
   FROM marks m
  WHERE ${common}
    AND (m.classes && $1::int[] OR m.classes = '{}')
    AND (${textMatch.join('\n             OR ')})`;
  const forms = anyClassForms(watch);
  if (forms.length > 0) {
    params.push(forms, keys.compact.length);
    sql += `\n  UNION ALL\n${anyClassBranch(common, `$${params.length - 1}`, `$${params.length}`)}`;
  }
  // Settings must be set on the connection that runs the query: a transaction pins both to one
  // connection, and `set_config(…, true)` ends with it. A custom plan for every execution: the
  // driver prepares statements, and a generic plan (chosen after five executions) cannot see the
  // keys, so it cannot weigh the GIN indexes against each other.
  return db.transaction(async (tx) => {
    await tx.query(CANDIDATE_SETTINGS, [String(keys.useTrigram ? bandThreshold(watch) : 0.3)]);
    return tx.query<CandidateRecord>(sql, params);
  });
}

/**
 * The brand's identical filings in the classes the first branch leaves out (any-class.ts; the
 * in-memory index's anyClassPicks in candidates.ts is the same condition): one of the brand's
 * identity forms among the record's tokens (the tokens' GIN index), at the brand's compact length.
 * A branch of its own, so that the main query's plan is the one it always was; `NOT (…)` keeps
 * the two apart. `where` is the source, range and territory condition both share.
 */
function anyClassBranch(where: string, forms: string, length: string): string {
  return `SELECT ${RECORD_COLUMNS}
   FROM marks m
  WHERE ${where}
    AND NOT (m.classes && $1::int[] OR m.classes = '{}')
    AND m.compact_len = ${length}::int AND m.tokens && ${forms}::text[]`;
}

/** The search keys of the mirror's records changed in `range`, for the in-memory index. */
export async function readChangedKeys(db: Queryable, range: SeqRange): Promise<IndexedRecordRow[]> {
  return db.query<IndexedRecordRow>(
    `SELECT id, tokens, sound_codes AS sound, compact_text AS compact, compact_len AS len, classes,
            jurisdiction, designations
       FROM marks
      WHERE source_code = $1 AND change_seq > $2 AND change_seq <= $3`,
    [MIRROR_SOURCE, range.fromSeq, range.toSeq],
  );
}

/**
 * The records of these ids still in `range`: one changed again since is left to the scan that
 * covers its new sequence value.
 */
export async function readRecordsInRange(
  db: Queryable,
  ids: number[],
  range: SeqRange,
): Promise<CandidateRecord[]> {
  return db.query<CandidateRecord>(
    `SELECT ${RECORD_COLUMNS} FROM marks m
      WHERE m.id = ANY($1::bigint[]) AND m.change_seq > $2 AND m.change_seq <= $3`,
    [ids, range.fromSeq, range.toSeq],
  );
}

export async function findRecordByExternalId(
  db: Queryable,
  externalId: string,
): Promise<CandidateRecord | null> {
  const rows = await db.query<CandidateRecord>(
    `SELECT ${RECORD_COLUMNS} FROM marks m WHERE m.source_code = $1 AND m.external_id = $2`,
    [MIRROR_SOURCE, externalId],
  );
  return rows[0] ?? null;
}
