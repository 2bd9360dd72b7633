// How serious a conflict is: `high`, `medium` or `low`, from the model's score (model.ts) of the
// pair, calibrated on decided outcomes: the thresholds of the levels are set on the development
// part of the decided cases (scripts/train-matching.ts). The rules still say why: the strongest
// rule's sentence (rules/, `severity`) names the shape, and the features that made the score are
// named after it; a related class rather than the same one caps it at medium, the same text too.
// docs/matching.md ("Severity") has the model and its figures.
import { goodsRelation, type PreparedWatch, type Reason, scorePair } from './decide.ts';
import type { GoodsRelation } from './features.ts';
import { levelOf, mainFactors, type Severity } from './model.ts';
import { analyzeMark } from './normalize.ts';
import { isDistinctiveBrand } from './prepare.ts';
import { ruleOf, type TextReason, type TextReasonKind } from './rules/index.ts';
import type { SeverityContext } from './rules/rule.ts';

export type { Severity } from './model.ts';
export { isDistinctiveBrand } from './prepare.ts';
export type { SeverityContext } from './rules/rule.ts';

export const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low'];

export type SeverityAssessment = {
  severity: Severity;
  /** The reason that names the shape, and a sentence saying why the alert is at its level. */
  decisive: TextReasonKind | null;
  why: string;
  /** The model's score of the pair, 0..1 (0 when no text rule holds). */
  score: number;
};

/**
 * The severity of a conflict with these text reasons (decideConflictPrepared's) for the record of
 * `context` (its text and classes): the level of the model's score, with the strongest rule's
 * sentence and the features that weigh most.
 */
export function assessSeverity(
  p: PreparedWatch,
  reasons: readonly Reason[],
  context: SeverityContext,
): SeverityAssessment {
  const input = { p, distinctive: isDistinctiveBrand(p), context };
  const text: TextReason[] = [];
  let best = 0;
  let decisive: TextReasonKind | null = null;
  let shape = 'no text rule holds under the current matching rules';
  for (const r of reasons) {
    const rule = ruleOf(r.kind);
    if (rule === undefined) continue;
    text.push(r as TextReason);
    const [l, sentence] = rule.severity(r as TextReason, input);
    if (l > best) {
      best = l;
      decisive = rule.kind;
      shape = sentence;
    }
  }
  if (text.length === 0) return { severity: 'low', decisive, why: shape, score: 0 };
  const record = { classes: context.classes, markText: context.markText, jurisdiction: '' };
  // No class shared or unknown: a related class (goods.ts), or the same mark in any class.
  const elsewhere = reasons.some((r) => r.kind === 'any_class');
  const relation = goodsRelation(p, record).relation ?? (elsewhere ? 'unrelated' : 'related');
  const m = analyzeMark(context.markText);
  const { features, score } = scorePair(
    p,
    m,
    context.markText,
    text,
    record,
    relation,
    context.stats,
  );
  const factors = mainFactors(features);
  const made = factors.length > 0 ? `; the score weighs most ${factors.join(', ')}` : '';
  const why = `${shape} (score ${score.toFixed(2)} of 1, ${levelOf(score)}${made})`;
  // A finding on a word the record's office found descriptive (its disclaimer: shared-word.ts) is
  // no evidence the decided cases could weigh (none has one): the rule's own level, low, stands.
  if (text.every((r) => (r as { disclaimed?: boolean }).disclaimed === true)) {
    const kept = `${shape} (score ${score.toFixed(2)} of 1; the disclaimer keeps the alert low)`;
    return { severity: 'low', decisive, why: kept, score };
  }
  const { severity, cappedBy } = levelWithCap(score, relation);
  const said = cappedBy === null ? why : `${why}, but ${cappedBy}, which makes it at most medium`;
  return { severity, decisive, why: said, score };
}

/**
 * The level of a score for goods that meet this way: the model's level, held at medium across
 * classes (ACROSS_CLASSES), with the words that say why when it was held.
 */
export function levelWithCap(
  score: number,
  relation: GoodsRelation,
): { severity: Severity; cappedBy: string | null } {
  const level = levelOf(score);
  const across = ACROSS_CLASSES[relation];
  if (level === 'high' && across !== undefined) return { severity: 'medium', cappedBy: across };
  return { severity: level, cappedBy: null };
}

/**
 * The goods relations whose alerts are never above medium, with the words that say why: a related
 * class rather than the same one (goods.ts), the same text too, since tribunals split on the same
 * mark in related goods; goods no table relates (any-class.ts), where the brand's reputation
 * decides, which the watch cannot know. The training counts these pairs as capped too.
 */
const ACROSS_CLASSES: Partial<Record<GoodsRelation, string>> = {
  related: 'in a related class rather than the same one',
  unrelated: 'in a class whose goods are not known to be related',
};

/** Does the severity hold a pair with goods that meet this way at medium at most? */
export function cappedAtMedium(relation: GoodsRelation): boolean {
  return ACROSS_CLASSES[relation] !== undefined;
}
