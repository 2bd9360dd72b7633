// `normalized`: the same text once case, spacing, punctuation and accents are ignored.
import { lit, type MatchRule } from './rule.ts';

export type NormalizedReason = { kind: 'normalized'; detail: string; normalized: string };

export const normalized: MatchRule<NormalizedReason> = {
  kind: 'normalized',
  score: 0.98,
  alone: true,
  relatedClassKeys: true,
  detect(p, m) {
    const b = p.brand.plainCompact;
    if (m.plainCompact !== b) return null;
    return {
      kind: 'normalized',
      detail: `Same text once case, spacing, punctuation and accents are ignored: ${b}.`,
      normalized: b,
    };
  },
  keys(p, out) {
    out.tokens.add(p.brand.plainCompact);
  },
  severity: () => [3, 'the texts are the same to the eye'],
  evidence: (r) => [
    'The mark is the watched brand written differently (case, spacing, punctuation or accents): both read ',
    lit(r.normalized),
    '.',
  ],
};
