import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import {
  CANDIDATE_IO_CONCURRENCY,
  CANDIDATE_SETTINGS,
  CANDIDATE_WORK_MEM,
} from '../../src/data/repositories/mirror-candidates.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The settings the candidate query runs with hold for its own transaction only.
describe('the candidate query transaction', () => {
  let database: TestDatabase;
  let db: Db;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());

  const workMem = async (tx: { query: Db['query'] }) =>
    (await tx.query<{ value: string }>("SELECT current_setting('work_mem') AS value"))[0]?.value;

  it('gives its bitmaps more work_mem, so that a large one stays exact', async () => {
    const inside = await db.transaction(async (tx) => {
      await tx.query(CANDIDATE_SETTINGS, ['0.3']);
      return workMem(tx);
    });
    assert.equal(inside, CANDIDATE_WORK_MEM);
  });

  // The server's value set for the transaction (SET LOCAL, undone at its end), then the query's.
  const ioConcurrency = (server: number | null) =>
    db.transaction(async (tx) => {
      if (server !== null) await tx.query(`SET LOCAL effective_io_concurrency = ${server}`);
      await tx.query(CANDIDATE_SETTINGS, ['0.3']);
      const rows = await tx.query<{ value: string }>(
        "SELECT current_setting('effective_io_concurrency') AS value",
      );
      return Number(rows[0]?.value);
    });

  it('asks for the pages of its bitmap heap scans ahead of reading them', async () => {
    assert.equal(await ioConcurrency(1), CANDIDATE_IO_CONCURRENCY);
    assert.equal(await ioConcurrency(null), CANDIDATE_IO_CONCURRENCY);
  });

  it('keeps a server value of 0 (no posix_fadvise) and a higher one', async () => {
    assert.equal(await ioConcurrency(0), 0);
    assert.equal(await ioConcurrency(200), 200);
  });

  it('leaves the connection as it was once the transaction ends', async () => {
    const before = await db.transaction((tx) => workMem(tx));
    await db.transaction(async (tx) => {
      await tx.query(CANDIDATE_SETTINGS, ['0.3']);
    });
    // PGlite has one connection; on PostgreSQL the pool's are alike, and SET LOCAL ends with the
    // transaction on whichever ran it.
    assert.equal(await db.transaction((tx) => workMem(tx)), before);
    assert.notEqual(before, CANDIDATE_WORK_MEM);
  });
});
