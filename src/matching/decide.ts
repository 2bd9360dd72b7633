// The conflict decision: does a register record conflict with a watched brand?
// Pure functions, no I/O. Every rule, threshold and the SQL key that retrieves it are described
// in docs/matching.md; keep the two in step.
import { AFFIX_PREFIXES, AFFIX_SUFFIXES, PLURAL_SUFFIXES } from './common-words.ts';
import { type CoverageRecord, coveredDesignations } from './coverage.ts';
import {
  type AffixSplit,
  affixSplits,
  allCommon,
  analyzeMark,
  BOUNDARY_PART_MIN,
  brandCore,
  compoundSplits,
  FOLDED_COMMON_WORDS,
  FOLDED_PREFIXES,
  FOLDED_SUFFIXES,
  HEAD_KEY,
  LONG_ANCHOR,
  MAX_SOUNDED_WORDS,
  type MarkAnalysis,
  ONE_EDIT_MAX_LENGTH,
  ONE_EDIT_MIN_LENGTH,
  oneEditSearchKeys,
  oneEditVariants,
  PHONETIC_MIN_LENGTH,
  PREFIX_ANCHOR,
  SHAPE_MAX_LENGTH,
  SHAPE_MIN_LENGTH,
  SHORT_ANCHOR,
  SHORT_PART_MAX,
  SKELETON_KEY,
  SUFFIX_ANCHOR,
  shapeKeys,
  spokenDigits,
  TAIL_KEY,
  vowelGroups,
  wholeMarkPhoneticCodes,
} from './normalize.ts';
import { damerauLevenshtein, phoneticSkeleton, trigramSimilarity, trigrams } from './similarity.ts';
import { isWord } from './vocabulary.ts';
import {
  isWeakWord,
  MIN_WEIGHTY_LENGTH,
  marksWith,
  measuredCommon,
  NO_WORD_STATS,
  type WordStats,
} from './word-weights.ts';

/** Compact length from which two edits are tolerated (below: one edit, from 4 letters). */
export const TWO_EDITS_MIN_LENGTH = 8;
/**
 * Two-edit band guard: the pg_trgm similarity of the compact texts must reach a threshold that
 * depends on the brand's compact length (two edits leave fewer shared trigrams in a short text).
 * The SQL candidate query sets the same threshold for `compact_text % $compact`, so it finds every
 * record this band accepts.
 */
export function trigramThreshold(brandLength: number): number {
  if (brandLength < 10) return 0.12;
  return brandLength < 12 ? 0.16 : 0.2;
}
/** Shortest mark the `contained_in_brand` rule reports, and shortest brand-side affix stem. */
export const CONTAINED_MIN_LENGTH = 4;
/** Longest mark in which a letter mark (RM) is reported as a word (MB RM). */
export const LETTER_MARK_MAX_WORDS = 3;
/** Shortest brand core for `contains_brand` when the core is a single word. */
export const CONTAINS_MIN_LENGTH = 3;
/** Shortest distinctive part of a one-word compound brand reported alone (DOLPHIN of POWERDOLPHIN). */
export const COMPOUND_PART_MIN = 5;
/** Shortest brand (compact) whose fused forms are reported, and the shortest word fused to it. */
export const FUSED_MIN_BRAND = 5;
export const FUSED_MIN_REST = 2;
/** Brand lengths (compact) for which a near form inside a longer mark is reported. */
export const NEAR_MIN_LENGTH = ONE_EDIT_MIN_LENGTH;
export const NEAR_MAX_LENGTH = ONE_EDIT_MAX_LENGTH;
/** Below this brand length (compact), a near form inside a longer mark is only brand + a letter. */
export const NEAR_EDIT_MIN_LENGTH = 5;

export type TextReasonKind =
  | 'exact'
  | 'normalized'
  | 'confusable'
  | 'edit_distance'
  | 'phonetic'
  | 'contains_brand'
  | 'contained_in_brand'
  | 'affix'
  | 'fused'
  | 'near_inside'
  | 'reordered'
  | 'shared_word'
  | 'same_shape'
  | 'digits_as_words'
  | 'parts_swapped'
  | 'compound';
export type ReasonKind = TextReasonKind | 'class_overlap' | 'territory';

/** One machine-readable finding, with a sentence (`detail`) a reader can quote. */
export type Reason =
  | { kind: 'exact'; detail: string }
  | { kind: 'normalized'; detail: string; normalized: string }
  | { kind: 'confusable'; detail: string; folded: string }
  | {
      kind: 'edit_distance';
      detail: string;
      distance: number;
      maxDistance: number;
      /** The compact texts compared, brand first. */
      texts: [string, string];
    }
  | {
      kind: 'phonetic';
      detail: string;
      code: string;
      /** The spelling skeletons of the brand and of the mark (without its plural S). */
      skeletons: [string, string];
      /** The mark is a sound-alike with a plural S (SEYCOS for SEIKO). */
      plural: boolean;
    }
  | {
      kind: 'contains_brand';
      detail: string;
      words: string[];
      /** Index of the first word of the brand in the mark, and the mark's word count. */
      at: number;
      of: number;
    }
  | { kind: 'contained_in_brand'; detail: string; words: string[] }
  | {
      kind: 'fused';
      detail: string;
      /** The mark's word holding the brand, and what is fused to it. */
      word: string;
      rest: string;
      /** `start`: the brand begins the word (ZEROFLUSHNET); `end`: it ends it (NETZEROFLUSH). */
      side: 'start' | 'end';
      at: number;
      of: number;
    }
  | {
      kind: 'near_inside';
      detail: string;
      /** The mark's words that form the near form, and its compact text. */
      words: string[];
      form: string;
      /** One character edit, a plural (-S, -ES, -Y/-IES), or the same sound. */
      how: 'edit' | 'plural' | 'sound';
      at: number;
      of: number;
    }
  | {
      kind: 'reordered';
      detail: string;
      /** The mark's words, and whether the brand's words are in order with others between. */
      words: string[];
      inOrder: boolean;
    }
  | {
      kind: 'same_shape';
      detail: string;
      /** The compact texts compared (brand first), the letters they share at each end, and edits. */
      texts: [string, string];
      prefix: string;
      suffix: string;
      distance: number;
      syllables: number;
    }
  | {
      kind: 'digits_as_words';
      detail: string;
      /** Brand and mark as read aloud, digits as words (TRUEONE / TRUONE). */
      texts: [string, string];
      /** Read aloud they are the same, one letter apart, or the same in sound. */
      how: 'same' | 'edit' | 'sound';
    }
  | {
      kind: 'compound';
      detail: string;
      /** The mark's word, the English word the brand is joined with, and the brand's side. */
      word: string;
      rest: string;
      side: 'start' | 'end';
      at: number;
      of: number;
    }
  | {
      kind: 'parts_swapped';
      detail: string;
      /** The one-word brand's two parts in its order (TIGHT, VAC), and the mark's (VAC, TITE). */
      parts: [string, string];
      markParts: [string, string];
    }
  | {
      kind: 'shared_word';
      detail: string;
      /** The brand's distinctive words that the mark holds, as the brand writes them. */
      words: string[];
      /** The mark's words that hold them, and how the first is held. */
      markWords: string[];
      form: SharedForm;
      /** Where the first of them stands: in the brand's core and in the mark (0 = first word). */
      brandAt: number;
      markAt: number;
      of: number;
      /** Marks of the register holding each shared word (null: not measured). */
      marks: (number | null)[];
      /** The mark holds every distinctive word of the brand. */
      whole: boolean;
      /** The record disclaims the (first) shared word: its office found it descriptive. */
      disclaimed: boolean;
    }
  | {
      kind: 'affix';
      detail: string;
      /** `mark`: the mark is the brand plus the affix; `brand`: the brand is the mark plus it. */
      side: 'mark' | 'brand';
      prefix: string;
      suffix: string;
    }
  | { kind: 'class_overlap'; detail: string; classes: number[] }
  | { kind: 'territory'; detail: string; designations: string[] };

