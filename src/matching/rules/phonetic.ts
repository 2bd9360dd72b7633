// `phonetic`: the mark sounds like the brand: one Double Metaphone code and the same spelling
// skeleton (a vowel shift tolerated in long marks), or so in the plural (SEYCOS for SEIKO). From 4
// letters, or 3 whose X is said as two sounds (NIX / NICKS).
// Retrieved by the skeleton key of the whole mark where the skeletons must be equal (below 8
// letters, or a short distinctive part), by the sound codes otherwise.
import { respellingsBetween } from '../explain.ts';
import {
  PHONETIC_MIN_LENGTH,
  SKELETON_KEY,
  soundedWhole,
  wholeMarkPhoneticCodes,
} from '../normalize.ts';
import { type PreparedWatch, skeletonEditsAllowed } from '../prepare.ts';
import { damerauLevenshtein, phoneticSkeleton } from '../similarity.ts';
import { type EvidencePiece, lit, type MatchRule } from './rule.ts';

export type PhoneticReason = {
  kind: 'phonetic';
  detail: string;
  code: string;
  /** The spelling skeletons of the brand and of the mark (without its plural S). */
  skeletons: [string, string];
  /** The mark is a sound-alike with a plural S (SEYCOS for SEIKO). */
  plural: boolean;
};

/**
 * Whether the brand only matches a mark of its own spelling skeleton: its distinctive part is short
 * (see edit_distance), or its skeleton is too short for any edit (skeletonEditsAllowed).
 */
function exactSkeleton(p: PreparedWatch): boolean {
  return p.shortDistinctive.length > 0 || skeletonEditsAllowed(p.skeleton.length) === 0;
}

function soundsAlike(p: PreparedWatch, letters: string): PhoneticReason | null {
  const sk = phoneticSkeleton(letters);
  const allowed = exactSkeleton(p)
    ? 0
    : skeletonEditsAllowed(Math.min(sk.length, p.skeleton.length));
  if (Math.abs(sk.length - p.skeleton.length) > allowed) return null;
  if (damerauLevenshtein(p.skeleton, sk, allowed) > allowed) return null;
  const code = wholeMarkPhoneticCodes(letters).find((c) => p.codes.includes(c));
  if (code === undefined) return null;
  return {
    kind: 'phonetic',
    detail: `Sounds the same: Double Metaphone ${code}, spelling skeletons ${p.skeleton} / ${sk}.`,
    code,
    skeletons: [p.skeleton, sk],
    plural: false,
  };
}

export const phonetic: MatchRule<PhoneticReason> = {
  kind: 'phonetic',
  score: 0.8,
  relatedClassKeys: true,
  detect(p, m) {
    if (p.codes.length === 0 || !soundedWhole(m.letters)) return null;
    const same = soundsAlike(p, m.letters);
    if (same !== null) return same;
    // The plural of a sound-alike (SEYCOS for SEIKO): the mark without its final S sounds the same.
    const singular = m.letters.slice(0, -1);
    if (!m.letters.endsWith('S') || p.brand.letters.endsWith('S')) return null;
    // The brand's own plural is the affix rule's.
    if (singular.length < PHONETIC_MIN_LENGTH || singular === p.brand.letters) return null;
    const plural = soundsAlike(p, singular);
    if (plural === null) return null;
    return { ...plural, detail: `Sounds the same in the plural: ${plural.detail}`, plural: true };
  },
  keys(p, out) {
    if (p.codes.length === 0) return;
    // A brand that only matches an equal skeleton sends that skeleton, which the record stores for
    // itself and for itself without a final S (wholeSkeletonKeys): a few records share it, where a
    // code such as NK for NIKE retrieved hundreds to keep none but NIKE's own skeleton.
    if (exactSkeleton(p)) {
      out.tokens.add(SKELETON_KEY + p.skeleton);
      return;
    }
    // The plural of a sound-alike ends its code with S (SK / SKS): sent too.
    out.phonetic.push(...p.codes);
    if (!p.brand.letters.endsWith('S')) out.phonetic.push(...p.codes.map((c) => `${c}S`));
  },
  severity: (_r, { p, distinctive }) =>
    distinctive && p.brand.letters === p.brand.compact
      ? [3, 'the mark sounds the same as a distinctive brand']
      : [2, 'the mark sounds the same as the brand, whose common words or digits weigh less'],
  evidence(r, c) {
    const respelt = respellingsBetween(c.p.brand.letters, c.m.letters);
    // The letters compared are the marks read as letters (a look-alike digit as its letter).
    const said = (written: string, letters: string): EvidencePiece[] =>
      written === letters ? [lit(written)] : [lit(written), ' (read as ', lit(letters), ')'];
    return [
      r.plural
        ? 'The mark sounds like the watched brand in the plural: '
        : 'The mark sounds like the watched brand: ',
      ...said(c.m.plainCompact, c.m.letters),
      ' and ',
      ...said(c.p.brand.plainCompact, c.p.brand.letters),
      ` are pronounced alike${respelt.length > 0 ? ` (reading ${respelt.join(', ')})` : ''}; both reduce to the spelling skeleton `,
      lit(r.skeletons[1]),
      ` and share the Double Metaphone code ${r.code}.`,
    ];
  },
};
