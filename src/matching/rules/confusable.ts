// `confusable`: the same text once look-alike characters are folded (0/O, 1/I/l, 5/S…).
import { lookalikePairs } from '../explain.ts';
import { lit, type MatchRule } from './rule.ts';

export type ConfusableReason = { kind: 'confusable'; detail: string; folded: string };

export const confusable: MatchRule<ConfusableReason> = {
  kind: 'confusable',
  score: 0.95,
  alone: true,
  relatedClassKeys: true,
  detect(p, m) {
    const b = p.brand.lookalike;
    if (m.lookalike !== b) return null;
    return {
      kind: 'confusable',
      detail: `Same text once look-alike characters are folded (0/O, 1/I/l, 5/S, $/S, 3/E, 4/A…): ${b}.`,
      folded: b,
    };
  },
  keys(p, out) {
    out.tokens.add(p.brand.lookalike);
  },
  severity: () => [3, 'the texts are the same to the eye'],
  evidence(_r, c) {
    const pairs = lookalikePairs(c.p.brand.plainCompact, c.m.plainCompact);
    return [
      'The mark looks the same as the watched brand once look-alike characters are read as the letters they imitate',
      pairs.length > 0 ? ` (${pairs.join(', ')})` : '',
      ': both read as ',
      lit(c.p.brand.plainCompact),
      '.',
    ];
  },
};
