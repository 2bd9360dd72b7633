import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import {
  deleteMarks,
  highestChangeSeq,
  pruneMarkRemovals,
} from '../../src/data/repositories/marks.ts';
import { claimWatches, releaseAfterFailure } from '../../src/data/repositories/scans.ts';
import { createWatchService } from '../../src/domain/watches.ts';
import { MIRROR_SOURCE } from '../../src/register/sources.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';

// mark_removals keeps a record the office deleted for the scans that mark their hits on it as
// removed (migration 037). The end of every import prunes what no scan can use any more
// (pruneMarkRemovals): each case below holds one removal back by one reason only.

describe('mark_removals: pruned after an import once no scan can need a removal', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());

  const scan = (watchId: string) => testScanner(db).scan({ watchIds: [watchId] });

  /** The office deletes the record, as an import's Delete operation does (under the import lock). */
  const officeDeletes = (externalId: string) =>
    db.transaction((tx) => deleteMarks(tx, MIRROR_SOURCE, [{ externalId, asOf: null }]));

  const removalOf = async (externalId: string) =>
    (
      await db.query<{ seq: number }>(
        'SELECT change_seq::int8 AS seq FROM mark_removals WHERE external_id = $1',
        [externalId],
      )
    )[0] ?? null;

  const removedAtOfHit = async (watchId: string, externalId: string) =>
    (
      await db.query<{ at: Date | null }>(
        'SELECT removed_at AS at FROM hits WHERE watch_id = $1 AND external_id = $2',
        [watchId, externalId],
      )
    )[0]?.at;

  /** An import of an unrelated record: its end is where removals are pruned. */
  const anotherImport = () => importRecords(db, [makeRecord()]);

  it('kept while a watch has not scanned past it; pruned once every hit shows it and every watch has', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const kestrel = makeRecord({ markText: 'KESTREL' });
    await importRecords(db, [kestrel]);
    const alerted = await make.makeWatch(principal, { name: 'Kestrel', designations: ['EU'] });
    const other = await make.makeWatch(principal, { name: 'Heron', designations: ['EU'] });
    await scan(alerted.id);
    await scan(other.id);
    assert.equal(await removedAtOfHit(alerted.id, kestrel.externalId), null);

    await officeDeletes(kestrel.externalId);
    assert.ok(await removalOf(kestrel.externalId));
    await anotherImport();
    assert.ok(await removalOf(kestrel.externalId), 'the hit does not show it, nobody scanned');

    // The alerted watch's scan marks its hit removed; the other watch has not scanned since.
    await scan(alerted.id);
    assert.ok((await removedAtOfHit(alerted.id, kestrel.externalId)) instanceof Date);
    await anotherImport();
    assert.ok(
      await removalOf(kestrel.externalId),
      'kept: a watch that has not scanned past the deletion',
    );

    // Every watch has scanned past it and the only hit on it shows it: it goes.
    await scan(other.id);
    const highest = await highestChangeSeq(db);
    await anotherImport();
    assert.equal(await removalOf(kestrel.externalId), null);
    assert.ok((await highestChangeSeq(db)) >= highest, 'the sequence never goes back');
    // The hit keeps what it showed.
    assert.ok((await removedAtOfHit(alerted.id, kestrel.externalId)) instanceof Date);
  });

  it('kept while a paused watch holds a hit that does not show it, however far others scanned', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const osprey = makeRecord({ markText: 'OSPREY' });
    await importRecords(db, [osprey]);
    const paused = await make.makeWatch(principal, { name: 'Osprey', designations: ['EU'] });
    await scan(paused.id);
    assert.equal(await removedAtOfHit(paused.id, osprey.externalId), null);
    const watches = createWatchService(db);
    await watches.update(principal, paused.id, { active: false });

    await officeDeletes(osprey.externalId);
    // Every active watch of the database (the other cases' too) scans past the deletion.
    for (const { id } of await db.query<{ id: string }>('SELECT id FROM watches WHERE active')) {
      await scan(id);
    }
    await anotherImport();
    assert.ok(await removalOf(osprey.externalId), 'the paused watch still needs it');

    // Active again, its scan marks the hit removed; then nothing needs the removal.
    await watches.update(principal, paused.id, { active: true });
    await scan(paused.id);
    assert.ok((await removedAtOfHit(paused.id, osprey.externalId)) instanceof Date);
    await anotherImport();
    assert.equal(await removalOf(osprey.externalId), null);
  });

  it('a paused watch without a hit on it holds nothing back, unless a scan of it is in hand', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const crane = makeRecord({ markText: 'CRANE' });
    await importRecords(db, [crane]);
    const watches = createWatchService(db);
    const idle = await make.makeWatch(principal, { name: 'Swift', designations: ['EU'] });
    const claimed = await make.makeWatch(principal, { name: 'Wren', designations: ['EU'] });
    await scan(idle.id);
    await scan(claimed.id);
    // A worker claims one of them; both are paused before the deletion (a scan in hand still
    // commits: the claim read the mirror before the deletion, and may hold the record).
    const [inHand] = await claimWatches(
      db,
      'worker-test',
      60,
      { kind: 'ids', ids: [claimed.id] },
      1,
    );
    assert.equal(inHand?.id, claimed.id);
    await watches.update(principal, idle.id, { active: false });
    await watches.update(principal, claimed.id, { active: false });

    await officeDeletes(crane.externalId);
    for (const { id } of await db.query<{ id: string }>('SELECT id FROM watches WHERE active')) {
      await scan(id);
    }
    await anotherImport();
    assert.ok(await removalOf(crane.externalId), 'the scan in hand may still need it');
    await releaseAfterFailure(db, claimed.id, 'worker-test', 60);
    await anotherImport();
    assert.equal(await removalOf(crane.externalId), null, 'paused watches scanned before it');
  });

  it('kept while a watch awaits a full scan, which reads the mirror from its start', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const plover = makeRecord({ markText: 'PLOVER' });
    await importRecords(db, [plover]);
    await officeDeletes(plover.externalId);
    for (const { id } of await db.query<{ id: string }>('SELECT id FROM watches WHERE active')) {
      await scan(id);
    }
    const renamed = await make.makeWatch(principal, { name: 'Curlew', designations: ['EU'] });
    await scan(renamed.id);
    await createWatchService(db).update(principal, renamed.id, { name: 'Plover' });
    await anotherImport();
    assert.ok(await removalOf(plover.externalId), 'the renamed watch will scan from 0');
    await scan(renamed.id);
    await anotherImport();
    assert.equal(await removalOf(plover.externalId), null);
  });

  it('keeps the removal that holds the highest change number, and drops one whose record is back', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const [egret, ibis] = [makeRecord({ markText: 'EGRET' }), makeRecord({ markText: 'IBIS' })];
    await importRecords(db, [egret, ibis]);
    const watch = await make.makeWatch(principal, { name: 'Egret', designations: ['EU'] });
    await scan(watch.id);

    // The office deletes IBIS, then publishes it again: its removal is of no more use, even
    // though the watch has not scanned past it (its scans read the new row).
    await officeDeletes(ibis.externalId);
    await importRecords(db, [ibis]);
    assert.equal(await removalOf(ibis.externalId), null);

    // The last change of the mirror is a deletion: every watch scans past it, no hit needs it,
    // yet it stays, since the bound of the next scan is read from it.
    await officeDeletes(egret.externalId);
    for (const { id } of await db.query<{ id: string }>('SELECT id FROM watches WHERE active')) {
      await scan(id);
    }
    const highest = await highestChangeSeq(db);
    assert.equal((await removalOf(egret.externalId))?.seq, highest);
    assert.equal(await pruneMarkRemovals(db), 0);
    assert.equal(await highestChangeSeq(db), highest);
    // Once a later change holds the highest number, it goes.
    await anotherImport();
    assert.equal(await removalOf(egret.externalId), null);
  });
});
