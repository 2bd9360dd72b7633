// `alike`: no rule's shape holds, but the scoring model (model.ts) finds the marks alike as wholes
// and the candidate keys retrieve the record. Its finding is made by decide.ts (findCandidate), not
// by a detection of its own: the rules come first, the model only adds what they leave and what
// the stored keys can fetch, so that the SQL query still retrieves every pair accepted.
import { lit, type MatchRule, quote } from './rule.ts';

export type AlikeReason = {
  kind: 'alike';
  detail: string;
  /** Share of the letters the compact forms have in common (1 - edit distance / longer length). */
  letters: number;
  /** The same share of the spelling skeletons: how alike they sound. */
  sound: number;
  /** The letters both begin and end with (empty when none). */
  beginning: string;
  ending: string;
};

const percent = (x: number) => `${Math.round(100 * x)}%`;

/** The finding for a pair the model raised on its own, from the pair's measures. */
export function alikeReason(
  brand: string,
  mark: string,
  measures: Omit<AlikeReason, 'kind' | 'detail'>,
): AlikeReason {
  return {
    kind: 'alike',
    detail: `Alike as a whole (${quote([brand])} / ${quote([mark])}): ${percent(measures.letters)} of the letters and ${percent(measures.sound)} of the sound in common.`,
    ...measures,
  };
}

export const alike: MatchRule<AlikeReason> = {
  kind: 'alike',
  score: 0.5,
  detect: () => null,
  severity: () => [1, 'no single shape holds, but the marks are alike as wholes'],
  evidence: (r, c) => {
    const out = [
      'No single shape of the rules holds, but ',
      lit(c.mark),
      ' and ',
      c.brand,
      ` are alike as wholes: ${percent(r.letters)} of their letters and ${percent(r.sound)} of their sound in common`,
    ];
    if (r.beginning !== '') out.push('; both begin with ', lit(r.beginning));
    if (r.ending !== '')
      out.push(r.beginning !== '' ? ' and end with ' : '; both end with ', lit(r.ending));
    out.push('.');
    return out;
  },
};
