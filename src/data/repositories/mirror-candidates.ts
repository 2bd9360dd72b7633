import { anyClassForms } from '../../matching/any-class.ts';
import {
  bandBuckets,
  bandLengths,
  bandThreshold,
  type IndexedRecordRow,
  ownClassTokens,
  relatedClassTokens,
  watchTokens,
} from '../../matching/candidates.ts';
import { coverageSearch } from '../../matching/coverage.ts';
import type { PreparedWatch } from '../../matching/decide.ts';
import type { RegisterRecord } from '../../register/record.ts';
import { MIRROR_SOURCE } from '../../register/sources.ts';
import type { Db, Queryable } from '../db.ts';
import { hashedKeys } from './mark-keys.ts';

// The register mirror's SQL for scans (table marks, source `global_trademark_database`): the candidate query of the one candidate rule
// (src/matching/candidates.ts), the keys of a range of changes for the in-memory index of
// src/scan/sources/recent-changes.ts, and the records themselves.

/**
 * A register record as a source returns it for the final decision: the normalized record, and the
 * words its office says are disclaimed (USPTO disclaimers, from the raw payload; empty otherwise).
 */
export type CandidateRecord = RegisterRecord & {
  disclaimed?: string[];
  /**
   * When the mirror took the office's deletion of the record (a record behind an alert, as it was
   * last held: changedRecordsBehindAlerts); null or absent while the register holds it.
   */
  removedAt?: string | null;
};

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

/** A record behind an alert of a watch, changed since its hit was written (changedRecordsBehindAlerts). */
export type AlertedChange = CandidateRecord & { watchId: string; alertId: string; hitId: string };

/**
 * For each of `watches`, the records of this source changed in (its `fromSeq`, `toSeq`] that are
 * behind alerts of the watch, where the record is no longer what the alert's hit shows (status,
 * live or dead, name, owner, dates, classes, payload, or a hit marked removed whose record is
 * back): the alerts to assess again (domain/alerts/reassess.ts). Also the records the office
 * deleted in that range (mark_removals, migration 037) that hits of the watch do not yet show as
 * removed: each comes as it was last held, with `removedAt`. One statement for a claimed batch of
 * watches (scan-watch.ts, readBatch) instead of one per watch. Served by the hits' unique key
 * (watch, source, record), the marks' (source, record) and the removals' change_seq. Ordered by
 * watch, then alert.
 */
export async function changedRecordsBehindAlerts(
  db: Queryable,
  watches: readonly { watchId: string; fromSeq: number }[],
  toSeq: number,
): Promise<AlertedChange[]> {
  if (watches.length === 0) return [];
  return db.query(
    `WITH w AS (SELECT * FROM unnest($1::text[], $2::int8[]) AS w(watch_id, from_seq))
     SELECT h.watch_id AS "watchId", a.id AS "alertId", h.id AS "hitId", NULL AS "removedAt",
            ${RECORD_COLUMNS}
       FROM w
       JOIN hits h ON h.watch_id = w.watch_id AND h.source_code = $3
       JOIN alerts a ON a.hit_id = h.id
       JOIN marks m ON m.source_code = h.source_code AND m.external_id = h.external_id
      WHERE m.change_seq > w.from_seq AND m.change_seq <= $4
        AND (h.removed_at IS NOT NULL
          OR (h.display_name, h.owner_name, h.owner_country_code, h.jurisdiction, h.filed_at,
              h.registered_at, h.expires_at, h.published_at, h.status, h.live, h.classes,
              h.raw_payload)
             IS DISTINCT FROM
             (m.mark_text, m.owner_name, m.owner_country_code, m.jurisdiction, m.filed_at,
              m.registered_at, m.expires_at, m.published_at, m.status, m.live, m.classes,
              m.raw_payload))
     UNION ALL
     SELECT h.watch_id, a.id, h.id, iso_ms(r.removed_at), ${RECORD_COLUMNS}
       FROM w
       JOIN mark_removals r ON r.source_code = $3 AND r.change_seq > w.from_seq
                           AND r.change_seq <= $4
       CROSS JOIN LATERAL jsonb_populate_record(NULL::marks, r.record) m
       JOIN hits h ON h.watch_id = w.watch_id AND h.source_code = r.source_code
                  AND h.external_id = r.external_id
       JOIN alerts a ON a.hit_id = h.id
      WHERE h.removed_at IS DISTINCT FROM r.removed_at
        AND NOT EXISTS (SELECT 1 FROM marks x
                         WHERE x.source_code = r.source_code AND x.external_id = r.external_id)
      ORDER BY 1, 2`,
    [watches.map((w) => w.watchId), watches.map((w) => w.fromSeq), MIRROR_SOURCE, toSeq],
  );
}