export interface Decision {
  /**
   * True when a text rule fired, a Nice class is shared (or the record has none: the source does
   * not publish them) and a watch designation is covered.
   */
  conflict: boolean;
  /** Text reasons (strongest first), then the `class_overlap` and `territory` facts that hold. */
  reasons: Reason[];
  /** Strength of the strongest text reason, 0..1; 0 when there is no conflict. */
  score: number;
}

export interface WatchInput {
  name: string;
  niceClasses: readonly number[];
  designations: readonly string[];
}

/** A word of the brand's core that carries weight (see word-weights.ts). */
export interface WeightyWord {
  /** As the rules compare it, and as the brand writes it (normalized). */
  folded: string;
  plain: string;
  /** Its index in the brand's core. */
  at: number;
  /** Marks of the register holding it (0 when unmeasured). */
  marks: number;
  /**
   * Part of the brand's dominant element: its first distinctive word, or its rarest in the
   * register (any of them when unmeasured). Computed once per watch, not per candidate.
   */
  dominant: boolean;
  /** The word without its inflection (GNARLY, GNARLED → GNARL; see stemOf). */
  stem: string;
  /** Its spelling skeleton; empty below 4 letters (PHONETIC_MIN_LENGTH). */
  skeleton: string;
}

/** A one-word brand read as two parts (TIGHT + VAC), for `parts_swapped`. */
export interface BrandParts {
  first: string;
  second: string;
  /** How each part is said (saidAs), and the sound codes of the parts swapped. */
  saidFirst: string;
  saidSecond: string;
  swappedCodes: readonly string[];
}

export interface RecordInput extends CoverageRecord {
  markText: string;
  classes: readonly number[];
  /** Words the record's office says its owner disclaims (normalized), when the source gives them. */
  disclaimed?: readonly string[];
}

/** Keys of a watch for the SQL candidate query (see docs/matching.md, "Candidate query"). */
export interface SearchKeys {
  /** `compact_text = $compact`, and `compact_text % $compact` when `useTrigram`. */
  compact: string;
  /** `tokens && $tokens`. */
  tokens: string[];
  /**
   * `tokens && $nearWords`: the texts one edit away from a brand of 4 to 24 characters
   * (oneEditVariants) that none of the anchors in `tokens` retrieves; empty otherwise. A record's
   * runs (words, two adjacent words, its compact text) are tokens, so this finds a near form of
   * the brand as the whole mark (`edit_distance`) or inside it (`near_inside`).
   */
  nearWords: string[];
  /** `sound_codes && $phonetic`: the brand's whole-mark codes (empty below 4 letters). */
  phonetic: string[];
  /** Whether the query needs `compact_text % $compact` (brands of 8+ characters). */
  useTrigram: boolean;
  /** The pg_trgm.similarity_threshold to set for that operator. */
  trigramThreshold: number;
}

/** Watch-side data computed once per scan (prepareWatch) and reused for every candidate. */
export interface PreparedWatch {
  name: string;
  brand: MarkAnalysis;
  classes: ReadonlySet<number>;
  designations: readonly string[];
  core: readonly string[];
  coreCompact: string;
  /** Proper runs of brand words, joined, that are distinctive (for contained_in_brand). */
  runs: ReadonlyMap<string, readonly string[]>;
  /**
   * When the brand is common words plus a distinctive part of fewer than 4 characters in all,
   * written apart ("INTERNATIONAL X", "BW BANK") or run together ("HTCOLLECTION", "EXALIGHT"):
   * that part. The edit rule requires it in the mark with its own letters.
   */
  shortDistinctive: readonly DistinctivePart[];
  /** Readings of the brand as prefix + stem + suffix (for affix, brand side). */
  splits: readonly AffixSplit[];
  /**
   * The brand without one of its words (F JEANS → JEANS): one edit away when that word is a
   * letter, but not a near form of the brand.
   */
  wordDrops: ReadonlySet<string>;
  /** The shape keys sent for `same_shape` (one-word brands of 6 to 9 letters), else empty. */
  shapeKeys: readonly string[];
  /** The register's word counts the watch was prepared with (NO_WORD_STATS: none). */
  stats: WordStats;
  /** The brand read aloud with its digits as words (TRUE1 → TRUEONE), or null (spokenDigits). */
  spoken: string | null;
  /**
   * A brand of two or more letters that is one word of 2 letters (RM) and not a common word: a
   * letter mark, reported as a word of a mark of up to 3 words (contains_brand).
   */
  letterMark: boolean;
  /**
   * The brand's first word when it is 2 or 3 letters, not common, and the initials of the words
   * after it (ML of ML MARK LEES): a mark that is only this word is `contained_in_brand`.
   */
  initials: string | null;
  /**
   * The brand, when the `compound` rule applies to it: one word of 3+ letters that the `fused`
   * rule leaves out (shorter than 5 letters, or a common word), 3-4 letters or an English word.
   */
  compoundBrand: string | null;
  /** Readings of a one-word brand of 6+ letters as two parts of 3+ (parts_swapped), else empty. */
  parts: readonly BrandParts[];
  /**
   * The core's words that carry weight: not weak by the list or by measurement (isWeakWord). For
   * a brand of two or more core words, a mark holding one of them is `shared_word`.
   */
  weighty: readonly WeightyWord[];
  /** Whether the fused rule applies: a brand of 5+ characters that is not only common words. */
  fusedEligible: boolean;
  /** The anchor keys sent (see addAnchorKeys): the brand's first and last 5 or 8 characters. */
  anchors: ReadonlySet<string>;
  /** The anchors' length (5 for a brand of 5-7 characters, else 8), 0 when none are sent. */
  anchorSize: number;
  skeleton: string;
  codes: readonly string[];
  trigramSet: Set<string>;
  search: SearchKeys;
}

const UNFOLDED_AFFIX = new Map<string, string>([
  ...FOLDED_PREFIXES.map((f, i): [string, string] => [f, AFFIX_PREFIXES[i] as string]),
  ...FOLDED_SUFFIXES.map((f, i): [string, string] => [f, AFFIX_SUFFIXES[i] as string]),
  ['IES', 'IES'],
]);
const SUFFIX_SET: ReadonlySet<string> = new Set(FOLDED_SUFFIXES);
const PLURAL_SET: ReadonlySet<string> = new Set(PLURAL_SUFFIXES);

function affixName(folded: string): string {
  return UNFOLDED_AFFIX.get(folded) ?? folded;
}

/**
 * Computes what every comparison with this watch needs, once. `stats`: the register's counts of
 * the brand's words (wordStatsFor in the data layer); without them only the built-in list of
 * common words tells a weak word.
 */
