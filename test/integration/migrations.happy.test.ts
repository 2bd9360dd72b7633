import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listMigrations, migrate } from '../../src/data/migrate.ts';
import { alertListChanges, ownerWithAlerts } from '../helpers/alert-lists.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';

// Upgrading a database that already holds data: migrations are forward-only and run on a live
// install's rows, not only on the empty database every other test starts from.

describe('migrations: upgrading a database with data', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('004 gives alerts recorded before it the same JSON as alerts recorded after it', async () => {
    const { db } = database;
    const before004 = listMigrations().filter((m) => m.version < '004');
    for (const migration of before004) await db.exec(migration.sql);

    const make = factories(db);
    const { watchId } = await ownerWithAlerts(db, 0);
    const oldAlert = await make.makeAlert(watchId, { markText: 'ACME ONE' });
    await db.query(
      `UPDATE alerts SET state = 'read', emailed_at = '2026-11-02T08:00:00.5Z' WHERE id = $1`,
      [oldAlert],
    );

    // Now the rest, as migrate() applies them on the next start (it records 001–003 as well).
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before004) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    const applied = await migrate(db);
    assert.ok(applied.includes('004_alert_api_json'), applied.join(', '));

    const newAlert = await make.makeAlert(watchId, { markText: 'ACME TWO' });
    await db.query(
      `UPDATE alerts SET state = 'read', emailed_at = '2026-11-02T08:00:00.5Z' WHERE id = $1`,
      [newAlert],
    );
    const rows = await db.query<{ id: string; api_json: string }>(
      'SELECT id, api_json FROM alerts WHERE id = ANY($1::text[])',
      [[oldAlert, newAlert]],
    );
    const json = new Map(rows.map((r) => [r.id, JSON.parse(r.api_json)]));
    const older = json.get(oldAlert);
    const newer = json.get(newAlert);
    assert.equal(older.id, oldAlert);
    assert.equal(older.state, 'read');
    assert.equal(older.emailedAt, '2026-11-02T08:00:00.500Z');
    assert.equal(older.hit.displayName, 'ACME ONE');
    assert.deepEqual(older.hit.rawPayload, {
      externalId: older.hit.externalId,
      markText: 'ACME ONE',
    });
    // Apart from what differs by construction, the two objects are alike key for key, in order.
    const strip = (a: Record<string, unknown>) => ({
      ...a,
      id: null,
      createdAt: null,
      hit: {
        ...(a.hit as object),
        id: null,
        externalId: null,
        displayName: null,
        rawPayload: null,
      },
    });
    assert.deepEqual(Object.keys(older), Object.keys(newer));
    assert.deepEqual(Object.keys(older.hit), Object.keys(newer.hit));
    assert.deepEqual(strip(older), strip(newer));
  });
});

describe('migrations: 007 on a database that holds alerts', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('owners with alerts start at list version 1, others at 0, and the next write raises it', async () => {
    const { db } = database;
    const before007 = listMigrations().filter((m) => m.version < '007');
    for (const migration of before007) await db.exec(migration.sql);
    const withAlerts = await ownerWithAlerts(db, 2);
    const without = await factories(db).makeUser();
    const alertId = withAlerts.alertIds[0];

    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before007) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    // 007 and whatever later migrations exist; the test is about 007.
    assert.equal((await migrate(db))[0], '007_alert_list_versions');

    assert.equal(await alertListChanges(db, withAlerts.ownerId), 1);
    assert.equal(await alertListChanges(db, without.id), 0);
    await db.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [alertId]);
    assert.equal(await alertListChanges(db, withAlerts.ownerId), 2);
  });
});
