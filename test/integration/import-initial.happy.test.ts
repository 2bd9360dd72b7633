import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { beginInitialLoad, finishInitialLoad } from '../../src/data/repositories/initial-load.ts';
import { ApiError } from '../../src/domain/errors.ts';
import type { Principal } from '../../src/domain/principal.ts';
import type { Scanner } from '../../src/scan/scanner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import {
  bandMismatches,
  importRecords,
  candidateIndexes as indexesOf,
  keyMismatches,
  makeRecord,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';

// `marks import --initial`: a first load without the candidate indexes, built at its end.
describe('an initial load of the register mirror', () => {
  let database: TestDatabase;
  let db: Db;
  let scanner: Scanner;
  let principal: Principal;
  /** The candidate (GIN) indexes of the mirror as the migrations made them. */
  let migratedIndexes: string[];

  const candidateIndexes = () => indexesOf(db);
  const loading = async () => (await db.query('SELECT 1 FROM mirror_initial_load')).length === 1;
  const register = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      makeRecord({ markText: `${['ZENITH', 'ORBIT', 'LUMEN'][i % 3]} ${i}` }),
    );

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    scanner = testScanner(db);
    migratedIndexes = await candidateIndexes();
    assert.ok(migratedIndexes.length >= 3, 'the migrations made the candidate indexes');
  });
  after(() => database.drop());

  beforeEach(async () => {
    await db.query('DELETE FROM webhook_deliveries');
    await db.query('DELETE FROM email_outbox');
    await db.query('DELETE FROM alerts');
    await db.query('DELETE FROM hits');
    await db.query('DELETE FROM scan_runs');
    await db.query('DELETE FROM watches');
    await db.query('DELETE FROM marks');
    await db.query('DELETE FROM mark_words');
    ({ principal } = await factories(db).makeOwner({ tier: 'team' }));
  });

  it('loads the records, then builds the same candidate indexes and counts the words once', async () => {
    const conflicting = makeRecord({ markText: 'NORTHWYND' });
    const summary = await importRecords(db, [...register(30), conflicting], {
      initial: true,
      batchSize: 4,
    });
    assert.equal(summary.imported, 31);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.equal(await loading(), false);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await bandMismatches(db), []);
    assert.deepEqual(await keyMismatches(db), []);
    const watch = await factories(db).makeWatch(principal, { name: 'Northwind' });
    await scanner.scan({ watchIds: [watch.id] });
    const [alert] = await db.query<{ id: string }>(
      'SELECT h.external_id AS id FROM alerts a JOIN hits h ON h.id = a.hit_id WHERE a.watch_id = $1',
      [watch.id],
    );
    assert.equal(alert?.id, conflicting.externalId);
  });

  it('is refused on a mirror that holds records, which it leaves as it was', async () => {
    await importRecords(db, register(3));
    await assert.rejects(
      importRecords(db, register(3), { initial: true }),
      (error) => error instanceof ApiError && /empty register mirror/.test(error.message),
    );
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.equal(await loading(), false);
    assert.equal((await db.query('SELECT 1 FROM marks')).length, 3);
  });

  it('stopped halfway, it leaves the mirror marked as loading: no scan, no other import, until it is run again', async () => {
    const records = [...register(3000), makeRecord({ markText: 'NORTHWYND' })];
    const controller = new AbortController();
    await assert.rejects(
      importRecords(db, records, {
        initial: true,
        batchSize: 200,
        signal: controller.signal,
        // Stopped once part of the file is read: the batches written so far stay.
        onProgress: ({ bytesRead, totalBytes }) => {
          if (bytesRead > totalBytes / 2) controller.abort();
        },
      }),
    );
    const written = (await db.query('SELECT 1 FROM marks')).length;
    assert.ok(written > 0 && written < records.length, `${written} of ${records.length} written`);
    assert.equal(await loading(), true);
    assert.deepEqual(await candidateIndexes(), [], 'no index half built');

    const watch = await factories(db).makeWatch(principal, { name: 'Northwind' });
    // The due watch is not claimed by the background queue, and `tmwatch scan` refuses.
    assert.deepEqual(await scanner.queue.claim(1), []);
    await assert.rejects(
      scanner.scan({ watchIds: [watch.id] }),
      (error) =>
        error instanceof ApiError && /initial load .* has not finished/.test(error.message),
    );
    await assert.rejects(
      importRecords(db, register(2)),
      (error) =>
        error instanceof ApiError && /initial load .* has not finished/.test(error.message),
    );

    // Run again with the same files: it resumes, and ends as a load that never stopped.
    await importRecords(db, records, { initial: true, batchSize: 200 });
    assert.equal(await loading(), false);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.equal((await db.query('SELECT 1 FROM marks')).length, records.length);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    const totals = await scanner.scan({ watchIds: [watch.id] });
    assert.equal(totals.alertsCreated, 1);
  });

  it('a finish that fails in part builds nothing and counts nothing, and the load finishes when run again', async () => {
    // With PostgreSQL the match-key index is built on one connection while the others and the word
    // count run on a second: a failure on the second must leave the row, and no index, behind.
    assert.equal((await beginInitialLoad(db)).outcome, 'started');
    await importRecords(db, register(40), { partOfInitialLoad: true, batchSize: 16 });
    const [state] = await db.query<{ definitions: string[] }>(
      'SELECT index_definitions AS definitions FROM mirror_initial_load',
    );
    const definitions = state?.definitions ?? [];
    const broken =
      'CREATE INDEX mark_band_broken_idx ON public.mark_band USING gin (no_such_column)';
    await db.query('UPDATE mirror_initial_load SET index_definitions = $1::text[]', [
      [...definitions, broken],
    ]);
    await assert.rejects(finishInitialLoad(db), /no_such_column/);
    assert.equal(await loading(), true, 'the load is left to finish');
    assert.deepEqual(await candidateIndexes(), [], 'no index built');
    assert.equal((await storedWordCounts(db)).size, 0, 'no word counted');
    const watch = await factories(db).makeWatch(principal, { name: 'Zenith' });
    assert.deepEqual(await scanner.queue.claim(1), [], 'no scan of the unfinished mirror');

    await db.query('UPDATE mirror_initial_load SET index_definitions = $1::text[]', [definitions]);
    await finishInitialLoad(db);
    assert.equal(await loading(), false);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await keyMismatches(db), []);
    const totals = await scanner.scan({ watchIds: [watch.id] });
    assert.ok(totals.alertsCreated > 0);
  });
});