export function prepareWatch(watch: WatchInput, stats: WordStats = NO_WORD_STATS): PreparedWatch {
  const brand = analyzeMark(watch.name);
  const core = brandCore(brand.folded);
  const coreStart = brand.folded.indexOf(core[0] as string);
  const weighty: WeightyWord[] = [];
  core.forEach((folded, at) => {
    const plain = brand.words[coreStart + at] as string;
    if (!isWeakWord(stats, folded, plain) && !weighty.some((w) => w.folded === folded)) {
      const marks = marksWith(stats, plain) ?? 0;
      const letters = brand.letterWords[coreStart + at] ?? '';
      const sounded = letters.length >= PHONETIC_MIN_LENGTH;
      weighty.push({
        folded,
        plain,
        at,
        marks,
        dominant: false,
        stem: distinctiveStem(stats, folded, plain),
        skeleton: sounded ? phoneticSkeleton(letters) : '',
      });
    }
  });
  const rarest = Math.min(...weighty.map((w) => w.marks));
  weighty.forEach((w, i) => {
    w.dominant = i === 0 || w.marks === rarest;
  });
  const coreCompact = core.join('');
  const runs = new Map<string, readonly string[]>();
  const n = brand.folded.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j <= n; j++) {
      if (i === 0 && j === n) continue;
      const run = brand.folded.slice(i, j);
      const key = run.join('');
      if (key.length >= CONTAINED_MIN_LENGTH && !allCommon(run) && !runs.has(key)) {
        runs.set(key, brand.words.slice(i, j));
      }
    }
  }
  // A one-word brand written as a common word and a distinctive part (POWERDOLPHIN, DOLPHINWORLD):
  // that part alone is a run of it too.
  if (brand.folded.length === 1) {
    const w = brand.folded[0] as string;
    for (const c of COMPOUND_HEADS) {
      const rest = w.startsWith(c) ? w.slice(c.length) : w.endsWith(c) ? w.slice(0, -c.length) : '';
      if (rest.length >= COMPOUND_PART_MIN && !allCommon([rest]) && !runs.has(rest)) {
        runs.set(rest, [rest]);
      }
    }
  }
  const splits = affixSplits(brand.compact);
  const shortDistinctive = shortDistinctiveParts(brand.folded);
  const codes =
    brand.letters.length >= PHONETIC_MIN_LENGTH ? wholeMarkPhoneticCodes(brand.letters) : [];
  // A one-word brand that the register finds common is fused only at a word boundary (compound).
  const measuredCommonWord =
    brand.folded.length === 1 && measuredCommon(stats, brand.words[0] ?? brand.compact);
  const fusedEligible =
    brand.compact.length >= FUSED_MIN_BRAND &&
    !allCommon(brand.folded) &&
    !measuredCommonWord &&
    /[A-Z]/.test(brand.compact);
  const anchorSize = !fusedEligible
    ? 0
    : brand.compact.length >= LONG_ANCHOR
      ? LONG_ANCHOR
      : SHORT_ANCHOR;
  const anchors = new Set<string>();
  if (anchorSize > 0) {
    anchors.add(PREFIX_ANCHOR + brand.compact.slice(0, anchorSize));
    anchors.add(SUFFIX_ANCHOR + brand.compact.slice(brand.compact.length - anchorSize));
  }
  const wordDrops = new Set<string>();
  if (brand.folded.length >= 2) {
    for (let i = 0; i < brand.folded.length; i++) {
      wordDrops.add(brand.folded.filter((_w, k) => k !== i).join(''));
    }
  }
  const first = core[0] ?? '';
  // The first word as the initials of the words after it (ML MARK LEES, IG INSPIRATION GROUP).
  const initials =
    core.length > first.length &&
    first.length >= 2 &&
    first.length <= 3 &&
    /^[A-Z]+$/.test(first) &&
    [...first].every((c, i) => core[i + 1]?.startsWith(c)) &&
    !allCommon([first]) &&
    !measuredCommon(stats, brand.words[coreStart] ?? first)
      ? first
      : null;
  const letterMark =
    core.length === 1 &&
    /^[A-Z]{2}$/.test(coreCompact) &&
    !allCommon(core) &&
    !measuredCommon(stats, brand.words[coreStart] ?? coreCompact);
  const parts: BrandParts[] = [];
  if (brand.folded.length === 1 && brand.letters === brand.compact) {
    const b = brand.compact;
    for (let k = PART_MIN; k + PART_MIN <= b.length; k++) {
      const first = b.slice(0, k);
      const second = b.slice(k);
      parts.push({
        first,
        second,
        saidFirst: saidAs(first),
        saidSecond: saidAs(second),
        swappedCodes: wholeMarkPhoneticCodes(second + first),
      });
    }
  }
  const prepared: PreparedWatch = {
    name: watch.name,
    brand,
    classes: new Set(watch.niceClasses),
    designations: [...new Set(watch.designations.map((d) => d.trim().toUpperCase()))],
    core,
    coreCompact,
    runs,
    shortDistinctive,
    splits,
    wordDrops,
    shapeKeys: watchShapeKeys(brand),
    stats,
    spoken: spokenDigits(brand),
    compoundBrand:
      brand.folded.length === 1 &&
      !fusedEligible &&
      /^[A-Z]{3,}$/.test(brand.compact) &&
      (brand.compact.length <= SHORT_PART_MAX || isWord(brand.compact))
        ? brand.compact
        : null,
    letterMark,
    initials,
    parts,
    weighty,
    fusedEligible,
    anchors,
    anchorSize,
    skeleton: phoneticSkeleton(brand.letters),
    codes,
    trigramSet: trigrams(brand.compact),
    search: {
      compact: '',
      tokens: [],
      nearWords: [],
      phonetic: [],
      useTrigram: false,
      trigramThreshold: 0,
    },
  };
  prepared.search = buildSearchKeys(prepared);
  return prepared;
}

function watchShapeKeys(brand: MarkAnalysis): string[] {
  const b = brand.compact;
  if (brand.folded.length !== 1 || b.length < SHAPE_MIN_LENGTH || b.length > SHAPE_MAX_LENGTH) {
    return [];
  }
  if (allCommon(brand.folded)) return [];
  return [b.length - 1, b.length, b.length + 1].flatMap((n) => shapeKeys(b, n));
}

function buildSearchKeys(p: PreparedWatch): SearchKeys {
  const b = p.brand.compact;
  const t = new Set<string>();
  if (b !== '') t.add(b);
  if (p.brand.lookalike !== b) t.add(p.brand.lookalike);
  if (p.brand.plainCompact !== b) t.add(p.brand.plainCompact);
  // affix, brand side: the record's compact text is a stem of the brand.
  for (const s of p.splits) {
    if (s.stem.length >= CONTAINED_MIN_LENGTH && !FOLDED_COMMON_WORDS.has(s.stem)) t.add(s.stem);
  }
  // contains_brand: one core word (every core word is in such a mark), and the core compact.
  if (p.coreCompact.length >= CONTAINS_MIN_LENGTH || p.core.length >= 2 || p.letterMark) {
    t.add(p.coreCompact);
    const distinctive = p.core.filter((w) => !FOLDED_COMMON_WORDS.has(w));
    const pool = distinctive.length > 0 ? distinctive : p.core;
    const longest = pool.reduce((a, w) => (w.length > a.length ? w : a), '');
    if (longest !== '') t.add(longest);
  }
  // contained_in_brand: the record's compact text is a run of brand words, or its initials.
  for (const key of p.runs.keys()) t.add(key);
  if (p.initials !== null) t.add(p.initials);
  // shared_word: the distinctive words of a brand of two or more core words, their plurals, and
  // the anchors of those long enough to be reported fused.
  if (p.core.length >= 2) {
    for (const w of p.weighty) {
      t.add(w.folded);
      t.add(`${w.folded}S`);
      for (const plural of pluralsOf(w.folded)) t.add(plural);
      const n = w.folded.length;
      if (n >= SHARED_FUSED_MIN) {
        const size = n >= LONG_ANCHOR ? LONG_ANCHOR : SHORT_ANCHOR;
        t.add(PREFIX_ANCHOR + w.folded.slice(0, size));
        t.add(SUFFIX_ANCHOR + w.folded.slice(n - size));
      }
      // Another inflection of the word (GNARLED for GNARLY): its stem as a word, or the anchor of
      // its beginning that every longer word of the stem stores.
      if (w.stem !== w.folded) {
        t.add(w.stem);
        const size = w.stem.length >= LONG_ANCHOR ? LONG_ANCHOR : SHORT_ANCHOR;
        t.add(PREFIX_ANCHOR + w.stem.slice(0, size));
      }
      // The word respelt (BUGS for BUGZZZ), as a word of a mark of several words.
      if (w.skeleton !== '') t.add(SKELETON_KEY + w.skeleton);
    }
  }
  for (const k of p.shapeKeys) t.add(k);
  // near_inside by sound: a word or two of the mark with the brand's spelling skeleton.
  if (p.codes.length > 0 && p.brand.letters === b && p.shortDistinctive.length === 0) {
    t.add(SKELETON_KEY + p.skeleton);
  }
  // fused, and near forms that keep the brand's first or last characters: the anchors.
  for (const a of p.anchors) t.add(a);
  // edit_distance (one edit) and near_inside: the neighbourhood of runs that are not Latin
  // capitals only; the others are found as tokens among nearWords (see oneEditRecordKeys).
  for (const k of oneEditSearchKeys(b)) t.add(k);
  const nearWords = nearSearchWords(p);
  // The plural of a sound-alike ends its code with S (SK / SKS): sent too.
  const phonetic = p.brand.letters.endsWith('S')
    ? [...p.codes]
    : [...new Set([...p.codes, ...p.codes.map((c) => `${c}S`)])];
  // digits_as_words: the brand read aloud, the texts one edit from it, and its sound.
  if (p.spoken !== null) {
    t.add(p.spoken);
    nearWords.push(...oneEditVariants(p.spoken));
    phonetic.push(...wholeMarkPhoneticCodes(p.spoken));
  }
  // compound: the brand as the head or the tail of a compound at a word boundary.
  if (p.compoundBrand !== null) {
    t.add(HEAD_KEY + p.compoundBrand);
    t.add(TAIL_KEY + p.compoundBrand);
  }
  // parts_swapped: the brand's parts in the other order, by sound.
  for (const part of p.parts) phonetic.push(...part.swappedCodes);
  const useTrigram = b.length >= TWO_EDITS_MIN_LENGTH;
  return {
    compact: b,
    tokens: [...t],
    nearWords: [...new Set(nearWords)],
    phonetic: [...new Set(phonetic)],
    useTrigram,
    trigramThreshold: useTrigram ? trigramThreshold(b.length) : 0,
  };
}

