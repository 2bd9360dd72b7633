import type { AlertOrigin } from './types.ts';

/**
 * Whether a record is a new filing or a mark that was on the register already, for a watch that
 * has been looking for it since `lookingSince` (YYYY-MM-DD, UTC: the day the watch was created or
 * last changed its name or classes). A new filing was filed, or published for opposition, on or
 * after that day; anything older is an existing mark, whichever scan meets it (the first scan's
 * search of the whole mirror, or a register loaded later). Migration 030 gave the alerts raised
 * before it their origin by the same rule.
 */
export function alertOrigin(
  record: { filedAt: string; publishedAt: string | null },
  lookingSince: string,
): AlertOrigin {
  const onOrAfter = (iso: string | null) => iso !== null && iso.slice(0, 10) >= lookingSince;
  return onOrAfter(record.filedAt) || onOrAfter(record.publishedAt)
    ? 'new_filing'
    : 'existing_mark';
}
