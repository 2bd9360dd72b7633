// The match rules in the order the decision runs them (decide.ts, compareText): the identity rules
// first (each the whole answer), then the similarity rules, whose findings are listed in this order.
// A new rule is a file of this folder and a line here.
import { type AffixReason, affix } from './affix.ts';
import { type CompoundReason, compound } from './compound.ts';
import { type ConfusableReason, confusable } from './confusable.ts';
import { type ContainedInBrandReason, containedInBrand } from './contained-in-brand.ts';
import { type ContainsBrandReason, containsBrand } from './contains-brand.ts';
import { type ContractionReason, contraction } from './contraction.ts';
import { type DigitsAsWordsReason, digitsAsWords } from './digits-as-words.ts';
import { type EditDistanceReason, editDistance } from './edit-distance.ts';
import { type ExactReason, exact } from './exact.ts';
import { type FusedReason, fused } from './fused.ts';
import { type LetterChangedReason, letterChanged } from './letter-changed.ts';
import { type NearInsideReason, nearInside } from './near-inside.ts';
import { type NormalizedReason, normalized } from './normalized.ts';
import { type PartsSwappedReason, partsSwapped } from './parts-swapped.ts';
import { type PhoneticReason, phonetic } from './phonetic.ts';
import { type RearrangedReason, rearranged } from './rearranged.ts';
import { type ReorderedReason, reordered } from './reordered.ts';
import { type RhymeReason, rhyme } from './rhyme.ts';
import type { MatchRule } from './rule.ts';
import { type SameShapeReason, sameShape } from './same-shape.ts';
import { type SharedNumberReason, sharedNumber } from './shared-number.ts';
import { type SharedWordReason, sharedWord } from './shared-word.ts';
import { type WithoutGoodsReason, withoutGoods } from './without-goods.ts';

/** A finding of a text rule. */
export type TextReason =
  | ExactReason
  | NormalizedReason
  | ConfusableReason
  | AffixReason
  | EditDistanceReason
  | SameShapeReason
  | PhoneticReason
  | DigitsAsWordsReason
  | PartsSwappedReason
  | ContainsBrandReason
  | ContainedInBrandReason
  | WithoutGoodsReason
  | ReorderedReason
  | SharedWordReason
  | NearInsideReason
  | FusedReason
  | CompoundReason
  | ContractionReason
  | LetterChangedReason
  | SharedNumberReason
  | RearrangedReason
  | RhymeReason;
export type TextReasonKind = TextReason['kind'];

export const RULES: readonly MatchRule<TextReason>[] = [
  exact,
  normalized,
  confusable,
  affix,
  editDistance,
  sameShape,
  phonetic,
  digitsAsWords,
  partsSwapped,
  containsBrand,
  containedInBrand,
  withoutGoods,
  reordered,
  sharedWord,
  nearInside,
  fused,
  compound,
  contraction,
  letterChanged,
  sharedNumber,
  rearranged,
  rhyme,
];

const BY_KIND: ReadonlyMap<string, MatchRule<TextReason>> = new Map(RULES.map((r) => [r.kind, r]));

/** The rule of a finding's kind; undefined for a fact that is no text rule (classes, territory). */
export function ruleOf(kind: string): MatchRule<TextReason> | undefined {
  return BY_KIND.get(kind);
}