/**
 * The texts one edit away from the brand that the record's tokens must be compared with: every
 * one-edit variant, less those that the anchors sent already retrieve (a run longer than the anchor
 * stores its first and last characters, so a variant that keeps the brand's stores an anchor the
 * watch sends). A brand of 10 characters sends ~330 instead of ~550.
 */
function nearSearchWords(p: PreparedWatch): string[] {
  const b = p.brand.compact;
  if (b.length < NEAR_MIN_LENGTH || b.length > NEAR_MAX_LENGTH) return [];
  const size = p.anchorSize;
  const variants = [...oneEditVariants(b), ...pluralsOf(b)];
  if (size === 0) return variants;
  // The anchors sent are the brand's own first and last `size` characters: comparing the variant
  // with them directly spares two strings and two look-ups per variant (~550 of them).
  const head = b.slice(0, size);
  const tail = b.slice(b.length - size);
  return variants.filter((v) => v.length <= size || !(v.startsWith(head) || v.endsWith(tail)));
}

/** The plurals of a compact text that are more than one edit away: -ES, and -Y to -IES. */
function pluralsOf(compact: string): string[] {
  const out = [`${compact}ES`];
  if (compact.endsWith('Y')) out.push(`${compact.slice(0, -1)}IES`);
  return out;
}

function isPluralOf(form: string, brand: string): boolean {
  return form === `${brand}S` || pluralsOf(brand).includes(form);
}

export interface DistinctivePart {
  text: string;
  /** A word of its own in the brand (must be a word of the mark), or part of a compound word. */
  wholeWord: boolean;
}

/** Common words of 4+ letters, longest first, for splitting compounds such as HTCOLLECTION. */
const COMPOUND_HEADS: readonly string[] = [...FOLDED_COMMON_WORDS]
  .filter((w) => w.length >= 4)
  .sort((a, b) => b.length - a.length);

/**
 * See PreparedWatch.shortDistinctive. A compound is split only as a distinctive head of 2 or 3
 * characters before a common word of 4 or more (HT+COLLECTION, EXA+LIGHT), never at the end,
 * where the remainder is usually an inflection (POWER+ED, SMART+EST).
 */
function shortDistinctiveParts(words: readonly string[]): DistinctivePart[] {
  const parts: DistinctivePart[] = [];
  let common = false;
  for (const w of words) {
    if (allCommon([w])) {
      common = true;
      continue;
    }
    const tail = COMPOUND_HEADS.find((c) => {
      const rest = w.length - c.length;
      return rest >= 2 && rest < ONE_EDIT_MIN_LENGTH && w.endsWith(c);
    });
    const head = tail === undefined ? '' : w.slice(0, w.length - tail.length);
    if (tail === undefined || allCommon([head])) parts.push({ text: w, wholeWord: true });
    else {
      common = true;
      parts.push({ text: head, wholeWord: false });
    }
  }
  const length = parts.reduce((n, p) => n + p.text.length, 0);
  return common && parts.length > 0 && length < ONE_EDIT_MIN_LENGTH ? parts : [];
}

/** The text itself and every swap of two neighbouring characters (IX → XI). */
function withSwaps(text: string): string[] {
  const out = [text];
  for (let i = 0; i + 1 < text.length; i++) {
    out.push(text.slice(0, i) + text.charAt(i + 1) + text.charAt(i) + text.slice(i + 2));
  }
  return out;
}

/** Watch-side keys for the SQL candidate query. */
export function searchKeys(brandName: string): SearchKeys {
  return prepareWatch({ name: brandName, niceClasses: [], designations: [] }).search;
}

const SCORES: Readonly<Record<TextReasonKind, number>> = {
  exact: 1,
  normalized: 0.98,
  confusable: 0.95,
  affix: 0.85,
  edit_distance: 0.85,
  phonetic: 0.8,
  contains_brand: 0.7,
  reordered: 0.65,
  contained_in_brand: 0.6,
  near_inside: 0.55,
  fused: 0.5,
  shared_word: 0.45,
  same_shape: 0.4,
  digits_as_words: 0.75,
  parts_swapped: 0.6,
  compound: 0.45,
};

function quote(words: readonly string[]): string {
  return `"${words.join(' ')}"`;
}

/** The text reasons for a brand and a mark: identity, or any of the similarity rules. */
export function compareText(
  p: PreparedWatch,
  m: MarkAnalysis,
  disclaimed: readonly string[] = [],
): Reason[] {
  const b = p.brand;
  if (m.compact === '' || b.compact === '') return [];
  if (m.text === b.text) return [{ kind: 'exact', detail: 'Identical text.' }];
  if (m.plainCompact === b.plainCompact) {
    return [
      {
        kind: 'normalized',
        detail: `Same text once case, spacing, punctuation and accents are ignored: ${b.plainCompact}.`,
        normalized: b.plainCompact,
      },
    ];
  }
  if (m.lookalike === b.lookalike) {
    return [
      {
        kind: 'confusable',
        detail: `Same text once look-alike characters are folded (0/O, 1/I/l, 5/S, $/S, 3/E, 4/A…): ${b.lookalike}.`,
        folded: b.lookalike,
      },
    ];
  }
  const out: Reason[] = [];
  const affix = affixReason(p, m);
  if (affix) out.push(affix);
  const edit = editReason(p, m);
  if (edit) out.push(edit);
  else {
    const shape = sameShapeReason(p, m);
    if (shape) out.push(shape);
  }
  const phonetic = phoneticReason(p, m);
  if (phonetic) out.push(phonetic);
  if (!edit && !phonetic) {
    const spoken = digitsReason(p, m);
    if (spoken) out.push(spoken);
  }
  const swapped = partsSwappedReason(p, m);
  if (swapped) out.push(swapped);
  const contains = containsReason(p, m);
  if (contains) out.push(contains);
  const contained = containedReason(p, m);
  if (contained) out.push(contained);
  const reordered = reorderedReason(p, m);
  if (reordered) out.push(reordered);
  // The brand's whole core (contains, reordered) or the whole mark inside it (contained) already
  // say more than one shared word.
  if (!contains && !reordered && !contained) {
    const shared = sharedWordReason(p, m, disclaimed);
    if (shared) out.push(shared);
  }
  const near = nearInsideReason(p, m);
  if (near) out.push(near);
  const fused = fusedReason(p, m);
  if (fused) out.push(fused);
  const compound = compoundReason(p, m);
  if (compound) out.push(compound);
  return out;
}

function affixReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const b = p.brand.compact;
  const c = m.compact;
  if (c.length > b.length && b.length >= MIN_BRAND_FOR_AFFIX) {
    for (const prefix of ['', ...FOLDED_PREFIXES]) {
      if (!c.startsWith(prefix)) continue;
      const rest = c.slice(prefix.length);
      let suffix: string | null = null;
      if (rest.startsWith(b)) {
        const s = rest.slice(b.length);
        if (s === '' || SUFFIX_SET.has(s)) suffix = s;
      }
      if (suffix === null && b.endsWith('Y') && rest === `${b.slice(0, -1)}IES`) suffix = 'IES';
      if (suffix === null || (prefix === '' && suffix === '')) continue;
      if (b.length < 4 && !shortBrandAffixOk(m, prefix, suffix)) continue;
      const pre = prefix === '' ? '' : affixName(prefix);
      const suf = suffix === '' ? '' : affixName(suffix);
      return {
        kind: 'affix',
        detail: `The mark is the brand with ${describeAffix(pre, suf)}.`,
        side: 'mark',
        prefix: pre,
        suffix: suf,
      };
    }
  }
  if (b.length > c.length && c.length >= CONTAINED_MIN_LENGTH && !allCommon(m.folded)) {
    for (const s of p.splits) {
      if (s.stem !== c) continue;
      const pre = s.prefix === '' ? '' : affixName(s.prefix);
      const suf = s.suffix === '' ? '' : affixName(s.suffix);
      return {
        kind: 'affix',
        detail: `The brand is the mark with ${describeAffix(pre, suf)}.`,
        side: 'brand',
        prefix: pre,
        suffix: suf,
      };
    }
  }
  return null;
}

const MIN_BRAND_FOR_AFFIX = 3;

/** A three-letter brand only takes a plural, or affixes written as separate words. */
function shortBrandAffixOk(m: MarkAnalysis, prefix: string, suffix: string): boolean {
  if (prefix === '' && PLURAL_SET.has(suffix)) return true;
  const first = m.folded[0];
  const last = m.folded[m.folded.length - 1];
  return (prefix === '' || first === prefix) && (suffix === '' || last === suffix);
}

function describeAffix(prefix: string, suffix: string): string {
  const parts: string[] = [];
  if (prefix !== '') parts.push(`prefix ${prefix}`);
  if (suffix !== '') parts.push(`suffix ${suffix}`);
  return parts.join(' and ');
}

function editReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const b = p.brand.compact;
  const c = m.compact;
  const len = Math.min(b.length, c.length);
  const max = editsAllowed(len);
  if (max === 0 || Math.abs(b.length - c.length) > max) return null;
  const d = damerauLevenshtein(b, c, max);
  if (d === 0 || d > max) return null;
  if (
    len >= TWO_EDITS_MIN_LENGTH &&
    trigramSimilarity(p.trigramSet, trigrams(c)) < p.search.trigramThreshold
  ) {
    return null;
  }
  if (!keepsShortDistinctive(p, c, m.folded)) return null;
  return {
    kind: 'edit_distance',
    detail: `${d} character edit${d > 1 ? 's' : ''} apart (${p.brand.plainCompact} / ${m.plainCompact}); up to ${max} allowed at ${len} characters.`,
    distance: d,
    maxDistance: max,
    texts: [b, c],
  };
}

/**
 * Common-word guard of the edit rules: "INTERNATIONAL X" / "INTERNATIONAL Y" share only a common
 * word. When the brand's distinctive part is too short to take an edit itself, it must be in the
 * compared text (`compact`, made of `words`) with its own letters (unchanged or two neighbours
 * swapped), as one of the words when it is a word of the brand.
 */
function keepsShortDistinctive(
  p: PreparedWatch,
  compact: string,
  words: readonly string[],
): boolean {
  for (const part of p.shortDistinctive) {
    const forms = withSwaps(part.text);
    const found = part.wholeWord
      ? forms.some((f) => words.includes(f))
      : forms.some((f) => compact.includes(f));
    if (!found) return false;
  }
  return true;
}

/** Edits tolerated at this compact length: none below 4, one from 4, two from 8. */
export function editsAllowed(length: number): number {
  if (length < ONE_EDIT_MIN_LENGTH) return 0;
  return length >= TWO_EDITS_MIN_LENGTH ? 2 : 1;
}

/**
 * Edits tolerated between spelling skeletons: none below 8 characters, one from 8, two from 12.
 * Respellings of one sound have equal skeletons; the tolerance admits a vowel shift in long marks
 * but not in shorter ones (MYCAN / MIKON, ST TROPEZ / STRIPEZ).
 */
export function skeletonEditsAllowed(length: number): number {
  if (length < TWO_EDITS_MIN_LENGTH) return 0;
  return length >= 12 ? 2 : 1;
}

function phoneticReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  if (p.codes.length === 0 || m.letters.length < PHONETIC_MIN_LENGTH) return null;
  const same = soundsAlike(p, m.letters);
  if (same !== null) return same;
  // The plural of a sound-alike (SEYCOS for SEIKO): the mark without its final S sounds the same.
  const singular = m.letters.slice(0, -1);
  if (!m.letters.endsWith('S') || p.brand.letters.endsWith('S')) return null;
  // The brand's own plural is the affix rule's.
  if (singular.length < PHONETIC_MIN_LENGTH || singular === p.brand.letters) return null;
  const plural = soundsAlike(p, singular);
  if (plural === null || plural.kind !== 'phonetic') return null;
  return {
    ...plural,
    detail: `Sounds the same in the plural: ${plural.detail}`,
    plural: true,
  };
}

function soundsAlike(p: PreparedWatch, letters: string): Reason | null {
  const sk = phoneticSkeleton(letters);
  // A brand whose distinctive part is short (see editReason) only matches an equal skeleton.
  const allowed =
    p.shortDistinctive.length > 0
      ? 0
      : skeletonEditsAllowed(Math.min(sk.length, p.skeleton.length));
  if (Math.abs(sk.length - p.skeleton.length) > allowed) return null;
  if (damerauLevenshtein(p.skeleton, sk, allowed) > allowed) return null;
  const code = wholeMarkPhoneticCodes(letters).find((c) => p.codes.includes(c));
  if (code === undefined) return null;
  return {
    kind: 'phonetic',
    detail: `Sounds the same: Double Metaphone ${code}, spelling skeletons ${p.skeleton} / ${sk}.`,
    code,
    skeletons: [p.skeleton, sk],
    plural: false,
  };
}

function containsReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const core = p.core;
  const words = m.folded;
  const n = words.length;
  if (n < 2 || !(p.coreCompact.length >= CONTAINS_MIN_LENGTH || core.length >= 2 || p.letterMark)) {
    return null;
  }
  // A letter mark (RM) is a word of a short mark only (MB RM): in a phrase, two letters are
  // mostly an abbreviation of something else.
  if (p.letterMark) {
    const at = words.indexOf(p.coreCompact);
    return n <= LETTER_MARK_MAX_WORDS && at >= 0 ? containsAt(p, m, at, at + 1) : null;
  }
  // The core's words in sequence, inside a longer mark.
  if (core.length < n) {
    for (let i = 0; i + core.length <= n; i++) {
      let ok = true;
      for (let k = 0; k < core.length; k++) {
        if (words[i + k] !== core[k]) {
          ok = false;
          break;
        }
      }
      if (ok) return containsAt(p, m, i, i + core.length);
    }
  }
  // The core written as one to three adjacent words of the mark (COCA COLA / COCACOLA ZERO).
  for (let size = 1; size <= 3 && size < n; size++) {
    for (let i = 0; i + size <= n; i++) {
      let joined = '';
      for (let k = i; k < i + size; k++) joined += words[k];
      if (joined === p.coreCompact) return containsAt(p, m, i, i + size);
    }
  }
  return null;
}

function containsAt(p: PreparedWatch, m: MarkAnalysis, from: number, to: number): Reason {
  const found = m.words.slice(from, to);
  return {
    kind: 'contains_brand',
    detail: `The mark contains the brand ${quote(p.core)} as whole word(s): ${quote(found)}.`,
    words: found,
    at: from,
    of: m.words.length,
  };
}

