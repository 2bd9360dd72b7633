import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../src/data/db.ts';
import { type ImportOptions, importRecordFiles } from '../../src/mirror/import.ts';

let counter = 0;

/** A normalized register record with sensible defaults; override what the test is about. */
export function makeRecord(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    externalId: `EM5000000${String(90_000_000 + counter)}`,
    markText: `UNRELATED MARK ${counter}`,
    ownerName: 'Some Owner GmbH',
    ownerCountryCode: 'DE',
    jurisdiction: 'EM',
    filedAt: '2026-10-01',
    status: 'filed',
    classes: [9],
    ...overrides,
  };
}

/** Imports records through the real importer (a JSON Lines file, as `marks import` reads it). */
export async function importRecords(db: Db, records: unknown[], options: ImportOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tmw-records-'));
  try {
    const file = join(dir, 'records.jsonl');
    writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    return await importRecordFiles(db, [file], options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
