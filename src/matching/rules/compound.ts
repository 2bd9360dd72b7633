// `compound`: a brand that is a short or common word (ORBIT, SUN, ZARA) joined with an English word
// into a compound that is not itself a word (ORBITFLOW, SUNHARBOR, ZARAHOME): the compound splits
// at a word boundary with the brand on one side (compoundSplits). A compound that is a word
// (SUNSHINE, GREENHOUSE) is another word, not the brand. Retrieved by the `{`/`}` keys.
import { BOUNDARY_PART_MIN, compoundSplits, HEAD_KEY, TAIL_KEY } from '../normalize.ts';
import { isWord } from '../vocabulary.ts';
import { isWeakWord } from '../word-weights.ts';
import type { JoinedWord } from './fused.ts';
import { lit, type MatchRule, position } from './rule.ts';

/** `rest` is the English word the brand is joined with. */
export type CompoundReason = { kind: 'compound'; detail: string } & JoinedWord;

export const compound: MatchRule<CompoundReason> = {
  kind: 'compound',
  score: 0.45,
  detect(p, m) {
    const b = p.compoundBrand;
    if (b === null) return null;
    for (let i = 0; i < m.folded.length; i++) {
      const w = m.folded[i] as string;
      if (w.length < b.length + BOUNDARY_PART_MIN || !(w.startsWith(b) || w.endsWith(b))) continue;
      const split = compoundSplits(w).find((s) => s.part === b);
      if (split === undefined) continue;
      const word = m.words[i] as string;
      return {
        kind: 'compound',
        detail: `The mark joins the brand with the word ${split.word} into one: ${word}.`,
        word,
        rest: split.word,
        side: split.side,
        at: i,
        of: m.words.length,
      };
    }
    return null;
  },
  keys(p, out) {
    if (p.compoundBrand === null) return;
    out.tokens.add(HEAD_KEY + p.compoundBrand);
    out.tokens.add(TAIL_KEY + p.compoundBrand);
  },
  severity: (_r, { p }) =>
    !isWord(p.brand.compact) &&
    !isWeakWord(p.stats, p.brand.compact, p.brand.words[0] ?? p.brand.compact)
      ? [2, 'the short, distinctive brand is joined with a word into a compound']
      : [
          1,
          'the brand is a common or dictionary word joined with another into a compound, which is often a word of its own',
        ],
  evidence: (r) => [
    'The mark joins the watched brand with the word ',
    lit(r.rest),
    ' into one: ',
    lit(r.word),
    r.side === 'start' ? ' begins with the brand' : ' ends with the brand',
    `${position(r.at, r.of)}.`,
  ],
};