/**
 * Endings that make a longer word of a brand rather than fuse another word to it (HYDRA /
 * HYDRATION, PRIMA / PRIMARY, NOVA / NOVATION): a rest of the word that is one of these is not
 * reported as a fused form. Plurals and the affix list are the affix rule's.
 */
const WORD_ENDINGS: ReadonlySet<string> = new Set(
  `S ES ED D ING INGS ER ERS ION IONS TION TIONS ATION ATIONS SION ANT ANTS ENT ENTS ANCE ENCE ARY
   ARIES ORY ITY ITIES AL ALS IC ICS ICAL ISM IST ISTS IVE IVES OUS NESS MENT MENTS ABLE IBLE LY Y
   IA IAN IANS IO IOS O OS A AS E EN ENS I IS IN INE INES INO INA ITA ITO ETTE ETTA ELLA ELLO ISH
   ISTA ISTE ISMO ISME ITE ITES ATE ATES ATED ATOR ATORS OR ORS URE URES AGE AGES EUR EUSE EURS IER
   IERE EN UNG UNGEN HEIT KEIT LICH ISCH ERIA ERIE ERIES EE EES EY EYS IE IES RY RIES IUM IUMS`.split(
    /\s+/,
  ),
);

/**
 * `fused`: the brand written together with another word into one word of the mark, before or
 * after it (ZEROFLUSHNET, NETZEROFLUSH for ZEROFLUSH). For brands of 5+ characters that are not
 * only common words (prepareWatch: fusedEligible); the other word has 2+ characters and, after the
 * brand, is not a mere ending (WORD_ENDINGS). Retrieved by the anchors: the word starts (or ends)
 * with the brand's first (last) 5 or 8 characters.
 */
function fusedReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  if (!p.fusedEligible) return null;
  const b = p.brand.compact;
  for (let i = 0; i < m.folded.length; i++) {
    const w = m.folded[i] as string;
    if (w.length < b.length + FUSED_MIN_REST) continue;
    let side: 'start' | 'end' | null = null;
    let rest = '';
    if (w.startsWith(b) && !WORD_ENDINGS.has(w.slice(b.length))) {
      side = 'start';
      rest = w.slice(b.length);
    } else if (w.endsWith(b)) {
      side = 'end';
      rest = w.slice(0, w.length - b.length);
    }
    if (side === null) continue;
    const word = m.words[i] as string;
    return {
      kind: 'fused',
      detail: `The mark fuses the brand with ${rest} into one word: ${word}.`,
      word,
      rest,
      side,
      at: i,
      of: m.words.length,
    };
  }
  return null;
}

/**
 * `compound`: a brand that is a short or common word (ORBIT, SUN, ZARA) joined with an English word
 * into a compound that is not itself a word (ORBITFLOW, SUNHARBOR, ZARAHOME): the compound splits
 * at a word boundary with the brand on one side (compoundSplits). A compound that is a word
 * (SUNSHINE, GREENHOUSE) is another word, not the brand. Retrieved by the `{`/`}` keys.
 */
function compoundReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const b = p.compoundBrand;
  if (b === null) return null;
  for (let i = 0; i < m.folded.length; i++) {
    const w = m.folded[i] as string;
    if (w.length < b.length + BOUNDARY_PART_MIN || !(w.startsWith(b) || w.endsWith(b))) continue;
    const split = compoundSplits(w).find((s) => s.part === b);
    if (split === undefined) continue;
    const word = m.words[i] as string;
    return {
      kind: 'compound',
      detail: `The mark joins the brand with the word ${split.word} into one: ${word}.`,
      word,
      rest: split.word,
      side: split.side,
      at: i,
      of: m.words.length,
    };
  }
  return null;
}

/**
 * `near_inside`: a near form of the brand (one character edit, or the same sound) as a word or two
 * adjacent words of a longer mark (STARBUCKS COFFEE for STARBUCK, NIKEE RUNNING for NIKE). The
 * brand's own words in sequence are `contains_brand`. The common-word guard of the edit rule holds
 * here too. Retrieved by nearWords, the anchors, the `~` neighbourhoods and the skeleton keys.
 */
function nearInsideReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const b = p.brand.compact;
  const n = m.folded.length;
  if (n < 2 || b.length < NEAR_MIN_LENGTH || b.length > NEAR_MAX_LENGTH) return null;
  // Digits the letters leave out (OCEAN 47) are part of what the brand sounds like.
  const sounded = p.codes.length > 0 && n <= MAX_SOUNDED_WORDS && p.brand.letters === b;
  // A near form spans two words only for a brand of two or more words (DE SANT is not DESAIT).
  const maxSize = p.brand.folded.length >= 2 ? 2 : 1;
  for (let i = 0; i < n; i++) {
    for (let size = 1; size <= maxSize && i + size <= n; size++) {
      if (size === n) continue;
      const form = size === 1 ? (m.folded[i] as string) : `${m.folded[i]}${m.folded[i + 1]}`;
      // A common word is not a near form of a brand (KSHOP / SHOP, SERVIS / SERVICE).
      if (form === b || p.wordDrops.has(form) || FOLDED_COMMON_WORDS.has(form)) continue;
      let how: 'edit' | 'plural' | 'sound' | null = null;
      if (isPluralOf(form, b)) how = 'plural';
      else if (b.length < NEAR_EDIT_MIN_LENGTH) {
        // Below 5 characters one edit inside a longer mark is mostly another word (VINN / INN,
        // NOMO / NOMI): only the brand with one more letter at its end (NIKEE) is reported.
        if (form.length === b.length + 1 && form.startsWith(b)) how = 'edit';
      } else if (
        Math.abs(form.length - b.length) <= 1 &&
        damerauLevenshtein(b, form, 1) === 1 &&
        keepsShortDistinctive(p, form, m.folded.slice(i, i + size))
      ) {
        how = 'edit';
      } else if (sounded && p.shortDistinctive.length === 0) {
        const letters =
          size === 1 ? (m.letterWords[i] as string) : `${m.letterWords[i]}${m.letterWords[i + 1]}`;
        if (
          letters.length >= PHONETIC_MIN_LENGTH &&
          phoneticSkeleton(letters) === p.skeleton &&
          wholeMarkPhoneticCodes(letters).some((c) => p.codes.includes(c))
        ) {
          how = 'sound';
        }
      }
      if (how === null) continue;
      const words = m.words.slice(i, i + size);
      return {
        kind: 'near_inside',
        detail:
          how === 'edit'
            ? `The mark holds a form of the brand one character edit away: ${quote(words)}.`
            : how === 'plural'
              ? `The mark holds the brand in the plural: ${quote(words)}.`
              : `The mark holds a form of the brand that sounds the same: ${quote(words)}.`,
        words,
        form,
        how,
        at: i,
        of: n,
      };
    }
  }
  return null;
}

/**
 * `reordered`: every word of a multi-word brand's core is a word of the mark, but not as the
 * brand's sequence (that is `contains_brand`): in another order, or with other words between them
 * (NORTH BLUE FACE for THE NORTH FACE). Not for a core of common words only. Retrieved by the
 * core's longest distinctive word, which every such mark holds.
 */
function reorderedReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const core = p.core;
  if (core.length < 2 || allCommon(core) || m.folded.length < core.length) return null;
  const used = new Set<number>();
  const positions: number[] = [];
  for (const w of core) {
    const at = m.folded.findIndex((x, k) => x === w && !used.has(k));
    if (at < 0) return null;
    used.add(at);
    positions.push(at);
  }
  const inOrder = positions.every((x, k) => k === 0 || x > (positions[k - 1] as number));
  const contiguous =
    inOrder && (positions.at(-1) as number) - (positions[0] as number) === core.length - 1;
  if (contiguous) return null;
  return {
    kind: 'reordered',
    detail: inOrder
      ? `The mark has the brand's words ${quote(core)} in order, with other words between them.`
      : `The mark has all the brand's words ${quote(core)}, in another order.`,
    words: [...m.words],
    inOrder,
  };
}

