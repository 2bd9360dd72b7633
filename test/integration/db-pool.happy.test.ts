import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Db, openDb } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

// With PostgreSQL, statements outside transactions wait for one of `maxConnections` permits
// (db.ts) before postgres.js sees them: many more statements than connections must all complete,
// each with its own answer, while transactions still run beside them.
describe('PostgreSQL pool: statements beyond the pool size', {
  skip: postgresOnly('PGlite has no pool'),
}, () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
    db = await openDb({ databaseUrl: database.url, dataDir: '', maxConnections: 2 });
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  it('200 concurrent statements on 2 connections all answer, each its own value', async () => {
    const pending = Array.from({ length: 200 }, (_, i) =>
      db.query<{ n: number }>('SELECT $1::int AS n, pg_sleep(0.001)', [i]),
    );
    const [inTransaction] = await db.transaction((tx) => tx.query<{ n: number }>('SELECT 7 AS n'));
    assert.equal(inTransaction?.n, 7);
    const values = await Promise.all(pending);
    assert.deepEqual(
      values.map((rows) => rows[0]?.n),
      Array.from({ length: 200 }, (_, i) => i),
    );
  });
});
