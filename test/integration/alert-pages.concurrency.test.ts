import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';

// Writers of one owner's alerts on several connections (migration 007). The version row is raised
// at commit, so two transactions that each hold one of the owner's alerts and wait for the other's
// never deadlock on it, and every commit still raises the version.
describe('alert list versions under concurrent writers', {
  skip: !process.env.DATABASE_URL && 'DATABASE_URL is not set (PGlite has one connection)',
}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  async function ownerWithAlerts(count: number) {
    const make = factories(database.db);
    const user = await make.makeUser();
    const [watch] = await database.db.query<{ id: string }>(
      `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                            scan_cadence)
       VALUES ('wat_' || md5(random()::text), $1, $1, 'trademark', 'Acme',
               '{"niceClasses":[9],"designations":["DE"]}', '{global_trademark_database}', 'daily')
       RETURNING id`,
      [user.id],
    );
    const alertIds: string[] = [];
    for (let i = 0; i < count; i += 1) alertIds.push(await make.makeAlert(watch?.id as string));
    return { ownerId: user.id, alertIds };
  }

  /** How many committed transactions changed the owner's alerts (migration 007). */
  const versionOf = async (ownerId: string) =>
    (
      await database.db.query<{ n: number }>(
        'SELECT coalesce((SELECT version FROM alert_list_versions WHERE owner_id = $1), 0)::int AS n',
        [ownerId],
      )
    )[0]?.n ?? -1;

  it('two transactions crossing on two alerts of one owner both commit, raising the version twice', async () => {
    const { ownerId, alertIds } = await ownerWithAlerts(2);
    const [a1, a2] = alertIds;
    const start = await versionOf(ownerId);
    const update = `UPDATE alerts SET state = 'read' WHERE id = $1`;

    let secondHoldsA2!: () => void;
    const holding = new Promise<void>((resolve) => {
      secondHoldsA2 = resolve;
    });
    const timeout = (what: string) =>
      sleep(5_000).then(() => {
        throw new Error(`timed out: ${what}`);
      });
    /** The first transaction queues behind the second's lock on a2 (pg_stat_activity). */
    const firstIsWaiting = async () => {
      for (let tries = 0; tries < 500; tries += 1) {
        const [row] = await database.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if ((row?.n ?? 0) > 0) return;
        await sleep(10);
      }
      throw new Error('the first transaction never waited for a2');
    };

    let second: Promise<void> | undefined;
    const first = database.db.transaction(async (tx) => {
      await tx.query(update, [a1]);
      second = database.db.transaction(async (tx2) => {
        await tx2.query(update, [a2]);
        secondHoldsA2();
        await firstIsWaiting();
      });
      await Promise.race([holding, timeout('the second transaction could not update a2')]);
      await tx.query(update, [a2]);
    });
    await first;
    await second;
    assert.equal(await versionOf(ownerId), start + 2);
  });

  it('20 concurrent single-alert writes of one owner raise its version by 20', async () => {
    const { ownerId, alertIds } = await ownerWithAlerts(20);
    const start = await versionOf(ownerId);
    await Promise.all(
      alertIds.map((id) =>
        database.db.query(`UPDATE alerts SET state = 'dismissed' WHERE id = $1`, [id]),
      ),
    );
    assert.equal(await versionOf(ownerId), start + 20);
  });
});
