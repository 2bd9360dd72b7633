import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { createWatchService } from '../../src/domain/watches.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';

// A watch starts looking when it is created, and again when its name or classes change: what was
// on the register by then is an existing mark, whichever scan meets it.

describe('alert origin: the day a watch started looking', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());

  const scan = (watchId: string) => testScanner(db).scan({ watchIds: [watchId] });

  const originOf = async (watchId: string, mark: string) => {
    const [row] = await db.query<{ origin: string }>(
      `SELECT a.origin FROM alerts a JOIN hits h ON h.id = a.hit_id
        WHERE a.watch_id = $1 AND h.display_name = $2`,
      [watchId, mark],
    );
    return row?.origin;
  };

  it('a rename restarts the watch: marks filed before it are existing, those after its creation new', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    await importRecords(db, [
      makeRecord({ markText: 'KESTREL', filedAt: '2026-06-01' }),
      makeRecord({ markText: 'OSPREY', filedAt: '2026-06-01' }),
    ]);
    const watch = await make.makeWatch(principal, { name: 'Kestrel', designations: ['EU'] });
    // A watch made in January (its creation day is all the origin reads of it).
    await db.query(`UPDATE watches SET created_at = '2026-01-15T09:00:00Z' WHERE id = $1`, [
      watch.id,
    ]);
    await scan(watch.id);
    assert.equal(await originOf(watch.id, 'KESTREL'), 'new_filing');

    await createWatchService(db).update(principal, watch.id, { name: 'Osprey' });
    await scan(watch.id);
    assert.equal(await originOf(watch.id, 'OSPREY'), 'existing_mark');
  });

  it('a change of cadence or designations does not restart the watch; one of classes does', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const watch = await make.makeWatch(principal, { name: 'Heron', niceClasses: [9] });
    const service = createWatchService(db);
    const changedAt = async () =>
      (
        await db.query<{ at: Date | null }>(
          'SELECT criteria_changed_at AS at FROM watches WHERE id = $1',
          [watch.id],
        )
      )[0]?.at ?? null;
    await service.update(principal, watch.id, { scanCadence: 'weekly' });
    await service.update(principal, watch.id, {
      attributes: { niceClasses: [9], designations: ['FR'], relatedClasses: true },
    });
    assert.equal(await changedAt(), null);
    await service.update(principal, watch.id, {
      attributes: { niceClasses: [9, 42], designations: ['FR'], relatedClasses: true },
    });
    assert.ok((await changedAt()) instanceof Date);
  });
});