/**
 * `same_shape`: two one-word names of 6 to 9 letters, at most two edits apart, that begin alike
 * (3 letters, or 2 and the same last 3) and have as many vowel groups: the pattern of confusable
 * drug names (OMEPRAL / OMERAN, VAGISIL / VAGISAN, EVONISE / EVARISE). Below 8 letters the edit rule
 * allows one edit only; these pairs are two apart. Not for common words. Retrieved by the shape
 * keys (normalize.ts, shapeKeys).
 */
function sameShapeReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const b = p.brand.compact;
  const c = m.compact;
  if (p.shapeKeys.length === 0 || m.folded.length !== 1 || !/^[A-Z]+$/.test(c)) return null;
  if (Math.abs(b.length - c.length) > 1 || FOLDED_COMMON_WORDS.has(c)) return null;
  const syllables = vowelGroups(b);
  if (vowelGroups(c) !== syllables) return null;
  let pre = 0;
  while (pre < Math.min(b.length, c.length) && b[pre] === c[pre]) pre++;
  let suf = 0;
  while (suf < Math.min(b.length, c.length) && b[b.length - 1 - suf] === c[c.length - 1 - suf]) {
    suf++;
  }
  if (!(pre >= 3 || (pre >= 2 && suf >= 3))) return null;
  const distance = damerauLevenshtein(b, c, 2);
  if (distance === 0 || distance > 2) return null;
  const prefix = b.slice(0, pre);
  const suffix = suf > 0 ? b.slice(b.length - suf) : '';
  return {
    kind: 'same_shape',
    detail: `Same beginning ${prefix}-${suf >= 3 ? `, same ending -${suffix}` : ''} and the same rhythm (${syllables} vowel groups), ${distance} letters apart: ${b} / ${c}.`,
    texts: [b, c],
    prefix,
    suffix,
    distance,
    syllables,
  };
}

/**
 * `digits_as_words`: read aloud, a digit is a word (TRUE1 is TRUE ONE), so TRUONE, TRUE ONE and
 * TRU1 are near forms of TRUE1 that the letters alone hide. The brand and the mark read aloud
 * (spokenDigits; a side without a digit is read as written) are the same, one edit apart, or of
 * one spelling skeleton and sound code. Numbers of two digits or more are quantities, not words.
 * Retrieved by the brand's spoken text, its one-edit texts and its sound codes, and by the spoken
 * text, anchors and sound codes that a record with a digit stores (matchKeys).
 */
function digitsReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  const markSpoken = spokenDigits(m);
  if (p.spoken === null && markSpoken === null) return null;
  const a = p.spoken ?? p.brand.compact;
  const b = markSpoken ?? m.compact;
  if (a.length < PHONETIC_MIN_LENGTH || b.length < PHONETIC_MIN_LENGTH) return null;
  let how: 'same' | 'edit' | 'sound' | null = null;
  if (a === b) how = 'same';
  else if (Math.abs(a.length - b.length) <= 1 && damerauLevenshtein(a, b, 1) === 1) how = 'edit';
  else if (
    /^[A-Z]+$/.test(a) &&
    /^[A-Z]+$/.test(b) &&
    phoneticSkeleton(a) === phoneticSkeleton(b) &&
    wholeMarkPhoneticCodes(a).some((c) => wholeMarkPhoneticCodes(b).includes(c))
  ) {
    how = 'sound';
  }
  if (how === null) return null;
  const said = how === 'same' ? 'the same' : how === 'edit' ? 'one letter apart' : 'alike in sound';
  return {
    kind: 'digits_as_words',
    detail: `Read aloud with digits as words, ${a} and ${b} are ${said}.`,
    texts: [a, b],
    how,
  };
}

/** Shortest part of a one-word brand for `parts_swapped`. */
export const PART_MIN = 3;

/**
 * How a part is said: two parts are written alike or respelt with one sound when they have the
 * same spelling skeleton once a silent GH before T or at the end, and a final E, are dropped
 * (TITE / TIGHT, LITE / LIGHT).
 */
function saidAs(part: string): string {
  return phoneticSkeleton(part.replace(/GH(?=T|$)/g, '').replace(/E$/, ''));
}

/** A swapped mark is about as long as the brand (TIGHTVAC / VACTITE): more apart is no swap. */
const SWAP_LENGTH_SLACK = 3;

/**
 * `parts_swapped`: the mark is a one-word brand's two parts in the other order, each written or
 * sounding alike (VAC-TITE for TIGHTVAC). The mark is one word or two, letters only. Retrieved by
 * the sound codes of the swapped brand, which the whole mark must share.
 */
function partsSwappedReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  if (p.parts.length === 0 || m.folded.length > 2 || m.letters !== m.compact) return null;
  const letters = m.letters;
  if (letters.length < 2 * PART_MIN - 1 || letters === p.brand.compact) return null;
  if (Math.abs(letters.length - p.brand.compact.length) > SWAP_LENGTH_SLACK) return null;
  const splits: [string, string][] =
    m.letterWords.length === 2
      ? [[m.letterWords[0] as string, m.letterWords[1] as string]]
      : Array.from(
          { length: Math.max(0, letters.length - 2 * PART_MIN + 1) },
          (_x, i): [string, string] => [
            letters.slice(0, i + PART_MIN),
            letters.slice(i + PART_MIN),
          ],
        );
  let codes: string[] | null = null;
  for (const [x, y] of splits) {
    const saidX = saidAs(x);
    const saidY = saidAs(y);
    for (const part of p.parts) {
      if (saidX !== part.saidSecond || saidY !== part.saidFirst) continue;
      codes ??= wholeMarkPhoneticCodes(letters);
      if (!codes.some((c) => part.swappedCodes.includes(c))) continue;
      return {
        kind: 'parts_swapped',
        detail: `The mark is the brand's two parts in the other order: ${x} ${y} for ${part.first} ${part.second}.`,
        parts: [part.first, part.second],
        markParts: [x, y],
      };
    }
  }
  return null;
}

/** Shortest distinctive word reported fused into a word of the mark (PHOTOGRO for PHOTO). */
export const SHARED_FUSED_MIN = SHORT_ANCHOR;

type SharedForm = 'word' | 'plural' | 'fused' | 'stem' | 'sound';

/** Where and how the mark holds a distinctive word of the brand: as a word, plural, or fused. */
function findShared(
  w: WeightyWord,
  m: MarkAnalysis,
  core: readonly string[],
): { markAt: number; form: SharedForm; as: string } | null {
  const at = m.folded.indexOf(w.folded);
  if (at >= 0) return { markAt: at, form: 'word', as: m.words[at] as string };
  for (let j = 0; j < m.folded.length; j++) {
    if (isPluralOf(m.folded[j] as string, w.folded)) {
      return { markAt: j, form: 'plural', as: m.words[j] as string };
    }
  }
  if (w.folded.length >= SHARED_FUSED_MIN) {
    for (let j = 0; j < m.folded.length; j++) {
      const x = m.folded[j] as string;
      if (x.length < w.folded.length + FUSED_MIN_REST) continue;
      if (
        (x.startsWith(w.folded) && !WORD_ENDINGS.has(x.slice(w.folded.length))) ||
        x.endsWith(w.folded)
      ) {
        return { markAt: j, form: 'fused', as: m.words[j] as string };
      }
    }
  }
  // The brand's word in another of its forms, when the brand writes it inflected (GNARLY: GNARL,
  // GNARLED). A brand word without an ending keeps its own: HARBORING is not HARBOR's.
  if (w.stem.length >= STEM_MIN && w.stem !== w.folded) {
    for (let j = 0; j < m.folded.length; j++) {
      if (stemOf(m.folded[j] as string) === w.stem) {
        return { markAt: j, form: 'stem', as: m.words[j] as string };
      }
    }
  }
  if (
    w.skeleton !== '' &&
    m.folded.length >= 2 &&
    m.folded.length <= MAX_SOUNDED_WORDS &&
    echoesAnotherWord(core, w.folded, m.folded, -1)
  ) {
    for (let j = 0; j < m.letterWords.length; j++) {
      const x = m.letterWords[j] as string;
      // One spelling skeleton: respellings of one sound (BUGS, BUGZZZ), not a near sound. A
      // respelt word alone is mostly another respelling of a common word (VITA for VITAE, CASA for
      // KASA): the mark must echo another word of the brand too (SNUG BUGS for SNUGGLE BUGZZZ),
      // and a word of the common list is no respelling of a distinctive one.
      if (
        x.length >= PHONETIC_MIN_LENGTH &&
        !FOLDED_COMMON_WORDS.has(m.folded[j] as string) &&
        phoneticSkeleton(x) === w.skeleton &&
        echoesAnotherWord(core, w.folded, m.folded, j)
      ) {
        return { markAt: j, form: 'sound', as: m.words[j] as string };
      }
    }
  }
  return null;
}