/**
 * The two-edit band, searched in its own narrow table (migration 016) as OR-ed branches, one per
 * trigram index bucket that overlaps the lengths the band allows; each branch names its bucket
 * literally so that the planner can use that partial index, and carries the class and territory
 * keys so that the same index leaves out the records of other classes and territories. `$text`,
 * `$classes` and `$coverage` are the parameters holding the brand's compact text, the watch's
 * class keys and its coverage keys (classAndTerritoryKeys). Selects the ids of the records found.
 */
function bandSearch(length: number, text: string, classes: string, coverage: string): string {
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
  return `SELECT b.id FROM mark_band b WHERE ${branches.join('\n OR ')}`;
}

/**
 * The watch's keys of the class and territory columns of mark_keys and mark_band (migrations 016
 * and 035), the one place the candidate query's class and territory condition is made: its classes
 * (candidateClasses: the watched ones and, with relatedClasses, those of related goods) and 0,
 * which stands for "no class published"; the same without the related classes (`own`: where the
 * keys of the rules not raised in a related class are searched); its offices and 'WO:' + each
 * office an international registration may designate.
 */
export function classAndTerritoryKeys(watch: PreparedWatch): {
  classes: number[];
  own: number[];
  coverage: string[];
} {
  const territory = coverageSearch(watch.designations);
  return {
    classes: [0, ...watch.candidateClasses],
    own: [0, ...watch.classes],
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
 *
 * `effective_io_concurrency` (CANDIDATE_IO_CONCURRENCY) is how many pages a bitmap heap scan asks
 * the kernel for ahead of reading them (posix_fadvise). The key rows a watch's keys find lie on
 * pages scattered over the table, one page per row; with the default of 1 each page not in the
 * cache is waited for in turn. On a 10M register read from disk, 64 took the candidate queries of
 * 300 watches from 77-83 s to 45-47 s; with the pages in the kernel's cache, where each advice is
 * a system call that finds the page there, it cost 3-9% (docs/benchmarks.md, issue 30). A full
 * scan after a restart or an initial load reads from disk. A server whose value is 0 (set so, or
 * on a platform without posix_fadvise, where any other value is refused) keeps it; a higher one
 * is kept too.
 */
export const CANDIDATE_WORK_MEM = '32MB';
export const CANDIDATE_IO_CONCURRENCY = 64;
export const CANDIDATE_SETTINGS = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
  set_config('work_mem', '${CANDIDATE_WORK_MEM}', true),
  set_config('jit', 'off', true),
  set_config('max_parallel_workers_per_gather', '0', true),
  set_config('enable_seqscan', 'off', true),
  set_config('effective_io_concurrency',
    CASE current_setting('effective_io_concurrency')::int WHEN 0 THEN 0
      ELSE greatest(current_setting('effective_io_concurrency')::int, ${CANDIDATE_IO_CONCURRENCY})
    END::text, true),
  set_config('pg_trgm.similarity_threshold', $1, true)`;

/**
 * `column && keys`, tested on the rows of mark_keys that the search keys found rather than
 * searched in its index. The class and territory columns are in that index (migration 035), and
 * PostgreSQL would otherwise intersect their posting lists with the keys' inside it. A class or an
 * office holds a large share of the register, and stepping through its posting list cost more
 * than reading the few key rows it saved: without it the query ran 37% faster on 1,000,000 records
 * and 38% on 3,000,000, with the same candidates (docs/benchmarks.md, session 17). An expression
 * over the column is not the indexed column, so the planner leaves the condition to the rows.
 */
function onRows(column: string, keys: string, type: 'int' | 'text'): string {
  return `(${column} || '{}'::${type}[]) && ${keys}::${type}[]`;
}

/**
 * The most keys searched in mark_keys_idx by one `&&`: a watch's keys (up to ~400: its one-edit
 * texts) are sent in groups of this many, one `&&` each, ORed, which PostgreSQL runs as one Bitmap
 * Index Scan per group and a BitmapOr of their results. A GIN search of n keys steps through their
 * n posting lists together and compares all n at every row it returns, so one search of 240 keys
 * finding 10,000 rows made 2.4 million comparisons: on 10,000,000 records it was half of the query
 * of a brand with many matching rows (BRIO: 27 ms with one `&&`, 16-18 ms in groups of 32, the same
 * rows; docs/benchmarks.md, issue 30). Groups of 8 ran a little faster still but cost more to plan
 * (one index path per group); groups of 32 add ~0.1 ms of planning per query at 10M, ~0.4 ms at 1M.
 */
export const KEYS_PER_SEARCH = 32;

/**
 * Candidates for `watch` among the mirror's records changed in `range`: records sharing a Nice
 * class (or without any: their source publishes none), possibly covering a watched territory, and
 * any of the watch's search keys, each served by an index (035_mark_keys.sql, 016_mark_band.sql,
 * docs/matching.md): tokens (forms, words, runs, stems, anchors and the texts one edit away);
 * phonetic codes; and, for brands of 8+ characters, trigram similarity of the compact text within
 * the length buckets of the two-edit band. Each branch carries the class and territory keys: the
 * band's GIN indexes search them with the trigrams, and the key branches test them on the narrow
 * rows of mark_keys that their keys found (onRows); only the records kept are read from marks.
 * In a class related to a watched one (not watched itself) only the keys of the rules the decision
 * raises there are searched (relatedClassTokens, search.relatedPhonetic and relatedBand). A last
 * branch finds the brand's identical filings in any other class (anyClassBranch).
 * The pure module makes the final decision.
 */
export async function queryCandidates(
  db: Db,
  watch: PreparedWatch,
  range: SeqRange,
): Promise<CandidateRecord[]> {
  const keys = watch.search;
  // Territory prefilter; the pure module still decides coverage exactly (coverage.ts).
  const filter = classAndTerritoryKeys(watch);
  const params: unknown[] = [range.fromSeq, range.toSeq, filter.classes, filter.coverage];
  // One SELECT per kind of key, not an OR of them: PostgreSQL would take the class and territory
  // conditions common to both arms out of the OR, search the index by those alone and test the
  // keys on every row of those classes and territories.
  const keyed = (condition: string, classes = '$3') =>
    `SELECT k.id FROM mark_keys k
      WHERE ${condition} AND ${onRows('k.class_keys', classes, 'int')}
        AND ${onRows('k.coverage_keys', '$4', 'text')}`;
  // In a related class (not watched itself) only the keys of the rules the decision raises there
  // are searched (relatedClassTokens): the others retrieved a quarter of the related-class
  // candidates and raised none. Each key is searched once: those in every candidate class ($3),
  // the others in the watch's own classes ($own) only.
  const split = filter.own.length < filter.classes.length;
  // The own classes' parameter is added where a branch uses it, never otherwise: PostgreSQL
  // refuses a statement with a parameter it cannot type ("could not determine data type").
  let ownParam: string | null = null;
  const own = (): string => {
    if (!split) return '$3';
    if (ownParam === null) {
      params.push(filter.own);
      ownParam = `$${params.length}`;
    }
    return ownParam;
  };
  const relatedCodes = new Set(keys.relatedPhonetic);
  const [ownTokens, ownCodes] = split
    ? [ownClassTokens(watch), keys.phonetic.filter((c) => !relatedCodes.has(c))]
    : [[], []];
  // `column && keys`, the keys in groups of KEYS_PER_SEARCH, each group a search of the index.
  const overlaps = (column: 'tokens' | 'sound_codes', list: readonly string[]): string => {
    const groups: string[] = [];
    // An empty list is one group that finds nothing, as the query was before the groups.
    for (let i = 0; i < Math.max(list.length, 1); i += KEYS_PER_SEARCH) {
      params.push(list.slice(i, i + KEYS_PER_SEARCH));
      groups.push(`${hashedKeys(`k.${column}`)} && ${hashedKeys(`$${params.length}::text[]`)}`);
    }
    return `(${groups.join(' OR ')})`;
  };
  // The record's tokens hold its compact forms, so `tokens &&` also finds equal compact texts;
  // its words and runs, so the one-edit texts find near forms inside it too.
  const tokens = split ? relatedClassTokens(watch) : watchTokens(watch);
  const found = [keyed(overlaps('tokens', tokens))];
  const codes = split ? keys.relatedPhonetic : keys.phonetic;
  for (const [list, column, inOwn] of [
    [ownTokens, 'tokens', true],
    [codes, 'sound_codes', false],
    [ownCodes, 'sound_codes', true],
  ] as const) {
    if (list.length === 0) continue;
    found.push(keyed(overlaps(column, list), inOwn ? own() : '$3'));
  }
  if (keys.useTrigram) {
    // `%` uses pg_trgm.similarity_threshold, set below in the query's transaction.
    params.push(keys.compact);
    const at = `$${params.length}`;
    found.push(bandSearch(keys.compact.length, at, keys.relatedBand ? '$3' : own(), '$4'));
  }
  // `change_seq + 0`: the sequence range is a filter on the rows kept, never an index scan. A full
  // scan's range is the whole mirror; an incremental scan of a short range is served from memory
  // (recent-changes.ts), so the range condition of this query is never the selective one.
  const forms = anyClassForms(watch);
  if (forms.length > 0) {
    params.push(forms, keys.compact.length);
    found.push(anyClassBranch(`$${params.length - 1}`, `$${params.length}`));
  }
  const sql = `SELECT ${RECORD_COLUMNS}
   FROM marks m
  WHERE m.id = ANY(ARRAY(${found.join('\n UNION ALL ')}))
    AND m.source_code = '${MIRROR_SOURCE}'
    AND m.change_seq + 0 > $1 AND m.change_seq + 0 <= $2`;
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
 * The brand's identical filings in the classes the other branches leave out (any-class.ts; the
 * in-memory index's anyClassPicks in candidates.ts is the same condition): one of the brand's
 * identity forms among the record's tokens, in a watched territory, in none of the watch's
 * candidate classes (nor without classes: those the keyed branches find), at the brand's compact
 * length. The tokens, class and territory keys are searched in mark_keys' index; the length is
 * read from marks only for the few ids found.
 */
function anyClassBranch(forms: string, length: string): string {
  return `SELECT k.id FROM mark_keys k JOIN marks a ON a.id = k.id
    WHERE ${hashedKeys('k.tokens')} && ${hashedKeys(`${forms}::text[]`)}
      AND ${onRows('k.coverage_keys', '$4', 'text')}
      AND NOT (k.class_keys && $3::int[]) AND a.compact_len = ${length}::int`;
}

/**
 * The search keys of the mirror's records changed in `range`, for the in-memory index. Each
 * record's keys are looked up by its id (`LIMIT 1` keeps the look-up a probe of the key): as a
 * join, PostgreSQL read the whole of mark_keys to hash it for a range of a sixth of the mirror.
 */
export async function readChangedKeys(db: Queryable, range: SeqRange): Promise<IndexedRecordRow[]> {
  return db.query<IndexedRecordRow>(
    `SELECT m.id, m.mark_text AS "markText", m.live, k.tokens, k.sound_codes AS sound,
            m.compact_text AS compact,
            m.compact_len AS len, m.classes, m.jurisdiction, m.designations
       FROM marks m
      CROSS JOIN LATERAL (SELECT k.tokens, k.sound_codes FROM mark_keys k
                           WHERE k.id = m.id LIMIT 1) k
      WHERE m.source_code = $1 AND m.change_seq > $2 AND m.change_seq <= $3`,
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
