// The watch side of the matching decision: what every comparison with one watch needs, computed
// once per scan (prepareWatch), and the small text helpers several rules share. Pure, no I/O. The
// rules themselves are in rules/, one file each; decide.ts runs them in order.

import type { CoverageRecord } from './coverage.ts';
import { goodsWordMask, goodsWordsOf, relatedClassesOf } from './goods.ts';
import {
  type AffixSplit,
  affixSplits,
  allCommon,
  analyzeMark,
  brandCore,
  FOLDED_COMMON_WORDS,
  LONG_ANCHOR,
  type MarkAnalysis,
  ONE_EDIT_MAX_LENGTH,
  ONE_EDIT_MIN_LENGTH,
  oneEditVariants,
  PHONETIC_MIN_LENGTH,
  PREFIX_ANCHOR,
  SHAPE_MAX_LENGTH,
  SHAPE_MIN_LENGTH,
  SHORT_ANCHOR,
  SHORT_PART_MAX,
  SUFFIX_ANCHOR,
  shapeKeys,
  soundedWhole,
  spokenDigits,
  wholeMarkPhoneticCodes,
} from './normalize.ts';
import { phoneticSkeleton, trigrams } from './similarity.ts';
import { isWord } from './vocabulary.ts';
import {
  isWeakWord,
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

export interface WatchInput {
  name: string;
  niceClasses: readonly number[];
  designations: readonly string[];
  /**
   * Whether records in classes related to the watch's (goods.ts) are candidates too; default
   * true (the watch attribute `relatedClasses`).
   */
  relatedClasses?: boolean;
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
  /**
   * The parts share the letter where they meet (LIVIN[G]REEN read as LIVING + GREEN): the brand
   * writes one letter for the end of one word and the start of the next.
   */
  overlap: boolean;
}

export interface RecordInput extends CoverageRecord {
  markText: string;
  classes: readonly number[];
  /** Words the record's office says its owner disclaims (normalized), when the source gives them. */
  disclaimed?: readonly string[];
  /**
   * The record's goods and services texts by class, where the source publishes them (goods.ts
   * compares them with the watch's classes); empty or absent otherwise.
   */
  goods?: readonly { niceClass: number; text: string }[];
  /**
   * The filing date (ISO), where the source gives it: a record in a class that held other goods
   * when it was filed meets them by that class (goods.ts, `former`) only if filed before the change.
   */
  filedAt?: string | null;
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
  /**
   * What is searched in a related class (a class related to a watched one, not watched itself):
   * the keys of the rules whose keys are searched there (MatchRule.relatedClassKeys). Their tokens
   * and one-edit texts (a subset of `tokens` and `nearWords`), their codes (of `phonetic`), and
   * whether the two-edit band is (edit_distance's key).
   */
  relatedTokens: string[];
  relatedPhonetic: string[];
  relatedBand: boolean;
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
  /** WatchInput.relatedClasses, defaulted. */
  relatedClasses: boolean;
  /**
   * The classes the candidate query searches: the watch's, and the classes related to them
   * (goods.ts) unless the watch turned related classes off.
   */
  candidateClasses: readonly number[];
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
  /**
   * For `without_goods`: the words that name the goods of the watch's classes and of the classes
   * related to them (goodsWordsOf), and the brand without those it has, its remainder also compact;
   * null when the rule does not apply to the brand (withoutGoodsBrand).
   */
  goodsWords: ReadonlySet<string>;
  withoutGoods: (WithoutGoods & { compact: string }) | null;
  /** The anchor keys sent (see addAnchorKeys): the brand's first and last 5 or 8 characters. */
  anchors: ReadonlySet<string>;
  /** The anchors' length (5 for a brand of 5-7 characters, else 8), 0 when none are sent. */
  anchorSize: number;
  skeleton: string;
  codes: readonly string[];
  trigramSet: Set<string>;
  search: SearchKeys;
}

/**
 * Computes what every comparison with this watch needs, once, but its search keys (the rules give
 * them: decide.ts, prepareWatch). `stats`: the register's counts of the brand's words
 * (wordStatsFor in the data layer); without them only the built-in list of common words tells a
 * weak word.
 */
export function prepareWatchSides(
  watch: WatchInput,
  stats: WordStats = NO_WORD_STATS,
): PreparedWatch {
  const brand = analyzeMark(watch.name);
  const core = brandCore(brand.folded);
  const coreStart = brand.folded.indexOf(core[0] as string);
  const coreCompact = core.join('');
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
  const goodsWords = goodsWordsOf(watch.niceClasses);
  const letterMark =
    core.length === 1 &&
    /^[A-Z]{2}$/.test(coreCompact) &&
    !allCommon(core) &&
    !measuredCommon(stats, brand.words[coreStart] ?? coreCompact);
  return {
    name: watch.name,
    brand,
    classes: new Set(watch.niceClasses),
    designations: [...new Set(watch.designations.map((d) => d.trim().toUpperCase()))],
    relatedClasses: watch.relatedClasses ?? true,
    candidateClasses: [
      ...new Set(watch.niceClasses),
      ...(watch.relatedClasses === false ? [] : relatedClassesOf(watch.niceClasses)),
    ],
    core,
    coreCompact,
    runs: brandRuns(brand),
    shortDistinctive: shortDistinctiveParts(brand.folded),
    splits: affixSplits(brand.compact),
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
    initials: initialsOf(brand, core, coreStart, stats),
    parts: brandParts(brand),
    weighty: weightyWords(brand, core, coreStart, stats),
    fusedEligible,
    goodsWords,
    withoutGoods: withoutGoodsBrand(brand, goodsWords),
    anchors,
    anchorSize,
    skeleton: phoneticSkeleton(brand.letters),
    codes: soundedWhole(brand.letters) ? wholeMarkPhoneticCodes(brand.letters) : [],
    trigramSet: trigrams(brand.compact),
    search: {
      compact: '',
      tokens: [],
      nearWords: [],
      phonetic: [],
      relatedTokens: [],
      relatedPhonetic: [],
      relatedBand: false,
      useTrigram: false,
      trigramThreshold: 0,
    },
  };
}

/** A mark's words without those that name goods (goodsWordMask). */
export interface WithoutGoods {
  /** The remaining words, plain and folded, and where each stands in the mark. */
  words: readonly string[];
  folded: readonly string[];
  at: readonly number[];
  /** The words left out, plain; empty when no word names goods. */
  dropped: readonly string[];
}

/** A mark's words without those that name the goods (goodsWordMask), and the words left out. */
export function withoutGoodsWords(a: MarkAnalysis, goodsWords: ReadonlySet<string>): WithoutGoods {
  const mask = goodsWordMask(a.words, goodsWords);
  const at = a.words.map((_w, i) => i).filter((i) => mask === null || !mask[i]);
  return {
    words: at.map((i) => a.words[i] as string),
    folded: at.map((i) => a.folded[i] as string),
    at,
    dropped: mask === null ? [] : a.words.filter((_w, i) => mask[i]),
  };
}

/** Do the remaining words stand together, the words that name goods before or after them? */
export function standsTogether(rest: WithoutGoods): boolean {
  return rest.at.every((at, i) => i === 0 || at === (rest.at[i - 1] as number) + 1);
}

/** The shortest remainder `without_goods` compares: shorter ones are initials or fragments. */
export const GOODS_REST_MIN_LENGTH = 4;

/**
 * The brand without the words that name goods, when `without_goods` applies to it: the watch has
 * goods words, and the remainder is words that stand together, of 4+ characters and not only
 * common words. Null otherwise.
 */
function withoutGoodsBrand(
  brand: MarkAnalysis,
  goodsWords: ReadonlySet<string>,
): PreparedWatch['withoutGoods'] {
  if (goodsWords.size === 0) return null;
  const rest = withoutGoodsWords(brand, goodsWords);
  const compact = rest.folded.join('');
  const applies =
    rest.folded.length > 0 &&
    standsTogether(rest) &&
    compact.length >= GOODS_REST_MIN_LENGTH &&
    !allCommon(rest.folded);
  return applies ? { ...rest, compact } : null;
}

/** The core's words that carry weight, the dominant ones marked (PreparedWatch.weighty). */
function weightyWords(
  brand: MarkAnalysis,
  core: readonly string[],
  coreStart: number,
  stats: WordStats,
): WeightyWord[] {
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
  return weighty;
}

/** Proper runs of brand words that are distinctive (PreparedWatch.runs). */
function brandRuns(brand: MarkAnalysis): Map<string, readonly string[]> {
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
  return runs;
}

/** The first word as the initials of the words after it (ML MARK LEES, IG INSPIRATION GROUP). */
function initialsOf(
  brand: MarkAnalysis,
  core: readonly string[],
  coreStart: number,
  stats: WordStats,
): string | null {
  const first = core[0] ?? '';
  return core.length > first.length &&
    first.length >= 2 &&
    first.length <= 3 &&
    /^[A-Z]+$/.test(first) &&
    [...first].every((c, i) => core[i + 1]?.startsWith(c)) &&
    !allCommon([first]) &&
    !measuredCommon(stats, brand.words[coreStart] ?? first)
    ? first
    : null;
}

/** Shortest part of a reading whose two parts share the letter where they meet (LIVINGREEN). */
export const OVERLAP_PART_MIN = 4;

/**
 * Readings of a one-word brand of letters as two parts of PART_MIN+ (PreparedWatch.parts), and as
 * two parts of OVERLAP_PART_MIN+ sharing the letter where they meet (LIVING + GREEN of LIVINGREEN).
 */
function brandParts(brand: MarkAnalysis): BrandParts[] {
  const parts: BrandParts[] = [];
  if (brand.folded.length !== 1 || brand.letters !== brand.compact) return parts;
  const b = brand.compact;
  const reading = (first: string, second: string, overlap: boolean): BrandParts => ({
    first,
    second,
    saidFirst: saidAs(first),
    saidSecond: saidAs(second),
    swappedCodes: wholeMarkPhoneticCodes(second + first),
    overlap,
  });
  for (let k = PART_MIN; k + PART_MIN <= b.length; k++) {
    parts.push(reading(b.slice(0, k), b.slice(k), false));
  }
  for (let k = OVERLAP_PART_MIN - 1; k + OVERLAP_PART_MIN <= b.length; k++) {
    parts.push(reading(b.slice(0, k + 1), b.slice(k), true));
  }
  return parts;
}

function watchShapeKeys(brand: MarkAnalysis): string[] {
  const b = brand.compact;
  if (brand.folded.length !== 1 || b.length < SHAPE_MIN_LENGTH || b.length > SHAPE_MAX_LENGTH) {
    return [];
  }
  if (allCommon(brand.folded)) return [];
  return [b.length - 1, b.length, b.length + 1].flatMap((n) => shapeKeys(b, n));
}

/**
 * The texts one edit away from the brand that the record's tokens must be compared with: every
 * one-edit variant, less those that the anchors sent already retrieve (a run longer than the anchor
 * stores its first and last characters, so a variant that keeps the brand's stores an anchor the
 * watch sends). A brand of 10 characters sends ~330 instead of ~550.
 */
export function nearSearchWords(p: PreparedWatch): string[] {
  const b = p.brand.compact;
  if (b.length < NEAR_MIN_LENGTH || b.length > NEAR_MAX_LENGTH) return [];
  const size = p.anchorSize;
  const variants = [...oneEditVariants(b, size), ...pluralsOf(b)];
  if (size === 0) return variants;
  // The anchors sent are the brand's own first and last `size` characters: comparing the variant
  // with them directly spares two strings and two look-ups per variant (~550 of them).
  const head = b.slice(0, size);
  const tail = b.slice(b.length - size);
  return variants.filter((v) => v.length <= size || !(v.startsWith(head) || v.endsWith(tail)));
}

/** The plurals of a compact text that are more than one edit away: -ES, and -Y to -IES. */
export function pluralsOf(compact: string): string[] {
  const out = [`${compact}ES`];
  if (compact.endsWith('Y')) out.push(`${compact.slice(0, -1)}IES`);
  return out;
}

export function isPluralOf(form: string, brand: string): boolean {
  return form === `${brand}S` || pluralsOf(brand).includes(form);
}

export interface DistinctivePart {
  text: string;
  /** A word of its own in the brand (must be a word of the mark), or part of a compound word. */
  wholeWord: boolean;
}

/** Common words of 4+ letters, longest first, for splitting compounds such as HTCOLLECTION. */
export const COMPOUND_HEADS: readonly string[] = [...FOLDED_COMMON_WORDS]
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
export function withSwaps(text: string): string[] {
  const out = [text];
  for (let i = 0; i + 1 < text.length; i++) {
    out.push(text.slice(0, i) + text.charAt(i + 1) + text.charAt(i) + text.slice(i + 2));
  }
  return out;
}

/**
 * Common-word guard of the edit rules: "INTERNATIONAL X" / "INTERNATIONAL Y" share only a common
 * word. When the brand's distinctive part is too short to take an edit itself, it must be in the
 * compared text (`compact`, made of `words`) with its own letters (unchanged or two neighbours
 * swapped), as one of the words when it is a word of the brand.
 */
export function keepsShortDistinctive(
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

/** A brand that is not only common words and has 4+ characters: its owner's own invention. */
export function isDistinctiveBrand(p: PreparedWatch): boolean {
  return p.brand.compact.length >= 4 && !allCommon(p.brand.folded);
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

/**
 * Endings that make a longer word of a brand rather than fuse another word to it (HYDRA /
 * HYDRATION, PRIMA / PRIMARY, NOVA / NOVATION): a rest of the word that is one of these is not
 * reported as a fused form. Plurals and the affix list are the affix rule's.
 */
export const WORD_ENDINGS: ReadonlySet<string> = new Set(
  `S ES ED D ING INGS ER ERS ION IONS TION TIONS ATION ATIONS SION ANT ANTS ENT ENTS ANCE ENCE ARY
   ARIES ORY ITY ITIES AL ALS IC ICS ICAL ISM IST ISTS IVE IVES OUS NESS MENT MENTS ABLE IBLE LY Y
   IA IAN IANS IO IOS O OS A AS E EN ENS I IS IN INE INES INO INA ITA ITO ETTE ETTA ELLA ELLO ISH
   ISTA ISTE ISMO ISME ITE ITES ATE ATES ATED ATOR ATORS OR ORS URE URES AGE AGES EUR EUSE EURS IER
   IERE EN UNG UNGEN HEIT KEIT LICH ISCH ERIA ERIE ERIES EE EES EY EYS IE IES RY RIES IUM IUMS`.split(
    /\s+/,
  ),
);

/** Shortest part of a one-word brand for `parts_swapped`. */
export const PART_MIN = 3;

/**
 * How a part is said: two parts are written alike or respelt with one sound when they have the
 * same spelling skeleton once a silent GH before T or at the end, and a final E, are dropped
 * (TITE / TIGHT, LITE / LIGHT).
 */
export function saidAs(part: string): string {
  return phoneticSkeleton(part.replace(/GH(?=T|$)/g, '').replace(/E$/, ''));
}

/** A swapped mark is about as long as the brand (TIGHTVAC / VACTITE): more apart is no swap. */

/** Shortest distinctive word reported fused into a word of the mark (PHOTOGRO for PHOTO). */
export const SHARED_FUSED_MIN = SHORT_ANCHOR;

/**
 * The word's stem for the `stem` form, or '' when that stem is a weak word (MAISON of MAISONS,
 * REWARD of REWARDING): another form of a common word is no distinctive element. The data layer
 * measures the stems with the words (statsWordsOf).
 */
export function distinctiveStem(stats: WordStats, folded: string, plain: string): string {
  const stem = stemOf(folded);
  if (stem === folded) return stem;
  return isWeakWord(stats, stem, stemOf(plain)) ? '' : stem;
}

/** The words whose register counts prepareWatch uses: the brand's words and their stems. */
export function statsWordsOf(brandName: string): string[] {
  const words = analyzeMark(brandName).words;
  return [...new Set([...words, ...words.map(stemOf)])];
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
