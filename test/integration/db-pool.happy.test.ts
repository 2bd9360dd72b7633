import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Db, openDb } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

/** A database of its own for the suite, opened with `maxConnections`: `pool.db` in its tests. */
function poolOf(maxConnections: number): { db: Db } {
  let database: TestDatabase;
  const pool = {} as { db: Db };
  before(async () => {
    database = await createTestDatabase({ migrated: false });
    pool.db = await openDb({ databaseUrl: database.url, dataDir: '', maxConnections });
  });
  after(async () => {
    await pool.db.close();
    await database.drop();
  });
  return pool;
}

// With PostgreSQL, statements outside transactions wait for one of `maxConnections` permits
// (db.ts) before postgres.js sees them: many more statements than connections must all complete,
// each with its own answer, while transactions still run beside them.
describe('PostgreSQL pool: statements beyond the pool size', {
  skip: postgresOnly('PGlite has no pool'),
}, () => {
  const pool = poolOf(2);

  it('200 concurrent statements on 2 connections all answer, each its own value', async () => {
    const pending = Array.from({ length: 200 }, (_, i) =>
      pool.db.query<{ n: number }>('SELECT $1::int AS n, pg_sleep(0.001)', [i]),
    );
    const [inTransaction] = await pool.db.transaction((tx) =>
      tx.query<{ n: number }>('SELECT 7 AS n'),
    );
    assert.equal(inTransaction?.n, 7);
    const values = await Promise.all(pending);
    assert.deepEqual(
      values.map((rows) => rows[0]?.n),
      Array.from({ length: 200 }, (_, i) => i),
    );
  });
});

// postgres.js 3.4 leaves its row count standing when a statement fails while its rows stream
// (porsager/postgres#1119): the connection's next statement came back with empty slots before its
// rows, which reached callers as `undefined` rows (an API key lookup threw on one, a 500).
describe('PostgreSQL pool: a statement after one that failed mid-stream', {
  skip: postgresOnly('PGlite has no postgres.js connection'),
}, () => {
  const pool = poolOf(1);

  it('gets its own rows, no empty slots before them, as rows and as bytes', async () => {
    // Three rows are sent before the fourth divides by zero.
    const failing = 'SELECT i, 1 / (4 - i) AS boom FROM generate_series(1, 10) i';
    await assert.rejects(pool.db.query(failing), /division by zero/);
    const rows = await pool.db.query<{ x: number }>('SELECT x FROM generate_series(1, 5) x');
    assert.deepEqual(
      rows.map((row) => row.x),
      [1, 2, 3, 4, 5],
    );
    await assert.rejects(pool.db.query(failing), /division by zero/);
    const bytes = await pool.db.queryBytes("SELECT 'row ' || x FROM generate_series(1, 2) x");
    assert.deepEqual(
      bytes.map((b) => Buffer.from(b).toString()),
      ['row 1', 'row 2'],
    );
  });
});
