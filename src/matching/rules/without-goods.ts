// `without_goods`: the brand and the mark are the same once the words that name the goods of the
// watch's classes, or of the classes related to them, are left out (NORTH COAST BREWING /
// NORTHCOAST WINE CO.; MY BIG FAT GREEK RESTAURANT / MY BIG FAT GREEK WINE). Such words describe
// the goods and tell consumers nothing of who makes them, so tribunals compare what remains.
// Retrieved by the remaining words: the rarest of them, or the two joined where one side writes
// them as one word.
import type { MarkAnalysis } from '../normalize.ts';
import {
  type PreparedWatch,
  standsTogether,
  type WithoutGoods,
  withoutGoodsWords,
} from '../prepare.ts';
import { isWeakWord, marksWith } from '../word-weights.ts';
import { type EvidencePiece, lit, type MatchRule, quote } from './rule.ts';

export type WithoutGoodsReason = {
  kind: 'without_goods';
  detail: string;
  /** What remains of the brand and of the mark, as written. */
  brandRest: string[];
  markRest: string[];
  /** The words left out of each, as written. */
  brandDropped: string[];
  markDropped: string[];
};

/**
 * Are the remainders the same: the same words, or two words on one side written as one on the
 * other (NORTH COAST / NORTHCOAST). The mark's stand together, as the brand's do
 * (PreparedWatch.withoutGoods), so that its stored runs hold them and the evidence quotes them as
 * written.
 */
function sameRest(brand: WithoutGoods, mark: WithoutGoods): boolean {
  const b = brand.folded;
  const c = mark.folded;
  if (!standsTogether(mark)) return false;
  if (b.length === c.length) return b.every((w, i) => c[i] === w);
  if (b.length === 1 && c.length === 2) return c.join('') === b[0];
  return b.length === 2 && c.length === 1 && b.join('') === c[0];
}

/** The word of the rest that retrieves fewest records: not weak, the rarest, the longest. */
function rarest(p: PreparedWatch, rest: WithoutGoods): string {
  const rank = (i: number): [number, number, number] => {
    const folded = rest.folded[i] as string;
    const plain = rest.words[i] as string;
    return [
      isWeakWord(p.stats, folded, plain) ? 1 : 0,
      marksWith(p.stats, plain) ?? 0,
      -folded.length,
    ];
  };
  const before = (a: number[], b: number[]): boolean => {
    const k = a.findIndex((x, j) => x !== b[j]);
    return k >= 0 && (a[k] as number) < (b[k] as number);
  };
  let best = 0;
  for (let i = 1; i < rest.folded.length; i++) if (before(rank(i), rank(best))) best = i;
  return rest.folded[best] as string;
}

/** Each word its own quote: the words left out need not stand together in the mark. */
function listed(words: readonly string[]): EvidencePiece[] {
  if (words.length === 0) return ['none'];
  return words.flatMap((w, i) => (i === 0 ? [lit(w)] : [', ', lit(w)]));
}

export const withoutGoods: MatchRule<WithoutGoodsReason> = {
  kind: 'without_goods',
  score: 0.6,
  relatedClassKeys: true,
  // The brand whole with words that only name goods (medium here or above): the brand itself for
  // other goods, as tribunals found NORTHCOAST WINE CO. for a brewery's NORTH COAST BREWING.
  crossesAt: 2,
  detect(p: PreparedWatch, m: MarkAnalysis) {
    const brand = p.withoutGoods;
    // The mark's remainder stands together and joins as the brand's: its text holds it.
    if (brand === null || !m.compact.includes(brand.compact)) return null;
    const mark = withoutGoodsWords(m, p.goodsWords);
    if (brand.dropped.length === 0 && mark.dropped.length === 0) return null;
    if (!sameRest(brand, mark)) return null;
    return {
      kind: 'without_goods',
      detail: `Without the words that name the goods, the mark ${quote(mark.words)} is the brand ${quote(brand.words)}.`,
      brandRest: [...brand.words],
      markRest: [...mark.words],
      brandDropped: [...brand.dropped],
      markDropped: [...mark.dropped],
    };
  },
  keys(p, out) {
    const rest = p.withoutGoods;
    if (rest === null) return;
    out.tokens.add(rest.folded.length === 1 ? (rest.folded[0] as string) : rarest(p, rest));
    if (rest.folded.length === 2) out.tokens.add(rest.folded.join(''));
  },
  severity: (_r, { p }) => {
    // A finding implies the rule applies to the brand.
    const rest = p.withoutGoods as WithoutGoods;
    const distinctive = rest.folded.some(
      (w, i) => !isWeakWord(p.stats, w, rest.words[i] as string),
    );
    return distinctive
      ? [3, 'the marks are the same but for words that name the goods']
      : [2, 'the marks are the same common words but for words that name the goods'];
  },
  evidence: (r) => [
    'Leaving out the words that name the goods (of the watched brand: ',
    ...listed(r.brandDropped),
    '; of the mark: ',
    ...listed(r.markDropped),
    '), the mark ',
    lit(r.markRest.join(' ')),
    ' is the watched brand ',
    lit(r.brandRest.join(' ')),
    '.',
  ],
};
