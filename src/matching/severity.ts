// How serious a conflict is: `high`, `medium` or `low`, from the matching decision. Pure.
// The model and its reasoning are in docs/matching.md ("Severity"): the evidence is ordered as an
// examiner orders it. Identical or look-alike text is the strongest; a near or sound-alike form of
// a distinctive brand comes next; the brand as a whole word inside a longer mark is a real but
// weaker likelihood of confusion; and the shapes that need the reader to pick the brand out of
// something else (fused into a word, near form inside a phrase, words apart) are the weakest,
// raised only when the brand is long and distinctive or when the evidence adds up. Each rule gives
// its own level (rules/, `severity`); this module combines them.
import type { PreparedWatch, Reason, TextReason, TextReasonKind } from './decide.ts';
import { isDistinctiveBrand } from './prepare.ts';
import { ruleOf } from './rules/index.ts';
import type { SeverityContext } from './rules/rule.ts';

export { isDistinctiveBrand } from './prepare.ts';
export type { SeverityContext } from './rules/rule.ts';

export type Severity = 'low' | 'medium' | 'high';
export const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low'];

export type SeverityAssessment = {
  severity: Severity;
  /** The reason that sets the level, and a sentence saying why it is at that level. */
  decisive: TextReasonKind | null;
  why: string;
};

const LEVEL: readonly Severity[] = ['low', 'low', 'medium', 'high'];

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
  const input = { p, distinctive: isDistinctiveBrand(p), context };
  let best = 0;
  let decisive: TextReasonKind | null = null;
  let why = 'no text rule holds under the current matching rules';
  const weak = new Set<string>();
  for (const r of reasons) {
    const rule = ruleOf(r.kind);
    if (rule === undefined) continue;
    const [l, sentence] = rule.severity(r as TextReason, input);
    if (l === 1) weak.add(r.kind);
    if (l > best) {
      best = l;
      decisive = rule.kind;
      why = sentence;
    }
  }
  // Weak shapes that add up (the brand fused into one word and a near form of it in another) make
  // a medium; only text close to the brand as a whole makes a conflict high.
  if (best === 1 && weak.size >= 2) {
    best = 2;
    why = `${why}, and other weak evidence (${[...weak].join(', ')}) adds up`;
  }
  // Goods in a related class, not the same one (goods.ts): only the same text stays high.
  if (best === 3 && reasons.some((r) => r.kind === 'related_goods') && !SAME_TEXT.has(decisive)) {
    best = 2;
    why = `${why}, but in a related class rather than the same one, which makes it at most medium`;
  }
  return { severity: LEVEL[best] as Severity, decisive, why };
}

/** The identity rules: the same text to the eye. */
const SAME_TEXT: ReadonlySet<string | null> = new Set(['exact', 'normalized', 'confusable']);
