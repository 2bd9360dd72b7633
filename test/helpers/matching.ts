// What the matching unit tests build again and again: a register record as the assessment reads
// it, and the check that the candidate keys retrieve a mark the decision accepts.
import assert from 'node:assert/strict';
import type { AssessedRecord } from '../../src/domain/alerts/assessment.ts';
import { type IndexedRecordRow, retrieves, watchTokens } from '../../src/matching/candidates.ts';
import type { PreparedWatch } from '../../src/matching/decide.ts';
import { matchKeys } from '../../src/matching/normalize.ts';

/** A pending US record of `markText` in `classes`, owned by a US company; `over` changes fields. */
export function assessedRecord(
  markText: string,
  classes: number[],
  over: Partial<AssessedRecord> = {},
): AssessedRecord {
  return {
    externalId: 'US90000001',
    markText,
    ownerName: 'Owner Inc.',
    ownerCountryCode: 'US',
    jurisdiction: 'US',
    designations: [],
    filedAt: '2026-01-05T00:00:00.000Z',
    status: 'pending',
    classes,
    publishedAt: null,
    ...over,
  };
}

/** Fails unless the watch's candidate keys retrieve `mark` (the indexed query would find it). */
export function assertRetrieved(p: PreparedWatch, mark: string): void {
  assert.ok(retrieves(p, new Set(watchTokens(p)), matchKeys(mark)), `${mark} not retrieved`);
}

/** A US record of `markText` in `classes` as the in-memory candidate index reads it (its keys). */
export function indexRow(id: number, markText: string, classes: number[]): IndexedRecordRow {
  const keys = matchKeys(markText);
  return {
    id,
    markText,
    live: true,
    tokens: keys.tokens,
    sound: keys.soundCodes,
    compact: keys.compact,
    len: keys.compact.length,
    classes,
    jurisdiction: 'US',
    designations: [],
  };
}
