// How much a word of a mark weighs, measured from the register: a word found in many marks
// (ANALYTICS, BAKERY, GROUP) tells marks apart less than one found in few (KESTREL). Pure; the
// counts come from the mirror's word table (src/data/repositories/word-counts.ts), kept current by
// every import. The model and its reasoning are in docs/matching.md ("Distinctiveness").
import { FOLDED_COMMON_WORDS } from './normalize.ts';

/** How many marks of the mirror contain each word (normalized form), and how many marks there are. */
export interface WordStats {
  /** Marks in the mirror. */
  total: number;
  /** Marks containing the word, for the words looked up (absent: not looked up, or in none). */
  counts: ReadonlyMap<string, number>;
}

/** No measurement: only the built-in list of common words decides. */
export const NO_WORD_STATS: WordStats = { total: 0, counts: new Map() };

/**
 * A word in at least this share of the register's marks is common: one in 2,500. In a register of
 * 1.2M marks that is 480 marks: ROBOTICS (3,100 marks) and ANALYTICS (5,870) are common, KESTREL
 * (41) is not. In the 17,561 EUIPO texts of the evaluation it is 7 marks: PLACE, WIND, SWEET, BLUE
 * are common there, MOUNTAIN (6), ERA (4) and VEUVE (0) are not.
 */
export const COMMON_SHARE = 1 / 2500;
/**
 * ...and in at least this many marks: in a small mirror a word seen twice is not evidence of a
 * common word, only of chance.
 */
export const COMMON_MIN_MARKS = 5;
/** Words shorter than this (A, AB, 4U) carry no weight of their own. */
export const MIN_WEIGHTY_LENGTH = 3;

/** Marks containing `word` (normalized form), or null when it was not looked up. */
export function marksWith(stats: WordStats, word: string): number | null {
  if (stats.total === 0) return null;
  return stats.counts.get(word) ?? 0;
}

/** Is the word common by measurement: in ≥ 1 in 2,500 marks and ≥ 5 marks of the register? */
export function measuredCommon(stats: WordStats, word: string): boolean {
  const n = marksWith(stats, word);
  return n !== null && n >= COMMON_MIN_MARKS && n >= stats.total * COMMON_SHARE;
}

/**
 * Is the word weak: a number, shorter than 3 characters, on the built-in list of common words
 * (function words, company forms, the generic words of every register), or common by
 * measurement? `folded` is the word as the rules compare it, `plain` as the register counts it.
 */
export function isWeakWord(stats: WordStats, folded: string, plain: string): boolean {
  return (
    folded.length < MIN_WEIGHTY_LENGTH ||
    /^[0-9]+$/.test(folded) ||
    FOLDED_COMMON_WORDS.has(folded) ||
    measuredCommon(stats, plain)
  );
}

/**
 * The word's weight: its inverse document frequency ln((N + 1) / (n + 1)), 0 when unmeasured.
 * KESTREL in 41 of 1.2M marks weighs 10.3; ANALYTICS in 5,870 weighs 5.3.
 */
export function wordWeight(stats: WordStats, word: string): number {
  const n = marksWith(stats, word);
  if (n === null) return 0;
  return Math.log((stats.total + 1) / (n + 1));
}

/** Builds WordStats from mark texts' word lists (the evaluation and tests; the service queries). */
export function countWords(marks: Iterable<readonly string[]>): WordStats {
  const counts = new Map<string, number>();
  let total = 0;
  for (const words of marks) {
    total++;
    for (const w of new Set(words)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return { total, counts };
}
