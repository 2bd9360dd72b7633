// The same distinctive mark in any class: a record whose text is the watched brand itself (the
// identity rules `exact`, `normalized`, `confusable`: the same to the eye) is a candidate whatever
// its classes, when the brand is distinctive. Pure, no I/O. docs/matching.md ("The same mark in
// any class") explains why and what it adds to the alerts per watch.
//
// Why a lawyer wants it: tribunals have found identical marks confusing for goods no class table
// relates, where the public would assume a licence or sponsorship (Scarves by Vera, Inc. v. Todo
// Imports Ltd., 544 F.2d 1167 (2d Cir. 1976): VERA scarves / VERA cosmetics; Remo Imports Ltd. v.
// Jaguar Cars Ltd., 2006 FC 21: JAGUAR cars / JAGUAR luggage), and an identical mark with a reputation is protected beyond similar goods: in the
// EU, Article 8(5) of Regulation (EU) 2017/1001 (the EUTMR); in the US, dilution, 15 U.S.C.
// §1125(c). Whether the watched brand has that reputation is for its owner to say; the watch
// cannot know it, so it shows the identical filings and rates them as weaker evidence than goods
// that meet. Common words (GOLD, LIFE) and words common in the register are left out: the same
// common word in another class is coexistence, not a conflict.
import { niceClassHeading } from './nice-classes.ts';
import { isDistinctiveBrand, type PreparedWatch } from './prepare.ts';

/** The text reasons that make a record the brand itself: the same text to the eye. */
export const IDENTITY_KINDS: ReadonlySet<string> = new Set(['exact', 'normalized', 'confusable']);

/**
 * Does this watch see its brand's identical filings in every class: related classes on (the watch
 * attribute that widens the search beyond its own classes), a distinctive brand (4+ characters,
 * not only common words) with at least one word that is not weak in the register.
 */
export function watchesAnyClass(p: PreparedWatch): boolean {
  return p.relatedClasses && isDistinctiveBrand(p) && p.weighty.length > 0;
}

/**
 * The keys that retrieve the brand's identical filings in any class: its compact and look-alike
 * forms, which every record stores among its tokens (an identical record's compact form is one of
 * them), at the brand's compact length (the identity rules keep it). Empty when the watch does not
 * look beyond its classes. The SQL query (data/repositories/mirror-candidates.ts) and the in-memory
 * index (candidates.ts) both read these.
 */
export function anyClassForms(p: PreparedWatch): string[] {
  if (!watchesAnyClass(p) || p.brand.compact === '') return [];
  return [...new Set([p.brand.compact, p.brand.lookalike])];
}

/** Do a record's stored keys make it a candidate in any class (anyClassForms)? */
export function retrievedInAnyClass(
  p: PreparedWatch,
  record: { tokens: readonly string[]; compact: string },
): boolean {
  if (record.compact.length !== p.brand.compact.length) return false;
  const forms = anyClassForms(p);
  return forms.length > 0 && record.tokens.some((t) => forms.includes(t));
}

/** The rationale's sentence on an identical mark in classes the watch neither has nor relates. */
export function anyClassSentence(
  watchClasses: readonly number[],
  recordClasses: readonly number[],
): string {
  const named = (xs: readonly number[]) =>
    `class${xs.length > 1 ? 'es' : ''} ${xs.map((c) => `${c} (${niceClassHeading(c) ?? 'unknown class'})`).join('; ')}`;
  return `No Nice class is shared, and the goods are not among those tribunals have found related: ${named(watchClasses)} watched, ${named(recordClasses)} for this record. It is raised because the mark is the watched brand itself, and the brand is distinctive: an identical mark can conflict beyond similar goods where the earlier mark has a reputation (in the EU, Article 8(5) EUTMR; in the US, dilution under 15 U.S.C. §1125(c)), and courts have found identical marks confusing on goods far apart where the public would assume a licence or sponsorship. Whether it matters turns on the reputation of the watched brand and on this record's goods, so the severity is at most medium.`;
}
