// Which stored keys retrieve which register record for a watch: the one definition of the
// candidate rule. The SQL query (src/data/repositories/mirror-candidates.ts), the in-memory index of
// incremental scans (buildCandidateIndex / matchCandidateIndex below) and the evaluation
// (scripts/eval-matching.ts, through `retrieves`) all use it. Pure functions, no I/O; every rule's
// key is described in docs/matching.md ("Stored keys and the candidate query").
import { anyClassForms } from './any-class.ts';
import { coverageSearch } from './coverage.ts';
import { mayConflictAnalyzed, type PreparedWatch, TWO_EDITS_MIN_LENGTH } from './decide.ts';
import { analyzeMark, type MarkAnalysis, type MatchKeys } from './normalize.ts';
import { trigramSimilarity, trigrams } from './similarity.ts';

/**
 * The length buckets of the partial trigram indexes of mark_band (migration 016; column
 * compact_len): change both together. A record shorter than the first bucket is in no trigram
 * index.
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

/** The trigram buckets that overlap the two-edit band of a brand of `length` characters. */
export function bandBuckets(length: number): (readonly [number, number | null])[] {
  const { low, high } = bandLengths(length);
  return TRIGRAM_BUCKETS.filter(([from, to]) => !((to !== null && to < low) || from > high));
}

/**
 * Every token the watch's query compares with a record's `tokens`: its search tokens (forms,
 * words, stems, runs, anchors, `~` neighbourhood) and the one-edit texts no anchor covers.
 */
export function watchTokens(watch: PreparedWatch): string[] {
  return [...watch.search.tokens, ...watch.search.nearWords];
}

/**
 * The classes related to the watch's that it does not watch itself (goods.ts), where only the
 * related-class keys are searched (relatedClassTokens); empty when the watch turned related
 * classes off.
 */
export function relatedOnlyClasses(watch: PreparedWatch): number[] {
  return watch.candidateClasses.filter((c) => !watch.classes.has(c));
}

/**
 * The tokens of watchTokens also searched in a related class: those of the rules the decision
 * raises there (MatchRule.relatedClassKeys: the identity forms, the one-edit texts and the keys of
 * `contains_brand`, `contained_in_brand` and `fused`). With the codes of `phonetic`
 * (search.relatedPhonetic) and the two-edit band (search.relatedBand), the related-class search.
 */
export function relatedClassTokens(watch: PreparedWatch): string[] {
  return watch.search.relatedTokens;
}

/** The tokens of watchTokens searched in the watch's own classes only. */
export function ownClassTokens(watch: PreparedWatch): string[] {
  const related = new Set(watch.search.relatedTokens);
  return watchTokens(watch).filter((t) => !related.has(t));
}

/**
 * Does the candidate query retrieve a record with these keys for this watch in one of its own
 * classes, or a record without classes (text keys only; the class and territory prefilter is
 * separate)? `tokenSet` is watchTokens as a set, passed in so that a caller comparing one watch
 * with many records builds it once. In a related class, see retrievesInRelatedClass.
 */
export function retrieves(
  watch: PreparedWatch,
  tokenSet: ReadonlySet<string>,
  record: MatchKeys,
  recordTrigrams?: ReadonlySet<string>,
): boolean {
  const s = watch.search;
  return retrievedBy(watch, tokenSet, s.phonetic, s.useTrigram, record, recordTrigrams);
}

/**
 * Does the candidate query retrieve a record with these keys in a related class
 * (relatedOnlyClasses)? By the related-class keys only: `tokenSet` is relatedClassTokens as a set
 * (for the reason of retrieves'), with the related codes and band.
 */
export function retrievesInRelatedClass(
  watch: PreparedWatch,
  tokenSet: ReadonlySet<string>,
  record: MatchKeys,
  recordTrigrams?: ReadonlySet<string>,
): boolean {
  const s = watch.search;
  return retrievedBy(watch, tokenSet, s.relatedPhonetic, s.relatedBand, record, recordTrigrams);
}

