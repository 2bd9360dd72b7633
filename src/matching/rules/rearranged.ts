// `rearranged`: two one-word names of 5 to 12 letters written with the same letters in another
// order, two or three edits apart (SQUIRT / QUIRST): read quickly, the eye takes in the letters
// and the ear the same sounds, moved. One edit apart is the edit rule's (two neighbours swapped);
// more apart is a new name. The mark is no English or common word (the brand may be a word:
// SQUIRT), and the brand is not common in the register. Retrieved by the anagram keys
// (normalize.ts, anagramKey): the letters in alphabetical order.
import { ANAGRAM_MAX_LENGTH, anagramKey, FOLDED_COMMON_WORDS } from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import { damerauLevenshtein } from '../similarity.ts';
import { isWord } from '../vocabulary.ts';
import { measuredCommon } from '../word-weights.ts';
import { lit, type MatchRule } from './rule.ts';

export type RearrangedReason = {
  kind: 'rearranged';
  detail: string;
  /** The brand's and the mark's letters as written, and the edits between them. */
  texts: [string, string];
  distance: number;
};

const MIN_DISTANCE = 2;
const MAX_DISTANCE = 3;

/** The brand's anagram key when the rule applies to it, else null. */
function brandKey(p: PreparedWatch): string | null {
  const b = p.brand.compact;
  if (p.brand.folded.length !== 1 || p.brand.plainCompact !== b) return null;
  if (FOLDED_COMMON_WORDS.has(b) || measuredCommon(p.stats, p.brand.words[0] ?? b)) return null;
  return anagramKey(b);
}

export const rearranged: MatchRule<RearrangedReason> = {
  kind: 'rearranged',
  score: 0.4,
  detect(p, m) {
    const c = m.compact;
    if (m.folded.length !== 1 || c.length !== p.brand.compact.length || m.plainCompact !== c) {
      return null;
    }
    const key = brandKey(p);
    if (key === null || c.length > ANAGRAM_MAX_LENGTH || anagramKey(c) !== key) return null;
    if (FOLDED_COMMON_WORDS.has(c) || isWord(c)) return null;
    const b = p.brand.compact;
    const distance = damerauLevenshtein(b, c, MAX_DISTANCE + 1);
    if (distance < MIN_DISTANCE || distance > MAX_DISTANCE) return null;
    return {
      kind: 'rearranged',
      detail: `${c} is written with the letters of ${b} in another order (${distance} edits apart).`,
      texts: [b, c],
      distance,
    };
  },
  keys(p, out) {
    const key = brandKey(p);
    if (key !== null) out.tokens.add(key);
  },
  severity: () => [1, 'the mark is the brand with its letters in another order'],
  evidence: (r) => [
    'The mark ',
    lit(r.texts[1]),
    ' is written with the letters of the watched brand ',
    lit(r.texts[0]),
    `, each used as often, in another order (${r.distance} edits apart).`,
  ],
};
