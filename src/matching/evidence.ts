// The evidence of a finding in a lawyer's words, as the rationale quotes it: each rule gives its
// own (rules/, `evidence`); this is the one function the alert assessment reads them through. Pure.
import type { PreparedWatch, Reason, TextReason } from './decide.ts';
import { analyzeMark } from './normalize.ts';
import { ruleOf } from './rules/index.ts';
import { type EvidencePiece, lit } from './rules/rule.ts';
import type { WordStats } from './word-weights.ts';

export { type EvidencePiece, lit } from './rules/rule.ts';

/**
 * One sentence (as pieces) for a text rule that fired, with its concrete evidence; null for a
 * reason that is not a text rule.
 */
export function ruleEvidence(
  p: PreparedWatch,
  mark: string,
  r: Reason,
  stats: WordStats,
): EvidencePiece[] | null {
  const rule = ruleOf(r.kind);
  if (rule === undefined) return null;
  return rule.evidence(r as TextReason, {
    p,
    mark,
    m: analyzeMark(mark),
    brand: lit(p.name),
    stats,
  });
}
