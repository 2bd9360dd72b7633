import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, Queryable } from '../../src/data/db.ts';
import { matchKeys } from '../../src/matching/normalize.ts';
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

const wordCountMap = (rows: { word: string; office: string; marks: number }[]) =>
  new Map(rows.map((r) => [`${r.office}:${r.word}`, Number(r.marks)]));

/** The register's word counts (mark_words) by `office:word`, without the words no mark holds. */
export async function storedWordCounts(db: Queryable) {
  return wordCountMap(
    await db.query('SELECT word, office, marks FROM mark_words WHERE marks <> 0'),
  );
}

/** The word counts recounted from the marks: what the imports' upkeep must always equal. */
export async function recountedWordCounts(db: Queryable) {
  return wordCountMap(
    await db.query(
      `SELECT w AS word, m.jurisdiction AS office, count(*)::int AS marks
         FROM marks m,
              LATERAL (SELECT DISTINCT x AS w
                         FROM unnest(array_append(string_to_array(m.norm_text, ' '), '')) x) u
        GROUP BY 1, 2`,
    ),
  );
}

/**
 * The marks whose row in the two-edit band (mark_band) is not what their stored version makes it:
 * missing, left behind, or holding another text, classes or territory. Empty when in step.
 */
export async function bandMismatches(db: Queryable) {
  return db.query<{ id: string }>(
    `SELECT coalesce(m.id, b.id)::text AS id
       FROM (SELECT id, compact_text, compact_len, mark_class_keys(classes) AS class_keys,
                    mark_coverage_keys(jurisdiction, designations) AS coverage_keys
               FROM marks WHERE compact_len >= 8) m
       FULL JOIN mark_band b ON b.id = m.id
      WHERE (m.compact_text, m.compact_len, m.class_keys, m.coverage_keys)
            IS DISTINCT FROM (b.compact_text, b.compact_len, b.class_keys, b.coverage_keys)`,
  );
}

/**
 * The marks whose row of candidate keys (mark_keys) is not what their stored version makes it:
 * missing, left behind, holding other classes or territory, or other match keys than the current
 * matching module derives from the mark's text. Empty when in step.
 */
export async function keyMismatches(db: Queryable) {
  const rows = await db.query<{
    id: string;
    markText: string | null;
    inStep: boolean;
    tokens: string[] | null;
    soundCodes: string[] | null;
  }>(
    `SELECT coalesce(m.id, k.id)::text AS id, m.mark_text AS "markText", k.tokens,
            k.sound_codes AS "soundCodes",
            (mark_class_keys(m.classes), mark_coverage_keys(m.jurisdiction, m.designations))
              IS NOT DISTINCT FROM (k.class_keys, k.coverage_keys) AS "inStep"
       FROM marks m FULL JOIN mark_keys k ON k.id = m.id`,
  );
  return rows
    .filter((r) => {
      if (!r.inStep || r.markText === null) return true;
      const keys = matchKeys(r.markText);
      return (
        r.tokens?.join() !== keys.tokens.join() || r.soundCodes?.join() !== keys.soundCodes.join()
      );
    })
    .map((r) => ({ id: r.id }));
}

/** The candidate (GIN) indexes of the mirror as PostgreSQL prints them (an initial load drops them). */
export async function candidateIndexes(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ def: string }>(
    `SELECT indexdef AS def FROM pg_indexes
      WHERE tablename IN ('marks', 'mark_band', 'mark_keys') AND indexdef LIKE '% USING gin %'
      ORDER BY indexname`,
  );
  return rows.map((row) => row.def);
}
