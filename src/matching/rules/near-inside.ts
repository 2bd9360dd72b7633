// `near_inside`: a near form of the brand (one character edit, a plural, or the same sound) as a
// word or two adjacent words of a longer mark (STARBUCKS COFFEE for STARBUCK, NIKEE RUNNING for
// NIKE). The brand's own words in sequence are `contains_brand`. The common-word guard of the edit
// rule holds here too. Retrieved by nearWords and the `~` neighbourhoods (edit_distance's keys),
// the anchors (fused's) and the skeleton key sent here.
import {
  analyzeMark,
  FOLDED_COMMON_WORDS,
  MAX_SOUNDED_WORDS,
  type MarkAnalysis,
  PHONETIC_MIN_LENGTH,
  SKELETON_KEY,
  wholeMarkPhoneticCodes,
} from '../normalize.ts';
import {
  isPluralOf,
  keepsShortDistinctive,
  NEAR_EDIT_MIN_LENGTH,
  NEAR_MAX_LENGTH,
  NEAR_MIN_LENGTH,
  type PreparedWatch,
} from '../prepare.ts';
import { damerauLevenshtein, phoneticSkeleton } from '../similarity.ts';
import { lit, type MatchRule, position, quote, spellings } from './rule.ts';

export type NearInsideReason = {
  kind: 'near_inside';
  detail: string;
  /** The mark's words that form the near form, and its compact text. */
  words: string[];
  form: string;
  /** One character edit, a plural (-S, -ES, -Y/-IES), or the same sound. */
  how: 'edit' | 'plural' | 'sound';
  at: number;
  of: number;
};

type How = NearInsideReason['how'];

/** How the words i .. i+size-1 of the mark are a near form of the brand, or null. */
function nearForm(
  p: PreparedWatch,
  m: MarkAnalysis,
  i: number,
  size: number,
  sounded: boolean,
): { form: string; how: How } | null {
  const b = p.brand.compact;
  const form = size === 1 ? (m.folded[i] as string) : `${m.folded[i]}${m.folded[i + 1]}`;
  // A common word is not a near form of a brand (KSHOP / SHOP, SERVIS / SERVICE).
  if (form === b || p.wordDrops.has(form) || FOLDED_COMMON_WORDS.has(form)) return null;
  if (isPluralOf(form, b)) return { form, how: 'plural' };
  if (b.length < NEAR_EDIT_MIN_LENGTH) {
    // Below 5 characters one edit inside a longer mark is mostly another word (VINN / INN,
    // NOMO / NOMI): only the brand with one more letter at its end (NIKEE) is reported.
    return form.length === b.length + 1 && form.startsWith(b) ? { form, how: 'edit' } : null;
  }
  if (
    Math.abs(form.length - b.length) <= 1 &&
    damerauLevenshtein(b, form, 1) === 1 &&
    keepsShortDistinctive(p, form, m.folded.slice(i, i + size))
  ) {
    return { form, how: 'edit' };
  }
  if (!sounded || p.shortDistinctive.length > 0) return null;
  const letters =
    size === 1 ? (m.letterWords[i] as string) : `${m.letterWords[i]}${m.letterWords[i + 1]}`;
  return letters.length >= PHONETIC_MIN_LENGTH &&
    phoneticSkeleton(letters) === p.skeleton &&
    wholeMarkPhoneticCodes(letters).some((c) => p.codes.includes(c))
    ? { form, how: 'sound' }
    : null;
}

const SAID: Record<How, string> = {
  edit: 'The mark holds a form of the brand one character edit away',
  plural: 'The mark holds the brand in the plural',
  sound: 'The mark holds a form of the brand that sounds the same',
};

export const nearInside: MatchRule<NearInsideReason> = {
  kind: 'near_inside',
  score: 0.55,
  detect(p, m) {
    const b = p.brand.compact;
    const n = m.folded.length;
    if (n < 2 || b.length < NEAR_MIN_LENGTH || b.length > NEAR_MAX_LENGTH) return null;
    // Digits the letters leave out (OCEAN 47) are part of what the brand sounds like.
    const sounded = p.codes.length > 0 && n <= MAX_SOUNDED_WORDS && p.brand.letters === b;
    // A near form spans two words only for a brand of two or more words (DE SANT is not DESAIT).
    const maxSize = p.brand.folded.length >= 2 ? 2 : 1;
    for (let i = 0; i < n; i++) {
      for (let size = 1; size <= maxSize && i + size <= n; size++) {
        if (size === n) continue;
        const near = nearForm(p, m, i, size, sounded);
        if (near === null) continue;
        const words = m.words.slice(i, i + size);
        return {
          kind: 'near_inside',
          detail: `${SAID[near.how]}: ${quote(words)}.`,
          words,
          form: near.form,
          how: near.how,
          at: i,
          of: n,
        };
      }
    }
    return null;
  },
  keys(p, out) {
    // By sound: a word or two of the mark with the brand's spelling skeleton.
    if (
      p.codes.length > 0 &&
      p.brand.letters === p.brand.compact &&
      p.shortDistinctive.length === 0
    ) {
      out.tokens.add(SKELETON_KEY + p.skeleton);
    }
  },
  // The brand with a plural or possessive S as the mark's first word (VOLKS PILS for VOLK).
  takesBrandWhole: (r) => r.how === 'plural' && r.at === 0,
  severity: (r, { distinctive }) =>
    distinctive && r.at === 0
      ? [2, 'a near form of the distinctive brand opens the mark']
      : [1, 'a near form of the brand stands inside a longer mark'],
  evidence(r, c) {
    const evidence =
      r.how === 'plural'
        ? 'the brand in the plural'
        : r.how === 'sound'
          ? 'a form that sounds like the brand'
          : `a form one letter away from the brand (${spellings([c.p.brand.compact, r.form], [c.p.brand.plainCompact, analyzeMark(r.words.join(' ')).plainCompact]).edits})`;
    return ['The mark holds ', evidence, ': ', lit(r.words.join(' ')), `${position(r.at, r.of)}.`];
  },
};
