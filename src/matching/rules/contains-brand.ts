// `contains_brand`: the brand's core as whole word(s) of a longer mark (in sequence, or written as
// one to three adjacent words: COCA COLA / COCACOLA ZERO); a two-letter brand only in a mark of up
// to 3 words. Retrieved by the core compact and its longest distinctive word.
import { FOLDED_COMMON_WORDS, type MarkAnalysis } from '../normalize.ts';
import { CONTAINS_MIN_LENGTH, LETTER_MARK_MAX_WORDS, type PreparedWatch } from '../prepare.ts';
import { lit, type MatchRule, position, quote } from './rule.ts';

export type ContainsBrandReason = {
  kind: 'contains_brand';
  detail: string;
  words: string[];
  /** Index of the first word of the brand in the mark, and the mark's word count. */
  at: number;
  of: number;
};

function applies(p: PreparedWatch): boolean {
  return p.coreCompact.length >= CONTAINS_MIN_LENGTH || p.core.length >= 2 || p.letterMark;
}

function containsAt(
  p: PreparedWatch,
  m: MarkAnalysis,
  from: number,
  to: number,
): ContainsBrandReason {
  const found = m.words.slice(from, to);
  return {
    kind: 'contains_brand',
    detail: `The mark contains the brand ${quote(p.core)} as whole word(s): ${quote(found)}.`,
    words: found,
    at: from,
    of: m.words.length,
  };
}

/** Where the core's words stand in sequence inside a longer mark, or -1. */
function coreAt(core: readonly string[], words: readonly string[]): number {
  if (core.length >= words.length) return -1;
  for (let i = 0; i + core.length <= words.length; i++) {
    if (core.every((w, k) => words[i + k] === w)) return i;
  }
  return -1;
}

export const containsBrand: MatchRule<ContainsBrandReason> = {
  kind: 'contains_brand',
  score: 0.7,
  relatedClassKeys: true,
  // The distinctive brand whole inside a longer mark (medium here) is the brand with an addition.
  crossesAt: 2,
  detect(p, m) {
    const words = m.folded;
    const n = words.length;
    if (n < 2 || !applies(p)) return null;
    // A letter mark (RM) is a word of a short mark only (MB RM): in a phrase, two letters are
    // mostly an abbreviation of something else.
    if (p.letterMark) {
      const at = words.indexOf(p.coreCompact);
      return n <= LETTER_MARK_MAX_WORDS && at >= 0 ? containsAt(p, m, at, at + 1) : null;
    }
    const at = coreAt(p.core, words);
    if (at >= 0) return containsAt(p, m, at, at + p.core.length);
    // The core written as one to three adjacent words of the mark (COCA COLA / COCACOLA ZERO).
    for (let size = 1; size <= 3 && size < n; size++) {
      for (let i = 0; i + size <= n; i++) {
        let joined = '';
        for (let k = i; k < i + size; k++) joined += words[k];
        if (joined === p.coreCompact) return containsAt(p, m, i, i + size);
      }
    }
    return null;
  },
  keys(p, out) {
    // One core word (every core word is in such a mark), and the core compact.
    if (!applies(p)) return;
    out.tokens.add(p.coreCompact);
    const distinctive = p.core.filter((w) => !FOLDED_COMMON_WORDS.has(w));
    const pool = distinctive.length > 0 ? distinctive : p.core;
    const longest = pool.reduce((a, w) => (w.length > a.length ? w : a), '');
    if (longest !== '') out.tokens.add(longest);
  },
  severity(_r, { p, distinctive }) {
    if (p.letterMark) return [1, 'the two-letter brand stands as a word of a short mark'];
    return distinctive
      ? [2, 'the distinctive brand appears as a whole word in a longer mark']
      : [1, 'the brand is made of common words found inside a longer mark'];
  },
  evidence: (r) => [
    'The mark contains the watched brand as whole word(s): ',
    lit(r.words.join(' ')),
    `${position(r.at, r.of)}.`,
  ],
};
