// bench:scan's tally of the incremental run's statements (bench/lib/instrument.ts, countScans),
// through the real database: what it counts as a finished scan, and the time it sums per kind of
// statement, which docs/benchmarks.md reads to say where an incremental run's time goes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countScans, statementLabel } from '../../bench/lib/instrument.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

describe('countScans', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(() => t.drop());

  it('labels a statement by its first 60 characters, whitespace collapsed', () => {
    assert.equal(statementLabel('SELECT  1\n   FROM x'), 'SELECT 1 FROM x');
    const long = `SELECT ${'a, '.repeat(40)}b FROM t`;
    assert.equal(statementLabel(long), `${long.slice(0, 60)}…`);
  });

  it('sums each kind of statement, and counts a scan when its result is recorded', async () => {
    const counted = countScans(t.db);
    await counted.db.query('SELECT 1 AS one');
    await counted.db.query('SELECT 1 AS one');
    await counted.db.query('SELECT pg_sleep(0.05)');
    // A transaction that does not lock a watch row records no scan.
    await counted.db.transaction((tx) => tx.query('SELECT 2 AS two'));
    assert.equal(counted.scanned(), 0);
    // The scanner's recording transaction begins by locking the watch's row.
    await counted.db.transaction(async (tx) => {
      await tx.query('SELECT lease_owner FROM watches WHERE id = $1 FOR UPDATE', [
        '00000000-0000-0000-0000-000000000000',
      ]);
      await tx.query('SELECT 3 AS three');
    });
    assert.equal(counted.scanned(), 1);

    const byLabel = new Map(counted.statements().map((s) => [s.label, s]));
    assert.equal(byLabel.get('SELECT 1 AS one')?.n, 2);
    assert.equal(byLabel.get('SELECT 2 AS two')?.n, 1);
    assert.equal(byLabel.get('SELECT 3 AS three')?.n, 1);
    const sleep = byLabel.get('SELECT pg_sleep(0.05)');
    assert.ok(sleep !== undefined && sleep.ms >= 50, `pg_sleep(0.05) took ${sleep?.ms} ms`);
    const recording = [...byLabel.values()].filter((s) => s.label.startsWith('('));
    assert.equal(recording.length, 1);
    assert.equal(recording[0]?.n, 1);
    // Longest first.
    const ms = counted.statements().map((s) => s.ms);
    assert.deepEqual(
      ms,
      [...ms].sort((a, b) => b - a),
    );
  });
});
