// `same_shape`: two one-word names of 6 to 10 letters, at most two edits apart, that begin alike
// (3 letters, or 2 and the same last 3) and have as many vowel groups: the pattern of confusable
// drug names (OMEPRAL / OMERAN, VAGISIL / VAGISAN, EVONISE / EVARISE). Below 8 letters the edit rule
// allows one edit only; these pairs are two apart. From 8 letters, three edits when the names share
// their first 3 letters and their last 3: two names of a drug's length with the same beginning and
// ending and a few letters changed between them; from 7 letters, three edits also when the names
// share their first 3 letters and neither is an English word (SYNACTHEN / SYNECTHA, MIRVIVA /
// MIRIVAIR: a name respelt after the same beginning). Not for common words. Retrieved by the shape
// keys (normalize.ts, shapeKeys).
import { FOLDED_COMMON_WORDS, vowelGroups } from '../normalize.ts';
import { damerauLevenshtein } from '../similarity.ts';
import { isWord } from '../vocabulary.ts';
import { type MatchRule, spellings } from './rule.ts';

export type SameShapeReason = {
  kind: 'same_shape';
  detail: string;
  /** The compact texts compared (brand first), the letters they share at each end, and edits. */
  texts: [string, string];
  prefix: string;
  suffix: string;
  distance: number;
  syllables: number;
};

/** From this length (the brand's), names with the same first and last 3 letters may be 3 apart. */
const LONG_SHAPE = 8;
/** From this length, names that are no English words and share their first 3 letters, too. */
const RESPELT_SHAPE = 7;

/** May the names be three edits apart (else two)? */
export function threeApart(b: string, c: string, pre: number, suf: number): boolean {
  if (pre < 3) return false;
  if (b.length >= LONG_SHAPE && suf >= 3) return true;
  return b.length >= RESPELT_SHAPE && !isWord(b) && !isWord(c);
}

export const sameShape: MatchRule<SameShapeReason> = {
  kind: 'same_shape',
  score: 0.4,
  unless: ['edit_distance'],
  detect(p, m) {
    const b = p.brand.compact;
    const c = m.compact;
    if (p.shapeKeys.length === 0 || m.folded.length !== 1 || !/^[A-Z]+$/.test(c)) return null;
    if (Math.abs(b.length - c.length) > 1 || FOLDED_COMMON_WORDS.has(c)) return null;
    const syllables = vowelGroups(b);
    if (vowelGroups(c) !== syllables) return null;
    let pre = 0;
    while (pre < Math.min(b.length, c.length) && b[pre] === c[pre]) pre++;
    let suf = 0;
    while (suf < Math.min(b.length, c.length) && b[b.length - 1 - suf] === c[c.length - 1 - suf]) {
      suf++;
    }
    if (!(pre >= 3 || (pre >= 2 && suf >= 3))) return null;
    const most = threeApart(b, c, pre, suf) ? 3 : 2;
    const distance = damerauLevenshtein(b, c, most);
    if (distance === 0 || distance > most) return null;
    const prefix = b.slice(0, pre);
    const suffix = suf > 0 ? b.slice(b.length - suf) : '';
    return {
      kind: 'same_shape',
      detail: `Same beginning ${prefix}-${suf >= 3 ? `, same ending -${suffix}` : ''} and the same rhythm (${syllables} vowel groups), ${distance} letters apart: ${b} / ${c}.`,
      texts: [b, c],
      prefix,
      suffix,
      distance,
      syllables,
    };
  },
  keys(p, out) {
    for (const k of p.shapeKeys) out.tokens.add(k);
  },
  severity: (r) => [
    1,
    `the names share their beginning, ending and rhythm, as confusable drug names do, but differ in ${r.distance === 3 ? 'three' : 'two'} letters`,
  ],
  evidence(r, c) {
    const s = spellings(r.texts, [c.p.brand.plainCompact, c.m.plainCompact]);
    return [
      'The mark has the shape of the watched brand: ',
      ...s.mark,
      ' and ',
      ...s.brand,
      ` begin with ${r.prefix}${r.suffix.length >= 3 ? ` and end with ${r.suffix}` : ''}, have ${r.syllables} vowel groups each, and differ by ${r.distance} letters (${s.edits}).`,
    ];
  },
};
