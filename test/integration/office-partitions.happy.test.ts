import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db, Queryable } from '../../src/data/db.ts';
import { queryCandidates } from '../../src/data/repositories/mirror-candidates.ts';
import { prepareWatch } from '../../src/matching/decide.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';

// The candidate query's tables, mark_keys and mark_band, are partitioned by the mark's office
// (migration 038): each record's rows sit in its office's partition, follow it when its office
// changes, and a watch's query reads only the partitions of the offices that can cover it.

/** The partition of each table holding each record's rows, as "table record". */
async function placements(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ row: string }>(
    `SELECT k.tableoid::regclass::text || ' ' || m.external_id AS row
       FROM mark_keys k JOIN marks m ON m.id = k.id
     UNION ALL
     SELECT b.tableoid::regclass::text || ' ' || m.external_id
       FROM mark_band b JOIN marks m ON m.id = b.id
     ORDER BY 1`,
  );
  return rows.map((r) => r.row);
}

/**
 * The database, with the plan of every candidate query (the statement that reads `marks m`
 * through the key tables) recorded as PostgreSQL makes it for those parameters.
 */
function recordingPlans(db: Db, plans: string[]): Db {
  const explaining = (tx: Queryable): Queryable => ({
    ...tx,
    query: async (text, params) => {
      if (/FROM marks m\s+WHERE m\.id = ANY\(ARRAY\(/.test(text)) {
        const plan = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (COSTS OFF) ${text}`,
          params,
        );
        plans.push(plan.map((r) => r['QUERY PLAN']).join('\n'));
      }
      return tx.query(text, params);
    },
  });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(explaining(tx))) };
}

const partitionsIn = (plan: string) =>
  [...new Set(plan.match(/\bmark_(?:keys|band)_[a-z]+(?:_\d)?\b/g) ?? [])].sort();

describe('the candidate tables, partitioned by office', () => {
  let database: TestDatabase;
  let db: Db;
  const offices = ['US', 'EM', 'CA', 'WO', 'DE', 'CN'];
  const records = offices.map((jurisdiction) =>
    makeRecord({
      externalId: `${jurisdiction}-QUILLSTONE`,
      markText: 'QUILLSTONES',
      jurisdiction,
      classes: [9],
      ...(jurisdiction === 'WO' ? { designations: ['US', 'JP'] } : {}),
    }),
  );

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    await importRecords(db, records);
  });
  after(() => database.drop());

  it("puts each record's keys and band in its office's partition, other offices by hash", async () => {
    const placed = await placements(db);
    const partition = (table: string, id: string) =>
      placed.find((p) => p.endsWith(` ${id}`) && p.startsWith(`${table}_`))?.split(' ')[0];
    for (const table of ['mark_keys', 'mark_band']) {
      assert.equal(partition(table, 'US-QUILLSTONE'), `${table}_us`);
      assert.equal(partition(table, 'EM-QUILLSTONE'), `${table}_em`);
      assert.equal(partition(table, 'CA-QUILLSTONE'), `${table}_ca`);
      assert.equal(partition(table, 'WO-QUILLSTONE'), `${table}_wo`);
      assert.match(partition(table, 'DE-QUILLSTONE') ?? '', new RegExp(`^${table}_other_[0-3]$`));
      assert.match(partition(table, 'CN-QUILLSTONE') ?? '', new RegExp(`^${table}_other_[0-3]$`));
    }
    assert.equal(placed.length, 2 * offices.length, 'one row per record in each table');
  });

  it('reads for a US watch the US and WO partitions only, and finds what they hold', async () => {
    const plans: string[] = [];
    const watch = prepareWatch({ name: 'Quillstone', niceClasses: [9], designations: ['US'] });
    const found = await queryCandidates(recordingPlans(db, plans), watch, {
      fromSeq: 0,
      toSeq: Number.MAX_SAFE_INTEGER,
    });
    assert.deepEqual(found.map((r) => r.externalId).sort(), ['US-QUILLSTONE', 'WO-QUILLSTONE']);
    assert.equal(plans.length, 1);
    // Quillstone has 10 letters: the two-edit band is searched too.
    assert.deepEqual(partitionsIn(plans[0] ?? ''), [
      'mark_band_us',
      'mark_band_wo',
      'mark_keys_us',
      'mark_keys_wo',
    ]);
  });

  it('reads for a watch in Germany the EUIPO, WO and one hashed partition', async () => {
    const plans: string[] = [];
    const watch = prepareWatch({ name: 'Quillstone', niceClasses: [9], designations: ['DE'] });
    const found = await queryCandidates(recordingPlans(db, plans), watch, {
      fromSeq: 0,
      toSeq: Number.MAX_SAFE_INTEGER,
    });
    // The WO record designates the US and Japan, not Germany.
    assert.deepEqual(found.map((r) => r.externalId).sort(), ['DE-QUILLSTONE', 'EM-QUILLSTONE']);
    const read = partitionsIn(plans[0] ?? '');
    const hashed = read.filter((p) => p.startsWith('mark_keys_other_'));
    assert.equal(hashed.length, 1, read.join(', '));
    assert.ok(read.includes('mark_keys_em') && read.includes('mark_keys_wo'), read.join(', '));
    assert.ok(!read.some((p) => /_(us|ca)$/.test(p)), read.join(', '));
  });

  it('reads for a watch in the EU the EUIPO and WO partitions only', async () => {
    const plans: string[] = [];
    const watch = prepareWatch({ name: 'Quillstone', niceClasses: [9], designations: ['EU'] });
    const found = await queryCandidates(recordingPlans(db, plans), watch, {
      fromSeq: 0,
      toSeq: Number.MAX_SAFE_INTEGER,
    });
    assert.deepEqual(
      found.map((r) => r.externalId),
      ['EM-QUILLSTONE'],
    );
    // The query names EU beside EM (coverageSearch), which falls in the EUIPO's partition too.
    assert.deepEqual(partitionsIn(plans[0] ?? ''), [
      'mark_band_em',
      'mark_band_wo',
      'mark_keys_em',
      'mark_keys_wo',
    ]);
  });

  it("moves a record's rows when its office changes, leaving none under the old one", async () => {
    await importRecords(db, [
      makeRecord({
        externalId: 'MOVES',
        markText: 'NORTHWIND HARBOR',
        jurisdiction: 'EM',
        classes: [9],
      }),
    ]);
    assert.deepEqual(
      (await placements(db)).filter((p) => p.endsWith(' MOVES')),
      ['mark_band_em MOVES', 'mark_keys_em MOVES'],
    );
    await importRecords(db, [
      makeRecord({
        externalId: 'MOVES',
        markText: 'NORTHWIND HARBOR',
        jurisdiction: 'CA',
        classes: [9],
      }),
    ]);
    assert.deepEqual(
      (await placements(db)).filter((p) => p.endsWith(' MOVES')),
      ['mark_band_ca MOVES', 'mark_keys_ca MOVES'],
    );
  });
});
