// `digits_as_words`: read aloud, a digit is a word (TRUE1 is TRUE ONE), so TRUONE, TRUE ONE and
// TRU1 are near forms of TRUE1 that the letters alone hide. The brand and the mark read aloud
// (spokenDigits; a side without a digit is read as written) are the same, one edit apart, or of
// one spelling skeleton and sound code. Numbers of two digits or more are quantities, not words.
// Retrieved by the brand's spoken text, its one-edit texts and its sound codes, and by the spoken
// text, anchors and sound codes that a record with a digit stores (matchKeys).
import { describeEdits } from '../explain.ts';
import {
  oneEditVariants,
  PHONETIC_MIN_LENGTH,
  spokenDigits,
  wholeMarkPhoneticCodes,
} from '../normalize.ts';
import { damerauLevenshtein, phoneticSkeleton } from '../similarity.ts';
import { lit, type MatchRule } from './rule.ts';

export type DigitsAsWordsReason = {
  kind: 'digits_as_words';
  detail: string;
  /** Brand and mark as read aloud, digits as words (TRUEONE / TRUONE). */
  texts: [string, string];
  /** Read aloud they are the same, one letter apart, or the same in sound. */
  how: 'same' | 'edit' | 'sound';
};

export const digitsAsWords: MatchRule<DigitsAsWordsReason> = {
  kind: 'digits_as_words',
  score: 0.75,
  unless: ['edit_distance', 'phonetic'],
  detect(p, m) {
    const markSpoken = spokenDigits(m);
    if (p.spoken === null && markSpoken === null) return null;
    const a = p.spoken ?? p.brand.compact;
    const b = markSpoken ?? m.compact;
    if (a.length < PHONETIC_MIN_LENGTH || b.length < PHONETIC_MIN_LENGTH) return null;
    let how: 'same' | 'edit' | 'sound' | null = null;
    if (a === b) how = 'same';
    else if (Math.abs(a.length - b.length) <= 1 && damerauLevenshtein(a, b, 1) === 1) how = 'edit';
    else if (
      /^[A-Z]+$/.test(a) &&
      /^[A-Z]+$/.test(b) &&
      phoneticSkeleton(a) === phoneticSkeleton(b) &&
      wholeMarkPhoneticCodes(a).some((c) => wholeMarkPhoneticCodes(b).includes(c))
    ) {
      how = 'sound';
    }
    if (how === null) return null;
    const said =
      how === 'same' ? 'the same' : how === 'edit' ? 'one letter apart' : 'alike in sound';
    return {
      kind: 'digits_as_words',
      detail: `Read aloud with digits as words, ${a} and ${b} are ${said}.`,
      texts: [a, b],
      how,
    };
  },
  keys(p, out) {
    if (p.spoken === null) return;
    out.tokens.add(p.spoken);
    out.nearWords.push(...oneEditVariants(p.spoken));
    out.phonetic.push(...wholeMarkPhoneticCodes(p.spoken));
  },
  severity: (r, { distinctive }) =>
    r.how === 'same' && distinctive
      ? [3, 'read aloud, with its digits as words, the mark is the distinctive brand']
      : [2, 'read aloud, with digits as words, the mark is a near form of the brand'],
  evidence(r, c) {
    const [a, b] = r.texts;
    const said =
      r.how === 'same'
        ? 'the same'
        : r.how === 'edit'
          ? `one letter apart (${describeEdits(a, b)})`
          : 'pronounced alike';
    return [
      'Read aloud with its digits as words, the mark ',
      lit(c.mark),
      ' reads as ',
      lit(b),
      ' and the watched brand ',
      c.brand,
      ' reads as ',
      lit(a),
      `: ${said}.`,
    ];
  },
};
