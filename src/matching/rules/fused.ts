// `fused`: the brand written together with another word into one word of the mark, before or
// after it (ZEROFLUSHNET, NETZEROFLUSH for ZEROFLUSH). For brands of 5+ characters that are not
// only common words (prepareWatch: fusedEligible); the other word has 2+ characters and, after the
// brand, is not a mere ending (WORD_ENDINGS). Retrieved by the anchors: the word starts (or ends)
// with the brand's first (last) 5 or 8 characters.
import { analyzeMark } from '../normalize.ts';
import { FUSED_MIN_REST, WORD_ENDINGS } from '../prepare.ts';
import { lit, type MatchRule, position } from './rule.ts';

/** The brand joined with another word into one word of the mark (fused, compound). */
export type JoinedWord = {
  /** The mark's word holding the brand, and what is joined to it. */
  word: string;
  rest: string;
  /** `start`: the brand begins the word (ZEROFLUSHNET); `end`: it ends it (NETZEROFLUSH). */
  side: 'start' | 'end';
  /** The word's index in the mark, and the mark's word count. */
  at: number;
  of: number;
};

export type FusedReason = { kind: 'fused'; detail: string } & JoinedWord;

/** Long enough for a fused form to be read as the brand itself (ZEROFLUSHNET). */
const LONG_BRAND = 8;

export const fused: MatchRule<FusedReason> = {
  kind: 'fused',
  score: 0.5,
  relatedClassKeys: true,
  detect(p, m) {
    if (!p.fusedEligible) return null;
    const b = p.brand.compact;
    for (let i = 0; i < m.folded.length; i++) {
      const w = m.folded[i] as string;
      if (w.length < b.length + FUSED_MIN_REST) continue;
      let side: 'start' | 'end' | null = null;
      let rest = '';
      if (w.startsWith(b) && !WORD_ENDINGS.has(w.slice(b.length))) {
        side = 'start';
        rest = w.slice(b.length);
      } else if (w.endsWith(b)) {
        side = 'end';
        rest = w.slice(0, w.length - b.length);
      }
      if (side === null) continue;
      const word = m.words[i] as string;
      return {
        kind: 'fused',
        detail: `The mark fuses the brand with ${rest} into one word: ${word}.`,
        word,
        rest,
        side,
        at: i,
        of: m.words.length,
      };
    }
    return null;
  },
  keys(p, out) {
    for (const a of p.anchors) out.tokens.add(a);
  },
  // The brand written into one word with the word after it (MOTHERSKY for MOTHER).
  takesBrandWhole: (r) => r.side === 'start' && r.at === 0,
  severity: (_r, { p, distinctive }) =>
    distinctive && p.brand.compact.length >= LONG_BRAND
      ? [
          2,
          `the distinctive brand of ${p.brand.compact.length} letters is written into one word with another`,
        ]
      : [1, 'the brand is fused with another word, a shape that is often a different word'],
  evidence(r, c) {
    // The rest as the mark writes it; a word read otherwise (BUOONO!PLUS, VV for W) is quoted
    // with its reading, and the rest left unquoted.
    const written = analyzeMark(r.word).plainCompact;
    if (!written.includes(r.rest)) {
      return [
        'The mark writes the watched brand together with another word: ',
        lit(r.word),
        ' (read as ',
        lit(c.m.folded[r.at] ?? r.word),
        r.side === 'start'
          ? ') is the brand followed by another word'
          : ') is another word followed by the brand',
        `${position(r.at, r.of)}.`,
      ];
    }
    return [
      'The mark writes the watched brand together with another word: ',
      lit(r.word),
      r.side === 'start' ? ' is the brand followed by ' : ' is ',
      lit(r.rest),
      r.side === 'start' ? '' : ' followed by the brand',
      `${position(r.at, r.of)}.`,
    ];
  },
};
