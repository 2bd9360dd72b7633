import type { Db } from '../../data/db.ts';
import { highestChangeSeq } from '../../data/repositories/marks.ts';
import { coverageSearch } from '../../matching/coverage.ts';
import { type PreparedWatch, TWO_EDITS_MIN_LENGTH } from '../../matching/decide.ts';
import { ONE_EDIT_MAX_LENGTH, ONE_EDIT_MIN_LENGTH } from '../../matching/normalize.ts';
import { trigrams } from '../../matching/similarity.ts';
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
  [8, 8],
  [9, 9],
  [10, 10],
  [11, 11],
  [12, 12],
  [13, 13],
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

/** The compact lengths of the records in the two-edit band of a brand of `length` characters. */
export function bandLengths(length: number): { low: number; high: number } {
  return {
    low: Math.max(TWO_EDITS_MIN_LENGTH, length - BAND_LENGTH_SLACK),
    high: length + BAND_LENGTH_SLACK,
  };
}

/**
 * The two-edit band as OR-ed branches, one per trigram index bucket that overlaps the lengths the
 * band allows; each branch names its bucket literally so that the planner can use that partial
 * index. `$param` is the brand's compact text.
 */
function bandBranches(length: number, param: string): string[] {
  const { low, high } = bandLengths(length);
  const out: string[] = [];
  for (const [from, to] of TRIGRAM_BUCKETS) {
    if ((to !== null && to < low) || from > high) continue;
    const bucket =
      to === null
        ? `m.compact_len >= ${from}`
        : from === to
          ? `m.compact_len = ${from}`
          : `m.compact_len BETWEEN ${from} AND ${to}`;
    out.push(
      `(${bucket} AND m.compact_len BETWEEN ${low} AND ${high} AND m.compact_text % ${param})`,
    );
  }
  return out;
}

/**
 * Incremental scans of many watches share one read of the records that changed. Right after an
 * import every due watch asks for the same sequence range (its last scan's high-water mark up to
 * the new one): the range's keys are read once per process and indexed in memory, each watch's
 * keys are matched there, and only the matching records are read in full. This replaces, per
 * watch, ~7 ms of GIN scans over the whole mirror (the trigram buckets cannot be narrowed to a
 * range) by well under a millisecond. The matching is the candidate query's own (tokens, compact
 * texts one edit away, whole-mark codes, the two-edit band with the rule's exact trigram
 * similarity, class and territory prefilter), and the final read re-checks the range, so a record changed again since is
 * left to the scan that covers its new sequence value, as in SQL. Ranges above RANGE_MAX_ROWS
 * values, and full scans, query the indexes directly.
 */
const RANGE_MAX_ROWS = 100_000;
/** Ranges kept per database, and how long an unused one is kept. */
const RANGE_CACHE_SIZE = 2;
const RANGE_IDLE_MS = 10 * 60_000;

/**
 * The keys of the changed records, compact: ~10 MB for 50,000 records. Each key (token, code,
 * trigram) is kept as a 32-bit hash packed with the record's index in a sorted Float64Array; a hash
 * collision only adds a candidate, which the decision then rejects.
 */
type ChangedRecords = {
  ids: Float64Array;
  compactLength: Int32Array;
  /** Size of the record's trigram set when it can be in the two-edit band, else 0. */
  trigramCount: Int32Array;
  /** Nice classes as bits: 1-30 in classesLow, 31-45 in classesHigh. */
  classesLow: Int32Array;
  classesHigh: Int32Array;
  jurisdiction: string[];
  designations: readonly string[][];
  tokens: Float64Array;
  /** Compact texts of 4 to 8 characters (the one-edit branch). */
  compacts: Float64Array;
  sounds: Float64Array;
  trigrams: Float64Array;
};

/** Record indexes stay below this (RANGE_MAX_ROWS): packed as hash * RECORD_SLOTS + index. */
const RECORD_SLOTS = 2 ** 21;
const NO_DESIGNATIONS: string[] = [];

/** FNV-1a, 32 bits, over UTF-16 code units. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function postings(packed: number[]): Float64Array {
  const sorted = Float64Array.from(packed);
  sorted.sort();
  return sorted;
}

/** Calls `fn` with the index of every record holding `key` (and, rarely, a hash twin). */
function eachPosting(list: Float64Array, key: string, fn: (index: number) => void) {
  const hash = hashKey(key);
  const start = hash * RECORD_SLOTS;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < start) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < list.length; k++) {
    const index = (list[k] as number) - start;
    if (index >= RECORD_SLOTS) break;
    fn(index);
  }
}

