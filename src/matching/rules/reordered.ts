// `reordered`: every word of a multi-word brand's core is a word of the mark, but not as the
// brand's sequence (that is `contains_brand`): in another order, or with other words between them
// (NORTH BLUE FACE for THE NORTH FACE). Not for a core of common words only. Retrieved by the
// core's longest distinctive word, which every such mark holds (contains_brand's keys).
import { allCommon } from '../normalize.ts';
import { lit, type MatchRule, quote } from './rule.ts';

export type ReorderedReason = {
  kind: 'reordered';
  detail: string;
  /** The mark's words, and whether the brand's words are in order with others between. */
  words: string[];
  inOrder: boolean;
};

export const reordered: MatchRule<ReorderedReason> = {
  kind: 'reordered',
  score: 0.65,
  detect(p, m) {
    const core = p.core;
    if (core.length < 2 || allCommon(core) || m.folded.length < core.length) return null;
    const used = new Set<number>();
    const positions: number[] = [];
    for (const w of core) {
      const at = m.folded.findIndex((x, k) => x === w && !used.has(k));
      if (at < 0) return null;
      used.add(at);
      positions.push(at);
    }
    const inOrder = positions.every((x, k) => k === 0 || x > (positions[k - 1] as number));
    const contiguous =
      inOrder && (positions.at(-1) as number) - (positions[0] as number) === core.length - 1;
    if (contiguous) return null;
    return {
      kind: 'reordered',
      detail: inOrder
        ? `The mark has the brand's words ${quote(core)} in order, with other words between them.`
        : `The mark has all the brand's words ${quote(core)}, in another order.`,
      words: [...m.words],
      inOrder,
    };
  },
  severity: (_r, { distinctive }) =>
    distinctive
      ? [2, 'the mark repeats every word of the brand, rearranged']
      : [1, 'the mark repeats the common words of the brand, rearranged'],
  evidence: (r) => [
    r.inOrder
      ? 'The mark has every word of the watched brand in order, with other words between them: '
      : 'The mark has every word of the watched brand, in another order: ',
    lit(r.words.join(' ')),
    '.',
  ],
};