/**
 * The word's stem for the `stem` form, or '' when that stem is a weak word (MAISON of MAISONS,
 * REWARD of REWARDING): another form of a common word is no distinctive element. The data layer
 * measures the stems with the words (statsWordsOf).
 */
function distinctiveStem(stats: WordStats, folded: string, plain: string): string {
  const stem = stemOf(folded);
  if (stem === folded) return stem;
  return isWeakWord(stats, stem, stemOf(plain)) ? '' : stem;
}

/** The words whose register counts prepareWatch uses: the brand's words and their stems. */
export function statsWordsOf(brandName: string): string[] {
  const words = analyzeMark(brandName).words;
  return [...new Set([...words, ...words.map(stemOf)])];
}

/** Letters with which a mark's word echoes a brand word: it begins with them (SNUG, SNUGGLE). */
const ECHO_PREFIX = 3;

/** Does a word of the mark other than its `j`th begin as a brand word other than `word` does? */
function echoesAnotherWord(
  core: readonly string[],
  word: string,
  markWords: readonly string[],
  j: number,
): boolean {
  return markWords.some(
    (x, k) =>
      k !== j &&
      x.length >= ECHO_PREFIX &&
      core.some(
        (c) => c !== word && c.length >= ECHO_PREFIX && c.startsWith(x.slice(0, ECHO_PREFIX)),
      ),
  );
}

/** Shortest stem for the `stem` form of `shared_word` (GNARL of GNARLY / GNARLED). */
export const STEM_MIN = 5;
/** Inflections stripped by stemOf, longest first. */
const INFLECTIONS: readonly string[] = [
  'INGS',
  'ING',
  'IED',
  'IES',
  'ED',
  'ES',
  'LY',
  'Y',
  'S',
  'E',
];

/**
 * A word without its inflection, when STEM_MIN letters remain (GNARLY, GNARLED → GNARL; BAKERY
 * stays): a light stemmer for English endings, enough to see one word in two of its forms.
 */
export function stemOf(word: string): string {
  for (const e of INFLECTIONS) {
    if (word.endsWith(e) && word.length - e.length >= STEM_MIN) return word.slice(0, -e.length);
  }
  return word;
}

/**
 * `shared_word`: the mark holds a distinctive word of a brand of two or more core words, as a word,
 * in the plural or fused with another (KESTREL ROBOTICS, THE KESTREL GROUP, JOHN KESTREL for
 * KESTREL ANALYTICS; PHOTOGRO for PHOTO MAX). Examiners compare marks by their dominant and
 * distinctive element: the brand's first distinctive word or its rarest in the register (any of
 * them when unmeasured); another distinctive word counts when the mark also shares a second word
 * of the brand (BLACK MEN ROCK for BLACK GIRLS ROCK). A weak word (isWeakWord) is never enough.
 * Retrieved by the distinctive words, their plurals and their anchors, which records store.
 */
function sharedWordReason(
  p: PreparedWatch,
  m: MarkAnalysis,
  disclaimed: readonly string[],
): Reason | null {
  if (p.core.length < 2 || p.weighty.length === 0 || m.folded.length === 0) return null;
  const sharedWords = p.core.filter((w) => w.length >= MIN_WEIGHTY_LENGTH && m.folded.includes(w));
  const addsUp = new Set(sharedWords).size >= 2;
  const found = p.weighty.flatMap((w) => {
    if (!(w.dominant || addsUp)) return [];
    const f = findShared(w, m, p.core);
    return f === null ? [] : [{ w, ...f }];
  });
  const first = found[0];
  if (first === undefined) return null;
  const words = found.map((f) => f.w.plain);
  const where =
    first.w.at === 0 && first.markAt === 0
      ? 'the first word of both marks'
      : first.w.at === 0
        ? 'the first word of the brand'
        : first.markAt === 0
          ? 'the first word of the mark'
          : 'a word of both marks';
  const how = {
    word: '',
    plural: ', in the plural',
    fused: ', fused into a word',
    stem: `, in another form (${first.as})`,
    sound: `, respelt with the same sound (${first.as})`,
  }[first.form];
  return {
    kind: 'shared_word',
    detail: `The mark shares the brand's distinctive word${words.length > 1 ? 's' : ''} ${quote(words)}${how}, ${where}.`,
    words,
    markWords: found.map((f) => f.as),
    form: first.form,
    brandAt: first.w.at,
    markAt: first.markAt,
    of: m.words.length,
    marks: found.map((f) => marksWith(p.stats, f.w.plain)),
    whole:
      found.length === p.weighty.length &&
      found.every((f) => f.form === 'word' || f.form === 'plural'),
    disclaimed: disclaimed.includes(first.w.plain),
  };
}

function containedReason(p: PreparedWatch, m: MarkAnalysis): Reason | null {
  // A mark that is only the brand's initials, its first word (ML for ML MARK LEES).
  if (p.initials !== null && m.compact === p.initials && m.folded.length === 1) {
    return {
      kind: 'contained_in_brand',
      detail: `The whole mark is the first word ${quote([p.initials])} of the brand, its initials or letters.`,
      words: [p.brand.words[p.brand.folded.indexOf(p.initials)] ?? p.initials],
    };
  }
  if (m.compact.length < CONTAINED_MIN_LENGTH || allCommon(m.folded)) return null;
  const run = p.runs.get(m.compact);
  if (run === undefined) return null;
  return {
    kind: 'contained_in_brand',
    detail: `The whole mark is the distinctive part ${quote(run)} of the brand.`,
    words: [...run],
  };
}

/** The decision for one candidate record, with the watch prepared once (prepareWatch). */
export function decideConflictPrepared(p: PreparedWatch, record: RecordInput): Decision {
  const text = compareText(p, analyzeMark(record.markText), record.disclaimed ?? []);
  const shared: number[] = [];
  for (const c of record.classes) if (p.classes.has(c) && !shared.includes(c)) shared.push(c);
  shared.sort((x, y) => x - y);
  const covered = coveredDesignations(record, p.designations);
  const reasons = [...text];
  if (shared.length > 0) {
    reasons.push({
      kind: 'class_overlap',
      detail: `Shared Nice class${shared.length > 1 ? 'es' : ''}: ${shared.join(', ')}.`,
      classes: shared,
    });
  }
  if (covered.length > 0) {
    reasons.push({
      kind: 'territory',
      detail: `The ${record.jurisdiction.toUpperCase()} record covers ${covered.join(', ')}.`,
      designations: covered,
    });
  }
  // A record whose source publishes no Nice class cannot share one: text and territory decide
  // (docs/matching.md, "Records without classes"); its severity is capped (alert-assessment.ts).
  const classesMatch = shared.length > 0 || record.classes.length === 0;
  const conflict = text.length > 0 && classesMatch && covered.length > 0;
  let score = 0;
  if (conflict) for (const r of text) score = Math.max(score, SCORES[r.kind as TextReasonKind]);
  return { conflict, reasons, score };
}

/** The decision for one watch and one register record. */
export function decideConflict(watch: WatchInput, record: RecordInput): Decision {
  return decideConflictPrepared(prepareWatch(watch), record);
}

/** Text reasons only (no class or territory test): how similar is `markText` to the brand? */
export function compareMarks(brandName: string, markText: string): Reason[] {
  return compareText(
    prepareWatch({ name: brandName, niceClasses: [], designations: [] }),
    analyzeMark(markText),
  );
}
