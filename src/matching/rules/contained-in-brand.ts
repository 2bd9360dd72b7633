// `contained_in_brand`: the whole mark is a distinctive run of the brand's words (or the distinctive
// part of a one-word compound brand), or the brand's initials (ML for ML MARK LEES). Retrieved by
// the runs and the initials, which the watch sends.
import { allCommon, analyzeMark } from '../normalize.ts';
import { CONTAINED_MIN_LENGTH } from '../prepare.ts';
import { lit, type MatchRule, quote } from './rule.ts';

export type ContainedInBrandReason = {
  kind: 'contained_in_brand';
  detail: string;
  words: string[];
};

/** The distinctive part that stands for the brand (the length the severity rates medium). */
const CONTAINED_WHOLE_MIN = 5;

export const containedInBrand: MatchRule<ContainedInBrandReason> = {
  kind: 'contained_in_brand',
  score: 0.6,
  relatedClassKeys: true,
  // A distinctive part of the brand of 5+ characters (medium here), taken whole as the mark: the
  // part that stands for the brand, as the brand inside a longer mark is the brand with an addition.
  crossesAt: 2,
  detect(p, m) {
    // A mark that is only the brand's initials, its first word (ML for ML MARK LEES).
    if (p.initials !== null && m.compact === p.initials && m.folded.length === 1) {
      return {
        kind: 'contained_in_brand',
        detail: `The whole mark is the first word ${quote([p.initials])} of the brand, its initials or letters.`,
        words: [p.brand.words[p.brand.folded.indexOf(p.initials)] ?? p.initials],
      };
    }
    if (m.compact.length < CONTAINED_MIN_LENGTH || allCommon(m.folded)) return null;
    const run = p.runs.get(m.compact);
    if (run === undefined) return null;
    return {
      kind: 'contained_in_brand',
      detail: `The whole mark is the distinctive part ${quote(run)} of the brand.`,
      words: [...run],
    };
  },
  keys(p, out) {
    for (const key of p.runs.keys()) out.tokens.add(key);
    if (p.initials !== null) out.tokens.add(p.initials);
  },
  // The mark is every word of the brand that is not weak, and only those (CIPRIANI for HOTEL
  // CIPRIANI): the brand without its descriptive words.
  takesBrandWhole(r, p) {
    const distinctive = analyzeMark(p.weighty.map((w) => w.plain).join(' ')).compact;
    return (
      distinctive.length >= CONTAINED_WHOLE_MIN &&
      analyzeMark(r.words.join(' ')).compact === distinctive
    );
  },
  severity: (r) =>
    r.words.join('').length >= 5
      ? [2, 'the whole mark is a distinctive part of the brand']
      : [1, 'the whole mark is a short part of the brand'],
  evidence: (r, c) => [
    'The whole mark is a distinctive part of the watched brand: ',
    lit(r.words.join(' ')),
    ' of ',
    c.brand,
    '.',
  ],
};
