import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { alertListChanges, ownerWithAlerts } from '../helpers/alert-lists.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

// Writers of one owner's alerts on several connections (migration 007). The version row is raised
// at commit, so two transactions that each hold one of the owner's alerts and wait for the other's
// never deadlock on it, and every commit still raises the version.
describe('alert list versions under concurrent writers', {
  skip: postgresOnly('PGlite has one connection'),
}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  const versionOf = (ownerId: string) => alertListChanges(database.db, ownerId);

  it('two transactions crossing on two alerts of one owner both commit, raising the version twice', async () => {
    const { ownerId, alertIds } = await ownerWithAlerts(database.db, 2);
    const [a1, a2] = alertIds;
    const start = await versionOf(ownerId);
    const update = `UPDATE alerts SET state = 'read' WHERE id = $1`;

    let secondHoldsA2!: () => void;
    const holding = new Promise<void>((resolve) => {
      secondHoldsA2 = resolve;
    });
    /** The first transaction queues behind the second's lock on a2 (pg_stat_activity). */
    const firstIsWaiting = () =>
      eventually(
        'the first transaction to wait for a2',
        async () => {
          const [row] = await database.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return (row?.n ?? 0) > 0;
        },
        { timeoutMs: 5_000, everyMs: 10 },
      );

    let second: Promise<void> | undefined;
    const first = database.db.transaction(async (tx) => {
      await tx.query(update, [a1]);
      second = database.db.transaction(async (tx2) => {
        await tx2.query(update, [a2]);
        secondHoldsA2();
        await firstIsWaiting();
      });
      // An unref'd timer that resolves, not rejects: once the race is decided it must neither
      // hold the test process nor fail it later.
      const outcome = await Promise.race([
        holding.then(() => 'held' as const),
        sleep(5_000, 'timed out' as const, { ref: false }),
      ]);
      if (outcome !== 'held')
        throw new Error('timed out: the second transaction could not update a2');
      await tx.query(update, [a2]);
    });
    await first;
    await second;
    assert.equal(await versionOf(ownerId), start + 2);
  });

  it('20 concurrent single-alert writes of one owner raise its version by 20', async () => {
    const { ownerId, alertIds } = await ownerWithAlerts(database.db, 20);
    const start = await versionOf(ownerId);
    await Promise.all(
      alertIds.map((id) =>
        database.db.query(`UPDATE alerts SET state = 'dismissed' WHERE id = $1`, [id]),
      ),
    );
    assert.equal(await versionOf(ownerId), start + 20);
  });
});
