// `shared_number`: a brand made of a number and words (412 BBQ) and a mark that keeps the number
// where the brand has it, first or last, and changes the words (412 PUBLIC HOUSE). A number of 3+
// digits that is no year (1800-2099), no round hundred and not common in the register is what the
// public remembers of such a mark; a number alone is weak for every other rule (word-weights.ts).
// Retrieved by the number, sent as a token: the record's words are tokens.
import type { MarkAnalysis } from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import { measuredCommon } from '../word-weights.ts';
import { lit, type MatchRule } from './rule.ts';

export type SharedNumberReason = {
  kind: 'shared_number';
  detail: string;
  number: string;
  /** Where both marks have it: their first word, or their last. */
  side: 'first' | 'last';
};

const NUMBER = /^[0-9]{3,}$/;
const YEAR = /^(1[89]|20)[0-9]{2}$/;

/** The brand's number that the rule looks for, and where it stands, or null. */
function brandNumber(p: PreparedWatch): { number: string; side: 'first' | 'last' } | null {
  const words = p.brand.folded;
  if (words.length < 2 || !words.some((w) => /[A-Z]/.test(w))) return null;
  const candidates: [string | undefined, 'first' | 'last'][] = [
    [words[0], 'first'],
    [words[words.length - 1], 'last'],
  ];
  for (const [w, side] of candidates) {
    if (w === undefined || !NUMBER.test(w) || YEAR.test(w) || w.endsWith('00')) continue;
    if (measuredCommon(p.stats, w)) continue;
    return { number: w, side };
  }
  return null;
}

function standsAt(m: MarkAnalysis, number: string, side: 'first' | 'last'): boolean {
  const w = side === 'first' ? m.folded[0] : m.folded[m.folded.length - 1];
  return w === number;
}

export const sharedNumber: MatchRule<SharedNumberReason> = {
  kind: 'shared_number',
  score: 0.4,
  unless: ['contains_brand', 'contained_in_brand', 'reordered', 'shared_word'],
  detect(p, m) {
    const found = brandNumber(p);
    if (found === null || m.folded.length < 2 || !standsAt(m, found.number, found.side)) {
      return null;
    }
    return {
      kind: 'shared_number',
      detail: `Both marks are the number ${found.number} with other words, the number ${found.side === 'first' ? 'first' : 'last'} in each.`,
      number: found.number,
      side: found.side,
    };
  },
  keys(p, out) {
    const found = brandNumber(p);
    if (found !== null) out.tokens.add(found.number);
  },
  severity: () => [
    1,
    'the marks keep the same number and change the words with it, which weigh as much',
  ],
  evidence: (r) => [
    'Both marks are the number ',
    lit(r.number),
    ` with other words, as their ${r.side} word: the number is kept and the words are changed.`,
  ],
};
