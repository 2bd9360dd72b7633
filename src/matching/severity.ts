// How serious a conflict is: `high`, `medium` or `low`, from the matching decision. Pure.
// The model and its reasoning are in docs/matching.md ("Severity"): the evidence is ordered as an
// examiner orders it. Identical or look-alike text is the strongest; a near or sound-alike form of
// a distinctive brand comes next; the brand as a whole word inside a longer mark is a real but
// weaker likelihood of confusion; and the shapes that need the reader to pick the brand out of
// something else (fused into a word, near form inside a phrase, words apart) are the weakest,
// raised only when the brand is long and distinctive or when the evidence adds up.
import type { PreparedWatch, Reason, TextReasonKind } from './decide.ts';
import { editSteps } from './explain.ts';
import { allCommon, analyzeMark } from './normalize.ts';
import { isWord } from './vocabulary.ts';
import { isWeakWord, type WordStats } from './word-weights.ts';

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

/** Long enough for a fused or near form to be read as the brand itself (ZEROFLUSHNET). */
const LONG_BRAND = 8;
/**
 * From this length one changed letter leaves a mark an examiner calls near-identical; in a brand
 * of 5 (MINOU / MINOR, VERTO / VENTO) it is a fifth of the mark, and often another word.
 */
const HIGH_EDIT_MIN_LENGTH = 6;

/** A brand whose letters are all there is to it: no digits that the sound leaves out (8° SENSE). */
function lettersOnly(p: PreparedWatch): boolean {
  return p.brand.letters === p.brand.compact;
}

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

/** What the severity of a shared word needs to know of the record beyond the reasons. */
export interface SeverityContext {
  /** The record's text and classes. */
  markText: string;
  classes: readonly number[];
  /** Counts of the record's words (and the brand's), to tell its other words weak or not. */
  stats?: WordStats;
}

/**
 * `shared_word`: identical distinctive element (the mark holds every distinctive word of the
 * brand and no distinctive word of its own) in identical classes is high; the brand's first word,
 * or its only distinctive word, is its dominant element: medium; another of its words: low.
 */
function sharedWordLevel(
  p: PreparedWatch,
  r: Extract<Reason, { kind: 'shared_word' }>,
  context: SeverityContext | undefined,
): [number, string] {
  if (r.disclaimed) {
    return [1, 'the shared word is one the record disclaims: its office found it descriptive'];
  }
  if (r.whole && context !== undefined) {
    const m = analyzeMark(context.markText);
    const stats = context.stats ?? p.stats;
    const own = m.folded.filter(
      (w, i) => !p.weighty.some((b) => b.folded === w) && !isWeakWord(stats, w, m.words[i] ?? w),
    );
    const sameClasses =
      context.classes.length === p.classes.size && context.classes.every((c) => p.classes.has(c));
    if (own.length === 0 && sameClasses) {
      return [
        3,
        'the mark repeats the distinctive element of the brand, with only common words beside it, in the same classes',
      ];
    }
  }
  if (r.brandAt === 0 || p.weighty.length === 1) {
    return [2, 'the mark shares the dominant, distinctive word of the brand'];
  }
  return [1, 'the mark shares one distinctive word of the brand, not its first'];
}

function level(
  p: PreparedWatch,
  r: Reason,
  distinctive: boolean,
  context: SeverityContext | undefined,
): [number, string] {
  switch (r.kind) {
    case 'exact':
    case 'normalized':
    case 'confusable':
      return [3, 'the texts are the same to the eye'];
    case 'affix':
      return r.side === 'mark' && distinctive && p.brand.compact.length >= 5
        ? [3, 'the mark is the distinctive brand with only a plural or a common affix added']
        : [2, 'the marks differ only by a common affix'];
    case 'edit_distance':
      return r.distance === 1 &&
        distinctive &&
        lettersOnly(p) &&
        p.brand.compact.length >= HIGH_EDIT_MIN_LENGTH &&
        !editTouchesShortWord(p, r.texts[1])
        ? [
            3,
            `the mark is one letter away from a distinctive brand of ${HIGH_EDIT_MIN_LENGTH} or more letters`,
          ]
        : [2, `the spellings are ${r.distance} letter${r.distance > 1 ? 's' : ''} apart`];
    case 'phonetic':
      return distinctive && lettersOnly(p)
        ? [3, 'the mark sounds the same as a distinctive brand']
        : [2, 'the mark sounds the same as the brand, whose common words or digits weigh less'];
    case 'contains_brand':
      if (p.letterMark) return [1, 'the two-letter brand stands as a word of a short mark'];
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
    case 'shared_word':
      return sharedWordLevel(p, r, context);
    case 'digits_as_words':
      return r.how === 'same' && distinctive
        ? [3, 'read aloud, with its digits as words, the mark is the distinctive brand']
        : [2, 'read aloud, with digits as words, the mark is a near form of the brand'];
    case 'compound':
      return !isWord(p.brand.compact) &&
        !isWeakWord(p.stats, p.brand.compact, p.brand.words[0] ?? p.brand.compact)
        ? [2, 'the short, distinctive brand is joined with a word into a compound']
        : [
            1,
            'the brand is a common or dictionary word joined with another into a compound, which is often a word of its own',
          ];
    case 'parts_swapped':
      return [2, "the mark is the brand's two parts in the other order"];
    case 'same_shape':
      return [
        1,
        'the names share their beginning, ending and rhythm, as confusable drug names do, but differ in two letters',
      ];
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
 * low level rises to medium when two or more weak rules hold together.
 */
export function assessSeverity(
  p: PreparedWatch,
  reasons: readonly Reason[],
  context?: SeverityContext,
): SeverityAssessment {
  const distinctive = isDistinctiveBrand(p);
  let best = 0;
  let decisive: TextReasonKind | null = null;
  let why = 'no text rule holds under the current matching rules';
  const weak = new Set<string>();
  for (const r of reasons) {
    if (r.kind === 'class_overlap' || r.kind === 'territory') continue;
    const [l, sentence] = level(p, r, distinctive, context);
    if (l === 1) weak.add(r.kind);
    if (l > best) {
      best = l;
      decisive = r.kind;
      why = sentence;
    }
  }
  // Weak shapes that add up (the brand fused into one word and a near form of it in another) make
  // a medium; only text close to the brand as a whole makes a conflict high.
  if (best === 1 && weak.size >= 2) {
    best = 2;
    why = `${why}, and other weak evidence (${[...weak].join(', ')}) adds up`;
  }
  return { severity: LEVEL[best] as Severity, decisive, why };
}
