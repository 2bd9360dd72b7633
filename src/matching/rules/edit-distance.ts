// `edit_distance`: the whole mark is one character edit from the brand (from 4 characters), or two
// (from 8, with a trigram guard). Retrieved by the `~` neighbourhoods, the one-edit texts
// (nearWords) and the trigram band.
import { editSteps } from '../explain.ts';
import { oneEditSearchKeys } from '../normalize.ts';
import {
  editsAllowed,
  keepsShortDistinctive,
  nearSearchWords,
  type PreparedWatch,
  TWO_EDITS_MIN_LENGTH,
} from '../prepare.ts';
import { damerauLevenshtein, trigramSimilarity, trigrams } from '../similarity.ts';
import { type MatchRule, spellings } from './rule.ts';

export type EditDistanceReason = {
  kind: 'edit_distance';
  detail: string;
  distance: number;
  maxDistance: number;
  /** The compact texts compared, brand first. */
  texts: [string, string];
};

/**
 * From this length one changed letter leaves a mark an examiner calls near-identical; in a brand
 * of 5 (MINOU / MINOR, VERTO / VENTO) it is a fifth of the mark, and often another word.
 */
const HIGH_EDIT_MIN_LENGTH = 6;

/** Does the edit from the brand to `mark` change a brand word of 1 or 2 characters (8 SENSE)? */
function editTouchesShortWord(p: PreparedWatch, mark: string): boolean {
  const ends: number[] = [];
  let at = 0;
  for (const w of p.brand.folded) {
    at += w.length;
    ends.push(at);
  }
  const wordAt = (i: number) => ends.findIndex((end) => i < end);
  return editSteps(p.brand.compact, mark).some((step) => {
    const i = Math.min(step.at, p.brand.compact.length - 1);
    const w = p.brand.folded[wordAt(i)] ?? '';
    return w.length < 3;
  });
}

export const editDistance: MatchRule<EditDistanceReason> = {
  kind: 'edit_distance',
  score: 0.85,
  relatedClassKeys: true,
  detect(p, m) {
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
  },
  keys(p, out) {
    // The neighbourhood of runs that are not Latin capitals only; the others are found as tokens
    // among nearWords (see oneEditRecordKeys). near_inside is retrieved by the same keys.
    for (const k of oneEditSearchKeys(p.brand.compact)) out.tokens.add(k);
    out.nearWords.push(...nearSearchWords(p));
  },
  severity: (r, { p, distinctive }) =>
    r.distance === 1 &&
    distinctive &&
    p.brand.letters === p.brand.compact &&
    p.brand.compact.length >= HIGH_EDIT_MIN_LENGTH &&
    !editTouchesShortWord(p, r.texts[1])
      ? [
          3,
          `the mark is one letter away from a distinctive brand of ${HIGH_EDIT_MIN_LENGTH} or more letters`,
        ]
      : [2, `the spellings are ${r.distance} letter${r.distance > 1 ? 's' : ''} apart`],
  evidence(r, c) {
    const s = spellings(r.texts, [c.p.brand.plainCompact, c.m.plainCompact]);
    return [
      `The spelling differs from the watched brand by ${r.distance} letter${r.distance > 1 ? 's' : ''}: `,
      ...s.mark,
      ' against ',
      ...s.brand,
      ` (${s.edits}).`,
    ];
  },
};
