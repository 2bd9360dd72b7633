import type { Db } from '../../data/db.ts';
import { highestChangeSeq } from '../../data/repositories/marks.ts';
import { coverageSearch } from '../../matching/coverage.ts';
import { type PreparedWatch, TWO_EDITS_MIN_LENGTH } from '../../matching/decide.ts';
import { MIRROR_SOURCE } from '../../register/import.ts';
import type { CandidateRecord, SeqRange, SourceAdapter } from './source-adapter.ts';

const RECORD_COLUMNS = `m.external_id AS "externalId", m.mark_text AS "markText",
  m.owner_name AS "ownerName", m.owner_country_code AS "ownerCountryCode",
  m.jurisdiction, m.designations, iso_ms(m.filed_at) AS "filedAt",
  iso_ms(m.registered_at) AS "registeredAt", iso_ms(m.expires_at) AS "expiresAt",
  m.status, m.classes, m.logo_url AS "logoUrl", m.raw_payload AS "rawPayload"`;

/**
 * The length buckets of the partial trigram indexes of 002_register_mirror.sql (column compact_len):
 * change both together. A record shorter than the first bucket is in no trigram index.
 */
export const TRIGRAM_BUCKETS: readonly (readonly [number, number | null])[] = [
  [8, 9],
  [10, 11],
  [12, 13],
  [14, 16],
  [17, 20],
  [21, 26],
  [27, null],
];
/** The two-edit band: two texts of 8+ characters whose lengths differ by at most this. */
const BAND_LENGTH_SLACK = 2;
const PLAIN_ALNUM = /^[A-Z0-9]+$/;

/**
 * The pg_trgm threshold of the two-edit band's search. The rule accepts a pair only when its
 * trigram similarity reaches the rule's threshold AND the texts are at most 2 edits apart. Each
 * edit (substitution, insertion, deletion, swap of neighbours) removes at most 4 of the brand's n
 * distinct padded trigrams and adds at most 4 new ones, so two edits leave a similarity of at
 * least (n - 8) / (n + 8): above the rule's threshold from 12 characters on, which makes the index
 * read far fewer rows while still finding every pair the rule accepts. Only derived for a brand of
 * Latin letters and digits, whose pg_trgm trigrams are exactly those of the matching module; the
 * margin covers pg_trgm's single-precision arithmetic.
 */
export function bandThreshold(watch: PreparedWatch): number {
  const rule = watch.search.trigramThreshold;
  if (!PLAIN_ALNUM.test(watch.search.compact)) return rule;
  const n = watch.trigramSet.size;
  return Math.max(rule, (n - 8) / (n + 8) - 0.001);
}

/**
 * The two-edit band as OR-ed branches, one per trigram index bucket that overlaps the lengths the
 * band allows; each branch names its bucket literally so that the planner can use that partial
 * index. `$param` is the brand's compact text.
 */
function bandBranches(length: number, param: string): string[] {
  const low = Math.max(TWO_EDITS_MIN_LENGTH, length - BAND_LENGTH_SLACK);
  const high = length + BAND_LENGTH_SLACK;
  const out: string[] = [];
  for (const [from, to] of TRIGRAM_BUCKETS) {
    if ((to !== null && to < low) || from > high) continue;
    const bucket =
      to === null ? `m.compact_len >= ${from}` : `m.compact_len BETWEEN ${from} AND ${to}`;
    out.push(
      `(${bucket} AND m.compact_len BETWEEN ${low} AND ${high} AND m.compact_text % ${param})`,
    );
  }
  return out;
}

/**
 * The register mirror (table marks) as the `global_trademark_database` source. Candidates are
 * records sharing a Nice class, possibly covering a watched territory, and any of the watch's
 * search keys, each served by a GIN index (see 002_register_mirror.sql and docs/matching.md):
 * tokens; whole-mark phonetic codes; and, for brands of 8+ characters, trigram similarity of the
 * compact text within the length buckets of the two-edit band. The planner combines them
 * (BitmapOr); the pure module makes the final decision.
 */
export const globalTrademarkDatabase: SourceAdapter = {
  code: MIRROR_SOURCE,

  currentSeq: highestChangeSeq,

  async findCandidates(db: Db, watch: PreparedWatch, range: SeqRange) {
    const keys = watch.search;
    // Territory prefilter; the pure module still decides coverage exactly (coverage.ts).
    const territory = coverageSearch(watch.designations);
    const params: unknown[] = [
      [...watch.classes],
      range.fromSeq,
      range.toSeq,
      territory.jurisdictions,
      territory.woDesignations,
      keys.tokens,
    ];
    // The record's tokens hold its compact forms, so `tokens &&` also finds equal compact texts.
    const textMatch = ['m.tokens && $6::text[]'];
    if (keys.phonetic.length > 0) {
      params.push(keys.phonetic);
      textMatch.push(`m.sound_codes && $${params.length}::text[]`);
    }
    if (keys.useTrigram) {
      // `%` uses pg_trgm.similarity_threshold, set below in the query's transaction.
      params.push(keys.compact);
      textMatch.push(...bandBranches(keys.compact.length, `$${params.length}`));
    }
    const sql = `SELECT ${RECORD_COLUMNS}
       FROM marks m
      WHERE m.source_code = '${MIRROR_SOURCE}'
        AND m.classes && $1::int[]
        AND m.change_seq > $2 AND m.change_seq <= $3
        AND (m.jurisdiction = ANY($4::text[])
             OR (m.jurisdiction = 'WO' AND m.designations && $5::text[]))
        AND (${textMatch.join('\n             OR ')})`;
    // Settings must be set on the connection that runs the query: a transaction pins both to one
    // connection, and `set_config(…, true)` ends with it. A custom plan for every execution: the
    // driver prepares statements, and a generic plan (chosen after five executions) cannot see the
    // sequence range or the keys, so it scans the change_seq index over the whole mirror
    // (seconds on a million records) instead of combining the GIN indexes.
    return db.transaction(async (tx) => {
      await tx.query(
        `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
                set_config('pg_trgm.similarity_threshold', $1, true)`,
        [String(keys.useTrigram ? bandThreshold(watch) : 0.3)],
      );
      return tx.query<CandidateRecord>(sql, params);
    });
  },

  async findByExternalId(db, externalId) {
    const rows = await db.query<CandidateRecord>(
      `SELECT ${RECORD_COLUMNS} FROM marks m WHERE m.source_code = $1 AND m.external_id = $2`,
      [MIRROR_SOURCE, externalId],
    );
    return rows[0] ?? null;
  },

  toHit(record) {
    return {
      sourceCode: MIRROR_SOURCE,
      externalId: record.externalId,
      entityType: 'trademark',
      displayName: record.markText,
      ownerName: record.ownerName,
      ownerCountryCode: record.ownerCountryCode,
      jurisdiction: record.jurisdiction,
      filedAt: record.filedAt,
      registeredAt: record.registeredAt,
      expiresAt: record.expiresAt,
      status: record.status,
      classes: record.classes,
      rawPayload: record.rawPayload,
    };
  },
};
