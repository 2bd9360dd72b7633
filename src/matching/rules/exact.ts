// `exact`: the mark is the brand's text as written.
import type { MatchRule } from './rule.ts';

export type ExactReason = { kind: 'exact'; detail: string };

export const exact: MatchRule<ExactReason> = {
  kind: 'exact',
  score: 1,
  alone: true,
  relatedClassKeys: true,
  detect: (p, m) => (m.text === p.brand.text ? { kind: 'exact', detail: 'Identical text.' } : null),
  keys(p, out) {
    if (p.brand.compact !== '') out.tokens.add(p.brand.compact);
  },
  severity: () => [3, 'the texts are the same to the eye'],
  evidence: (_r, c) => ['The mark is identical to the watched brand ', c.brand, '.'],
};
