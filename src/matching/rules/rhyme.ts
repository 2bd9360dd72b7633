// `rhyme`: a one-word name and a word of a short mark that end alike, 5 letters or more, and differ
// only at the start: the brand's first one or two letters changed or replaced by a short beginning
// (PROZAC / HERBROZAC, SEROPRAM / OROPRAM), or a beginning respelt within two letters (GENTACUTAN /
// GENOCUTAN). Said aloud the marks rhyme, and the eye takes in the same long ending. Not where the
// shared ending is an English word of 5+ letters (a shared word, not a rhyme: ...FITNESS,
// ...LIGHT), nor for words or common names. Retrieved by the anchors: both words end with the same
// 5 letters, which every word of 6+ letters stores (`>` + its last 5).
import { FOLDED_COMMON_WORDS, SHORT_ANCHOR, SUFFIX_ANCHOR } from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import { damerauLevenshtein } from '../similarity.ts';
import { isWord } from '../vocabulary.ts';
import { measuredCommon } from '../word-weights.ts';
import { lit, type MatchRule, position } from './rule.ts';

export type RhymeReason = {
  kind: 'rhyme';
  detail: string;
  /** The mark's word, the ending it shares with the brand, and each one's different beginning. */
  word: string;
  ending: string;
  heads: [string, string];
  at: number;
  of: number;
};

/** The shortest brand, and word of the mark, compared: a 5-letter ending and one letter more. */
const MIN_LENGTH = SHORT_ANCHOR + 1;
/** The shortest shared ending: the length of the suffix anchor that retrieves it. */
const MIN_ENDING = SHORT_ANCHOR;
/** The brand's beginning that may change, and the mark's that may replace it (HERB for P). */
const MAX_BRAND_ONSET = 2;
const MAX_MARK_ONSET = 4;
/** A respelt beginning: the same first 2 letters, at most 2 edits apart. */
const RESPELT_SAME = 2;
const RESPELT_EDITS = 2;
/** An ending that is an English word this long is a shared word, not a rhyme. */
const WORD_ENDING = 5;
/** Marks of more words are phrases, where a word's ending is chance. */
const MAX_WORDS = 3;
const LETTERS = /^[A-Z]+$/;

/** The brand when the rule applies to it: one word of letters, 6+, neither a common word. */
function brandOf(p: PreparedWatch): string | null {
  const b = p.brand.compact;
  if (p.brand.folded.length !== 1 || p.brand.plainCompact !== b || !LETTERS.test(b)) return null;
  if (b.length < MIN_LENGTH || FOLDED_COMMON_WORDS.has(b)) return null;
  if (measuredCommon(p.stats, p.brand.words[0] ?? b)) return null;
  return b;
}

function commonEnding(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** Does the ending end with an English word of WORD_ENDING letters or more? */
function endsInWord(ending: string): boolean {
  for (let k = WORD_ENDING; k <= ending.length; k++) if (isWord(ending.slice(-k))) return true;
  return false;
}

/** Do the two beginnings differ as a rhyme does: changed at the start, or respelt? */
export function rhymingHeads(brandHead: string, markHead: string): boolean {
  if (brandHead.length <= MAX_BRAND_ONSET && markHead.length <= MAX_MARK_ONSET) return true;
  return (
    brandHead.length >= RESPELT_SAME &&
    markHead.length >= RESPELT_SAME &&
    brandHead.slice(0, RESPELT_SAME) === markHead.slice(0, RESPELT_SAME) &&
    damerauLevenshtein(brandHead, markHead, RESPELT_EDITS + 1) <= RESPELT_EDITS
  );
}

export const rhyme: MatchRule<RhymeReason> = {
  kind: 'rhyme',
  score: 0.4,
  // Only where no other likeness was found: the rhyme is the last reading of a pair.
  unless: [
    'affix',
    'edit_distance',
    'same_shape',
    'phonetic',
    'digits_as_words',
    'parts_swapped',
    'contains_brand',
    'contained_in_brand',
    'reordered',
    'shared_word',
    'near_inside',
    'fused',
    'compound',
    'contraction',
    'letter_changed',
    'shared_number',
    'rearranged',
  ],
  detect(p, m) {
    if (m.folded.length > MAX_WORDS) return null;
    const b = brandOf(p);
    if (b === null) return null;
    for (let i = 0; i < m.folded.length; i++) {
      const w = m.folded[i] as string;
      if (w.length < MIN_LENGTH || m.words[i] !== w || !LETTERS.test(w)) continue;
      if (FOLDED_COMMON_WORDS.has(w) || isWord(w)) continue;
      const s = commonEnding(b, w);
      // The whole brand at the end of the word is `fused`, not a rhyme.
      if (s < MIN_ENDING || s >= b.length) continue;
      const ending = b.slice(b.length - s);
      if (endsInWord(ending)) continue;
      const heads: [string, string] = [b.slice(0, b.length - s), w.slice(0, w.length - s)];
      if (!rhymingHeads(heads[0], heads[1])) continue;
      return {
        kind: 'rhyme',
        detail: `${w} ends with ${ending}, as ${b} does: only the beginning differs (${heads[0]} / ${heads[1] === '' ? 'none' : heads[1]}).`,
        word: w,
        ending,
        heads,
        at: i,
        of: m.words.length,
      };
    }
    return null;
  },
  keys(p, out) {
    const b = brandOf(p);
    if (b !== null) out.tokens.add(SUFFIX_ANCHOR + b.slice(b.length - MIN_ENDING));
  },
  severity: () => [1, 'the mark rhymes with the brand: the same long ending, another beginning'],
  evidence: (r, c) => [
    'The mark ',
    lit(r.word),
    ' ends with ',
    lit(r.ending),
    ', as the watched brand ',
    c.brand,
    ` does; only the beginning differs${position(r.at, r.of)}.`,
  ],
};
