import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import {
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
