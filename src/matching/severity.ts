// How serious a conflict is: `high`, `medium` or `low`, from the matching decision. Pure.
// The model and its reasoning are in docs/matching.md ("Severity"): the evidence is ordered as an
// examiner orders it. Identical or look-alike text is the strongest; a near or sound-alike form of
// a distinctive brand comes next; the brand as a whole word inside a longer mark is a real but
// weaker likelihood of confusion; and the shapes that need the reader to pick the brand out of
// something else (fused into a word, near form inside a phrase, words apart) are the weakest,
// raised only when the brand is long and distinctive or when the evidence adds up.
import type { PreparedWatch, Reason, TextReasonKind } from './decide.ts';
import { allCommon } from './normalize.ts';

export type Severity = 'low' | 'medium' | 'high';
export const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low'];

export type SeverityAssessment = {
  severity: Severity;
  /** The reason that sets the level, and a sentence saying why it is at that level. */
  decisive: TextReasonKind | null;
  why: string;
};

const LEVEL: readonly Severity[] = ['low', 'low', 'medium', 'high'];

/** A brand that is not only common words and has 4+ characters: its owner's own invention. */
export function isDistinctiveBrand(p: PreparedWatch): boolean {
  return p.brand.compact.length >= 4 && !allCommon(p.brand.folded);
}

/**
 * Families of evidence: rules in one family restate the same observation (NIKE / NIKES is both a
 * plural and one edit), rules of different families are independent evidence.
 */
const FAMILY: Readonly<Record<TextReasonKind, string>> = {
  exact: 'identity',
  normalized: 'identity',
  confusable: 'identity',
  edit_distance: 'spelling',
  affix: 'spelling',
  phonetic: 'sound',
  contains_brand: 'words',
  contained_in_brand: 'words',
  reordered: 'words',
  near_inside: 'words',
  fused: 'words',
};

/** Long enough for a fused or near form to be read as the brand itself (ZEROFLUSHNET). */
const LONG_BRAND = 8;

function level(p: PreparedWatch, r: Reason, distinctive: boolean): [number, string] {
  switch (r.kind) {
    case 'exact':
    case 'normalized':
    case 'confusable':
      return [3, 'the texts are the same to the eye'];
    case 'affix':
      return r.side === 'mark' && distinctive
        ? [3, 'the mark is the distinctive brand with only a plural or a common affix added']
        : [2, 'the marks differ only by a common affix'];
    case 'edit_distance':
      return r.distance === 1 && distinctive && p.brand.compact.length >= 5
        ? [3, 'the mark is one letter away from a distinctive brand of 5 or more letters']
        : [2, `the spellings are ${r.distance} letter${r.distance > 1 ? 's' : ''} apart`];
    case 'phonetic':
      return distinctive
        ? [3, 'the mark sounds the same as a distinctive brand']
        : [2, 'the mark sounds the same as a brand made of common words'];
    case 'contains_brand':
      return distinctive
        ? [2, 'the distinctive brand appears as a whole word in a longer mark']
        : [1, 'the brand is made of common words found inside a longer mark'];
    case 'contained_in_brand':
      return r.words.join('').length >= 5
        ? [2, 'the whole mark is a distinctive part of the brand']
        : [1, 'the whole mark is a short part of the brand'];
    case 'reordered':
      return distinctive
        ? [2, 'the mark repeats every word of the brand, rearranged']
        : [1, 'the mark repeats the common words of the brand, rearranged'];
    case 'near_inside':
      return distinctive && r.at === 0
        ? [2, 'a near form of the distinctive brand opens the mark']
        : [1, 'a near form of the brand stands inside a longer mark'];
    case 'fused':
      return distinctive && p.brand.compact.length >= LONG_BRAND
        ? [
            2,
            `the distinctive brand of ${p.brand.compact.length} letters is written into one word with another`,
          ]
        : [1, 'the brand is fused with another word, a shape that is often a different word'];
    default:
      return [0, ''];
  }
}

/**
 * The severity of a conflict with these text reasons (decideConflictPrepared's, class and
 * territory facts ignored: a conflict already has both). The strongest reason sets the level; a
 * weak level (low or medium) rises by one when a reason of another family of evidence also holds.
 */
export function assessSeverity(p: PreparedWatch, reasons: readonly Reason[]): SeverityAssessment {
  const distinctive = isDistinctiveBrand(p);
  let best = 0;
  let decisive: TextReasonKind | null = null;
  let why = 'no text rule holds under the current matching rules';
  const families = new Set<string>();
  for (const r of reasons) {
    if (r.kind === 'class_overlap' || r.kind === 'territory') continue;
    families.add(FAMILY[r.kind]);
    const [l, sentence] = level(p, r, distinctive);
    if (l > best) {
      best = l;
      decisive = r.kind;
      why = sentence;
    }
  }
  if (best > 0 && best < 3 && families.size >= 2) {
    best += 1;
    why = `${why}, and independent evidence (${[...families].join(', ')}) points the same way`;
  }
  return { severity: LEVEL[best] as Severity, decisive, why };
}