function retrievedBy(
  watch: PreparedWatch,
  tokenSet: ReadonlySet<string>,
  phonetic: readonly string[],
  band: boolean,
  record: MatchKeys,
  recordTrigrams?: ReadonlySet<string>,
): boolean {
  if (record.tokens.some((t) => tokenSet.has(t))) return true;
  if (record.soundCodes.some((c) => phonetic.includes(c))) return true;
  if (band) {
    const { low, high } = bandLengths(watch.search.compact.length);
    const len = record.compact.length;
    if (len < low || len > high) return false;
    const sim = trigramSimilarity(
      watch.trigramSet,
      (recordTrigrams as Set<string> | undefined) ?? trigrams(record.compact),
    );
    if (sim >= bandThreshold(watch)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The in-memory index of incremental scans. Right after an import every due watch asks for the
// same range of changed records: their keys are read once (by the caller), indexed here, and each
// watch's keys are matched with the candidate query's own conditions.

/** One changed record's keys, as the caller reads them from the mirror. */
export type IndexedRecordRow = {
  id: number;
  /** The record's text and whether it is live (null: unknown), for mayConflict. */
  markText: string;
  live: boolean | null;
  tokens: string[];
  sound: string[];
  compact: string;
  len: number;
  classes: number[];
  jurisdiction: string;
  designations: string[];
};

/**
 * The keys of the changed records, compact: ~12 MB for 50,000 records. Each key (token, code,
 * trigram) is kept as a 32-bit hash packed with the record's index in a sorted Float64Array; a hash
 * collision only adds a candidate, which the decision then rejects.
 */
export type CandidateIndex = {
  ids: Float64Array;
  markText: string[];
  live: (boolean | null)[];
  /**
   * Each record's analysis, made when a watch first needs it (conflictCandidates) and kept for the
   * run's other watches: the same record is a candidate of many.
   */
  analyses: (MarkAnalysis | undefined)[];
  compactLength: Int32Array;
  /** Size of the record's trigram set when it can be in the two-edit band, else 0. */
  trigramCount: Int32Array;
  /** Nice classes as bits: 1-30 in classesLow, 31-45 in classesHigh. */
  classesLow: Int32Array;
  classesHigh: Int32Array;
  jurisdiction: string[];
  designations: readonly string[][];
  tokens: Postings;
  sounds: Postings;
  trigrams: Postings;
};

/**
 * Keys packed with their record's index (hash * RECORD_SLOTS + index), sorted, and where each
 * value of the hash's top 16 bits starts: a look-up searches one bucket (~10 entries for 50,000
 * records) instead of the whole list (20 steps), which an incremental run does ~500 times per
 * watch (one per one-edit text of its brand). Most of those look-ups find nothing: `seen`, one bit
 * per value of the hash's low PRESENCE_BITS bits, answers them from a table a few hundred
 * kilobytes large without touching the list (a set bit only means "search").
 */
export type Postings = { values: Float64Array; buckets: Uint32Array; seen: Uint32Array };

const PRESENCE_BITS = 22;
const PRESENCE_MASK = 2 ** PRESENCE_BITS - 1;

/** Record indexes stay below this: packed as hash * RECORD_SLOTS + index. */
export const RECORD_SLOTS = 2 ** 21;
const NO_DESIGNATIONS: string[] = [];

/** FNV-1a, 32 bits, over UTF-16 code units. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const BUCKET_SHIFT = 16;
const BUCKETS = 2 ** (32 - BUCKET_SHIFT);

function postings(packed: number[]): Postings {
  const values = Float64Array.from(packed);
  values.sort();
  const seen = new Uint32Array(2 ** (PRESENCE_BITS - 5));
  for (const v of values) {
    const bit = Math.floor(v / RECORD_SLOTS) & PRESENCE_MASK;
    seen[bit >>> 5] = (seen[bit >>> 5] as number) | (1 << (bit & 31));
  }
  // buckets[b] = the first entry whose hash has top bits >= b; buckets[BUCKETS] = the end.
  const buckets = new Uint32Array(BUCKETS + 1);
  let k = 0;
  for (let b = 0; b <= BUCKETS; b++) {
    while (
      k < values.length &&
      Math.floor((values[k] as number) / RECORD_SLOTS) >>> BUCKET_SHIFT < b
    ) {
      k++;
    }
    buckets[b] = k;
  }
  return { values, buckets, seen };
}

/** Calls `fn` with the index of every record holding `key` (and, rarely, a hash twin). */
function eachPosting(list: Postings, key: string, fn: (index: number) => void) {
  eachPostingOf(list, hashKey(key), fn);
}

/** The hash of a trigram within one compact length (the two-edit band's postings). */
function gramAtLength(gramHash: number, length: number): number {
  return Math.imul(gramHash ^ length, 0x01000193) >>> 0;
}

function eachPostingOf(list: Postings, hash: number, fn: (index: number) => void) {
  const bit = hash & PRESENCE_MASK;
  if (((list.seen[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return;
  const start = hash * RECORD_SLOTS;
  const { values } = list;
  const bucket = hash >>> BUCKET_SHIFT;
  let lo = list.buckets[bucket] as number;
  let hi = list.buckets[bucket + 1] as number;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < start) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < values.length; k++) {
    const index = (values[k] as number) - start;
    if (index >= RECORD_SLOTS) break;
    fn(index);
  }
}

/**
 * The records the brand's identical filings may be in, whatever their classes (any-class.ts): one
 * of the brand's identity forms among their tokens, at the brand's compact length. The SQL query's
 * `anyClassBranch` (data/repositories/mirror-candidates.ts) is the same condition.
 */
function anyClassPicks(set: CandidateIndex, watch: PreparedWatch): Set<number> {
  const out = new Set<number>();
  const length = watch.brand.compact.length;
  for (const form of anyClassForms(watch)) {
    eachPosting(set.tokens, form, (i) => {
      if (set.compactLength[i] === length) out.add(i);
    });
  }
  return out;
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

/** Indexes the keys of at most RECORD_SLOTS records. */
export function buildCandidateIndex(rows: readonly IndexedRecordRow[]): CandidateIndex {
  const n = rows.length;
  if (n >= RECORD_SLOTS) throw new RangeError(`at most ${RECORD_SLOTS - 1} records per index`);
  const set: CandidateIndex = {
    ids: new Float64Array(n),
    markText: new Array<string>(n),
    live: new Array<boolean | null>(n),
    analyses: new Array<MarkAnalysis | undefined>(n),
    compactLength: new Int32Array(n),
    trigramCount: new Int32Array(n),
    classesLow: new Int32Array(n),
    classesHigh: new Int32Array(n),
    jurisdiction: new Array<string>(n),
    designations: new Array<string[]>(n),
    tokens: postings([]),
    sounds: postings([]),
    trigrams: postings([]),
  };
  // Trigrams are kept per compact length, so that the two-edit band reads only the postings of
  // the lengths it allows instead of every record sharing a common trigram.
  const tokens: number[] = [];
  const sounds: number[] = [];
  const grams: number[] = [];
  const designations = set.designations as string[][];
  rows.forEach((r, i) => {
    set.ids[i] = r.id;
    set.markText[i] = r.markText;
    set.live[i] = r.live;
    set.compactLength[i] = r.len;
    [set.classesLow[i], set.classesHigh[i]] = classBits(r.classes);
    set.jurisdiction[i] = r.jurisdiction;
    designations[i] = r.designations.length === 0 ? NO_DESIGNATIONS : r.designations;
    for (const t of r.tokens) tokens.push(hashKey(t) * RECORD_SLOTS + i);
    for (const c of r.sound) sounds.push(hashKey(c) * RECORD_SLOTS + i);
    if (r.len >= TWO_EDITS_MIN_LENGTH) {
      const own = trigrams(r.compact);
      set.trigramCount[i] = own.size;
      for (const g of own) grams.push(gramAtLength(hashKey(g), r.len) * RECORD_SLOTS + i);
    }
  });
  set.tokens = postings(tokens);
  set.sounds = postings(sounds);
  set.trigrams = postings(grams);
  return set;
}

/** The candidate query's conditions, evaluated on the index: the ids of the records it returns. */
export function matchCandidateIndex(set: CandidateIndex, watch: PreparedWatch): number[] {
  return candidatePositions(set, watch).map((i) => set.ids[i] as number);
}

/**
 * The ids of the candidates (matchCandidateIndex) that may be conflicts (mayConflict): the only
 * ones an incremental scan reads in full. Most candidates are not: half of them on bench:scan's
 * register, and four in five of those in a related class only, share keys with the brand but no
 * text rule finds them; reading and deciding them found nothing, and a watch whose candidates are
 * all such is now spared its read of the mirror.
 */
export function conflictCandidates(set: CandidateIndex, watch: PreparedWatch): number[] {
  return candidatePositions(set, watch)
    .filter((i) => {
      set.analyses[i] ??= analyzeMark(set.markText[i] as string);
      return mayConflictAnalyzed(watch, set.analyses[i], set.live[i] as boolean | null);
    })
    .map((i) => set.ids[i] as number);
}

/** The positions in the index of the records matchCandidateIndex returns. */
function candidatePositions(set: CandidateIndex, watch: PreparedWatch): number[] {
  const keys = watch.search;
  const picked = new Set<number>();
  const pick = (index: number) => picked.add(index);
  // The records the related-class keys retrieve: the only ones kept in a related class. Each key
  // is looked up once, as in SQL.
  const pickedRelated = new Set<number>();
  const pickBoth = (index: number) => {
    picked.add(index);
    pickedRelated.add(index);
  };
  for (const t of relatedClassTokens(watch)) eachPosting(set.tokens, t, pickBoth);
  for (const t of ownClassTokens(watch)) eachPosting(set.tokens, t, pick);
  const relatedCodes = new Set(keys.relatedPhonetic);
  for (const c of keys.phonetic) eachPosting(set.sounds, c, relatedCodes.has(c) ? pickBoth : pick);
  // The brand's identical filings, kept below whatever their classes.
  const anyClass = anyClassPicks(set, watch);
  for (const i of anyClass) picked.add(i);
  if (keys.useTrigram) {
    // The two-edit band: lengths within 2, both 8+, and the trigram similarity of the SQL search
    // (shared / (brand + record - shared), computed as trigramSimilarity does; a hash twin can only
    // raise the count).
    const { low, high } = bandLengths(keys.compact.length);
    const shared = new Map<number, number>();
    for (const g of watch.trigramSet) {
      const gram = hashKey(g);
      for (let length = low; length <= high; length++) {
        eachPostingOf(set.trigrams, gramAtLength(gram, length), (i) => {
          // A hash twin of another length is not in the band.
          if (set.compactLength[i] === length) shared.set(i, (shared.get(i) ?? 0) + 1);
        });
      }
    }
    const brandCount = watch.trigramSet.size;
    const threshold = bandThreshold(watch);
    const pickBand = keys.relatedBand ? pickBoth : pick;
    for (const [i, s] of shared) {
      if (s / (brandCount + (set.trigramCount[i] as number) - s) >= threshold) pickBand(i);
    }
  }
  const [low, high] = classBits(watch.classes);
  const [relatedLow, relatedHigh] = classBits(relatedOnlyClasses(watch));
  const territory = coverageSearch(watch.designations);
  const offices = new Set(territory.jurisdictions);
  const woDesignations = new Set(territory.woDesignations);
  const positions: number[] = [];
  for (const i of picked) {
    const recordLow = set.classesLow[i] as number;
    const recordHigh = set.classesHigh[i] as number;
    // A record without classes (none published by its source) is kept: text and territory decide.
    const classless = recordLow === 0 && recordHigh === 0;
    const inClasses = classless || (recordLow & low) !== 0 || (recordHigh & high) !== 0;
    const inRelated =
      pickedRelated.has(i) && ((recordLow & relatedLow) !== 0 || (recordHigh & relatedHigh) !== 0);
    if (!inClasses && !inRelated && !anyClass.has(i)) continue;
    const jurisdiction = set.jurisdiction[i] as string;
    const covered =
      offices.has(jurisdiction) ||
      (jurisdiction === 'WO' &&
        (set.designations[i] as string[]).some((d) => woDesignations.has(d)));
    if (covered) positions.push(i);
  }
  return positions;
}
