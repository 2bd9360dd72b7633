// What raising the decided conflicts that no text rule finds would cost (scripts/eval-matching.ts).
// Without a rule, only a measure of the pair can raise it: the model's score, or the likeness of the
// texts. Ranked by one, raising the first k conflicts raises every pair that measures as high: the
// part's pairs found not confusing and the planted evaluation's unrelated marks, which are false
// alerts. Pure, so that it can be tested.
import type { Features } from '../../src/matching/features.ts';

/** A decided pair that no text rule finds, with the measure it is ranked by (score or likeness). */
export interface UnfoundPair {
  score: number;
  conflict: boolean;
}

/** What raising the first `conflicts` of them costs. */
export interface RaisingCost {
  conflicts: number;
  /** The part's pairs found not confusing that score as high. */
  notConfusing: number;
  /** The lowest score raised: the k-th conflict's. */
  scoreFrom: number;
  /** Unrelated marks of the planted evaluation that score as high. */
  falseAlerts: number;
}

/** The unrelated marks' scores, highest first, so that the count above a score is a search. */
export function descending(scores: ArrayLike<number>): Float64Array {
  return Float64Array.from(scores).sort().reverse();
}

/**
 * The closest likeness of two texts, whatever weighs it: the best of the model's likeness features,
 * whole or word by word, by letters, trigrams or sound. A second ranking beside the model's score,
 * so that the cost does not rest on the model's weights alone.
 */
export function closestLikeness(f: Features): number {
  return Math.max(f.whole_text, f.whole_trigram, f.whole_sound, f.word_text, f.word_sound);
}

/** How many of the scores (highest first) are at least `score`. */
function atLeast(sorted: Float64Array, score: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) >= score) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The cost of raising the first `k` conflicts among `pairs` by score alone, against the unrelated
 * marks' scores (`descending`); null when the pairs hold fewer than k conflicts.
 */
export function costOfRaising(
  pairs: readonly UnfoundPair[],
  k: number,
  unrelated: Float64Array,
): RaisingCost | null {
  const conflicts = pairs
    .filter((p) => p.conflict)
    .map((p) => p.score)
    .sort((a, b) => b - a);
  if (k < 1 || k > conflicts.length) return null;
  const scoreFrom = conflicts[k - 1] as number;
  return {
    conflicts: conflicts.filter((s) => s >= scoreFrom).length,
    notConfusing: pairs.filter((p) => !p.conflict && p.score >= scoreFrom).length,
    scoreFrom,
    falseAlerts: atLeast(unrelated, scoreFrom),
  };
}

/**
 * How many conflicts no rule finds must be raised for a part to reach `goal` (a share), when every
 * conflict a rule finds is raised as well: `raised` now, `ruleFound` more that a rule finds.
 */
export function neededFromUnfound(
  conflicts: number,
  raised: number,
  ruleFound: number,
  goal: number,
): number {
  return Math.max(0, Math.ceil(goal * conflicts - 1e-9) - raised - ruleFound);
}