function classBits(classes: Iterable<number>): [number, number] {
  let low = 0;
  let high = 0;
  for (const c of classes) {
    if (c >= 1 && c <= 30) low |= 1 << (c - 1);
    else if (c > 30 && c <= 45) high |= 1 << (c - 31);
  }
  return [low, high];
}

async function loadChanged(db: Db, range: SeqRange): Promise<ChangedRecords> {
  const rows = await db.query<{
    id: number;
    tokens: string[];
    sound: string[];
    compact: string;
    len: number;
    classes: number[];
    jurisdiction: string;
    designations: string[];
  }>(
    `SELECT id, tokens, sound_codes AS sound, compact_text AS compact, compact_len AS len, classes,
            jurisdiction, designations
       FROM marks
      WHERE source_code = $1 AND change_seq > $2 AND change_seq <= $3`,
    [MIRROR_SOURCE, range.fromSeq, range.toSeq],
  );
  const n = rows.length;
  const set: ChangedRecords = {
    ids: new Float64Array(n),
    compactLength: new Int32Array(n),
    trigramCount: new Int32Array(n),
    classesLow: new Int32Array(n),
    classesHigh: new Int32Array(n),
    jurisdiction: new Array<string>(n),
    designations: new Array<string[]>(n),
    tokens: new Float64Array(0),
    compacts: new Float64Array(0),
    sounds: new Float64Array(0),
    trigrams: new Float64Array(0),
  };
  const tokens: number[] = [];
  const compacts: number[] = [];
  const sounds: number[] = [];
  const grams: number[] = [];
  const designations = set.designations as string[][];
  rows.forEach((r, i) => {
    set.ids[i] = r.id;
    set.compactLength[i] = r.len;
    [set.classesLow[i], set.classesHigh[i]] = classBits(r.classes);
    set.jurisdiction[i] = r.jurisdiction;
    designations[i] = r.designations.length === 0 ? NO_DESIGNATIONS : r.designations;
    for (const t of r.tokens) tokens.push(hashKey(t) * RECORD_SLOTS + i);
    if (r.len >= ONE_EDIT_MIN_LENGTH && r.len <= ONE_EDIT_MAX_LENGTH) {
      compacts.push(hashKey(r.compact) * RECORD_SLOTS + i);
    }
    for (const c of r.sound) sounds.push(hashKey(c) * RECORD_SLOTS + i);
    if (r.len >= TWO_EDITS_MIN_LENGTH) {
      const own = trigrams(r.compact);
      set.trigramCount[i] = own.size;
      for (const g of own) grams.push(hashKey(g) * RECORD_SLOTS + i);
    }
  });
  set.tokens = postings(tokens);
  set.compacts = postings(compacts);
  set.sounds = postings(sounds);
  set.trigrams = postings(grams);
  return set;
}

type CachedRange = { records: Promise<ChangedRecords>; timer: ReturnType<typeof setTimeout> };
const changedRanges = new WeakMap<Db, Map<string, CachedRange>>();

function changedRecords(db: Db, range: SeqRange): Promise<ChangedRecords> {
  let ranges = changedRanges.get(db);
  if (ranges === undefined) {
    ranges = new Map();
    changedRanges.set(db, ranges);
  }
  const cache = ranges;
  const key = `${range.fromSeq}:${range.toSeq}`;
  const expire = () =>
    setTimeout(() => {
      if (cache.get(key) === entry) cache.delete(key);
    }, RANGE_IDLE_MS).unref();
  let entry = cache.get(key);
  if (entry !== undefined) {
    clearTimeout(entry.timer);
    entry.timer = expire();
    // Most recently used last.
    cache.delete(key);
    cache.set(key, entry);
    return entry.records;
  }
  const records = loadChanged(db, range);
  entry = { records, timer: expire() };
  cache.set(key, entry);
  // A failed read is not kept: the next scan tries again.
  records.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  for (const [oldest, old] of cache) {
    if (cache.size <= RANGE_CACHE_SIZE) break;
    clearTimeout(old.timer);
    cache.delete(oldest);
  }
  return records;
}

/** The candidate query's conditions, evaluated on the changed records in memory: record ids. */
function matchChanged(set: ChangedRecords, watch: PreparedWatch): number[] {
  const keys = watch.search;
  const picked = new Set<number>();
  const pick = (index: number) => picked.add(index);
  for (const t of keys.tokens) eachPosting(set.tokens, t, pick);
  for (const v of keys.oneEdit) eachPosting(set.compacts, v, pick);
  for (const c of keys.phonetic) eachPosting(set.sounds, c, pick);
  if (keys.useTrigram) {
    // The two-edit band: lengths within 2, both 8+, and the trigram similarity of the SQL search
    // (shared / (brand + record - shared), computed as trigramSimilarity does; a hash twin can only
    // raise the count).
    const { low, high } = bandLengths(keys.compact.length);
    const shared = new Map<number, number>();
    for (const g of watch.trigramSet) {
      eachPosting(set.trigrams, g, (i) => {
        const len = set.compactLength[i] as number;
        if (len >= low && len <= high) shared.set(i, (shared.get(i) ?? 0) + 1);
      });
    }
    const brandCount = watch.trigramSet.size;
    const threshold = bandThreshold(watch);
    for (const [i, s] of shared) {
      if (s / (brandCount + (set.trigramCount[i] as number) - s) >= threshold) picked.add(i);
    }
  }
  const [low, high] = classBits(watch.classes);
  const territory = coverageSearch(watch.designations);
  const offices = new Set(territory.jurisdictions);
  const woDesignations = new Set(territory.woDesignations);
  const ids: number[] = [];
  for (const i of picked) {
    if (
      ((set.classesLow[i] as number) & low) === 0 &&
      ((set.classesHigh[i] as number) & high) === 0
    ) {
      continue;
    }
    const jurisdiction = set.jurisdiction[i] as string;
    const covered =
      offices.has(jurisdiction) ||
      (jurisdiction === 'WO' &&
        (set.designations[i] as string[]).some((d) => woDesignations.has(d)));
    if (covered) ids.push(set.ids[i] as number);
  }
  return ids;
}

/**
 * Settings of the candidate query's transaction; `$1` is the band's trigram threshold. A custom
 * plan for every execution (see findCandidates). No JIT and no parallel workers: the query reads
 * a few hundred rows at most, but the planner's estimate for `tokens &&` grows with the number of
 * keys sent (a brand of 4-7 characters sends ~380 one-edit keys: estimated 75,000 rows for 69
 * read), and above jit_above_cost it compiled the query (80 ms) and started two workers for
 * 2 ms of index work.
 */
export const CANDIDATE_SETTINGS = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
  set_config('jit', 'off', true),
  set_config('max_parallel_workers_per_gather', '0', true),
  set_config('pg_trgm.similarity_threshold', $1, true)`;

/**
 * The register mirror (table marks) as the `global_trademark_database` source. Candidates are
 * records sharing a Nice class, possibly covering a watched territory, and any of the watch's
 * search keys, each served by an index (see 002_register_mirror.sql, 006_one_edit_index.sql and
 * docs/matching.md): tokens; compact texts one edit away; whole-mark phonetic codes; and, for brands of 8+ characters, trigram similarity of the
 * compact text within the length buckets of the two-edit band. The planner combines them
 * (BitmapOr); the pure module makes the final decision.
 */
export const globalTrademarkDatabase: SourceAdapter = {
  code: MIRROR_SOURCE,

  currentSeq: highestChangeSeq,

  async findCandidates(db: Db, watch: PreparedWatch, range: SeqRange) {
    if (range.fromSeq > 0 && range.toSeq - range.fromSeq <= RANGE_MAX_ROWS) {
      const ids = matchChanged(await changedRecords(db, range), watch);
      if (ids.length === 0) return [];
      return db.query<CandidateRecord>(
        `SELECT ${RECORD_COLUMNS} FROM marks m
          WHERE m.id = ANY($1::bigint[]) AND m.change_seq > $2 AND m.change_seq <= $3`,
        [ids, range.fromSeq, range.toSeq],
      );
    }
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
    if (keys.oneEdit.length > 0) {
      // The one-edit rule for Latin-capital records: their compact text among the brand's
      // variants, on the partial btree of 006_one_edit_index.sql. A separate branch rather than
      // more tokens: the planner estimates `= ANY` from compact_text's distinct values, while its
      // estimate for `tokens &&` grows with every key (380 keys: a quarter of the table, and a
      // sequential scan on PGlite).
      params.push(keys.oneEdit);
      textMatch.push(
        `(m.compact_len BETWEEN ${ONE_EDIT_MIN_LENGTH} AND ${ONE_EDIT_MAX_LENGTH} AND m.compact_text = ANY($${params.length}::text[]))`,
      );
    }
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
      await tx.query(CANDIDATE_SETTINGS, [String(keys.useTrigram ? bandThreshold(watch) : 0.3)]);
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
