import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../src/data/db.ts';
import { deleteMarks, highestChangeSeq } from '../../src/data/repositories/marks.ts';
import { CLASSES_NOT_PUBLISHED } from '../../src/domain/alerts/assessment.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { createWatchService } from '../../src/domain/watches.ts';
import { MIRROR_SOURCE } from '../../src/register/sources.ts';
import type { Scanner } from '../../src/scan/scanner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories, principalFor } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';

describe('scans', () => {
  let database: TestDatabase;
  let db: Db;
  let scanner: Scanner;
  let principal: Principal;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    scanner = testScanner(db);
  });
  after(() => database.drop());

  beforeEach(async () => {
    // Every test starts from an empty register and a new owner.
    await db.query('DELETE FROM email_outbox');
    await db.query('DELETE FROM alerts');
    await db.query('DELETE FROM hits');
    await db.query('DELETE FROM scan_runs');
    await db.query('DELETE FROM watches');
    await db.query('DELETE FROM marks');
    ({ principal } = await factories(db).makeOwner({ tier: 'team' }));
  });

  const makeWatch = (name: string, designations?: string[]) =>
    factories(db).makeWatch(principal, { name, designations });

  const alertsOf = (watchId: string) =>
    db.query<{ external_id: string; display_name: string; state: string }>(
      `SELECT h.external_id, h.display_name, a.state FROM alerts a JOIN hits h ON h.id = a.hit_id
        WHERE a.watch_id = $1 ORDER BY h.external_id`,
      [watchId],
    );

  /** The watch's alerts as the API shows them (their stored JSON). */
  const alertJsonOf = async (watchId: string) =>
    (
      await db.query<{ json: string }>(
        'SELECT a.api_json AS json FROM alerts a WHERE a.watch_id = $1',
        [watchId],
      )
    ).map((r) => JSON.parse(r.json));

  it('a first scan finds a conflicting mark anywhere in the mirror and raises one unread alert', async () => {
    const conflicting = makeRecord({ markText: 'NORTHWYND' });
    await importRecords(db, [makeRecord(), conflicting, makeRecord({ markText: 'ZEPHYRLINE' })]);
    const watch = await makeWatch('Northwind');
    const totals = await scanner.scan({});
    assert.deepEqual(totals, { watchesScanned: 1, hitsCreated: 1, alertsCreated: 1 });
    const alerts = await alertsOf(watch.id);
    assert.deepEqual(alerts, [
      { external_id: conflicting.externalId, display_name: 'NORTHWYND', state: 'unread' },
    ]);
  });

  it('a scan assesses each alert: severity, rationale and the opposition window', async () => {
    const same = makeRecord({ markText: 'NORTHWIND', publishedAt: '2026-11-10' });
    const plural = makeRecord({ markText: 'NORTHWINDS COFFEE' });
    await importRecords(db, [same, plural, makeRecord()]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    const rows = await db.query<{ externalId: string; severity: string; json: string }>(
      `SELECT h.external_id AS "externalId", a.severity, a.api_json AS json
         FROM alerts a JOIN hits h ON h.id = a.hit_id WHERE a.watch_id = $1`,
      [watch.id],
    );
    const byId = new Map(rows.map((r) => [r.externalId, JSON.parse(r.json)]));
    const identical = byId.get(same.externalId);
    assert.equal(identical.severity, 'high');
    assert.match(identical.rationale, /written differently .* both read `NORTHWIND`/);
    assert.match(identical.rationaleAt, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(identical.hit.publishedAt, '2026-11-10T00:00:00.000Z');
    assert.equal(identical.hit.opposition.office, 'EUIPO');
    assert.equal(identical.hit.opposition.closesAt, '2027-02-10');
    assert.equal(identical.hit.opposition.extendableUntil, null);
    const near = byId.get(plural.externalId);
    assert.equal(near.severity, 'medium');
    assert.match(
      near.rationale,
      /holds the brand in the plural: `NORTHWINDS`, at the start of the mark/,
    );
    assert.equal(near.hit.publishedAt, null);
    assert.equal(near.hit.opposition, null);
    assert.match(near.rationale, /gives no publication date for opposition/);
  });

  it('a rescan of the same register makes no duplicate hit or alert', async () => {
    await importRecords(db, [makeRecord({ markText: 'NORTHWIND' })]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    await db.query('UPDATE watches SET needs_full_scan = true'); // force a second full scan
    const again = await scanner.scan({});
    assert.equal(again.alertsCreated, 0);
    assert.equal((await alertsOf(watch.id)).length, 1);
  });

  it('an incremental scan after a new import alerts only on the new record', async () => {
    await importRecords(db, [makeRecord({ markText: 'NORTHWIND' })]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    const fresh = makeRecord({ markText: 'NORTH WIND' });
    await importRecords(db, [makeRecord(), fresh]);
    const totals = await scanner.scan({});
    assert.equal(totals.alertsCreated, 1);
    const runs = await db.query<{ mode: string; candidates_examined: number }>(
      'SELECT mode, candidates_examined FROM scan_runs WHERE watch_id = $1 ORDER BY started_at',
      [watch.id],
    );
    assert.deepEqual(
      runs.map((r) => r.mode),
      ['full', 'incremental'],
    );
    // Only the records changed since the last scan were searched.
    assert.equal(runs[1]?.candidates_examined, 1);
    assert.ok((await alertsOf(watch.id)).some((a) => a.external_id === fresh.externalId));
  });

  it('a changed record that already raised an alert raises no new one', async () => {
    const record = makeRecord({ markText: 'NORTHWIND' });
    await importRecords(db, [record]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    const summary = await importRecords(db, [{ ...record, status: 'registered' }]);
    assert.equal(summary.updated, 1);
    const totals = await scanner.scan({});
    assert.equal(totals.alertsCreated, 0);
    assert.equal((await alertsOf(watch.id)).length, 1);
  });

  it('inactive watches are never scanned', async () => {
    await importRecords(db, [makeRecord({ markText: 'NORTHWIND' })]);
    const watch = await makeWatch('Northwind');
    await createWatchService(db).deactivate(principal, watch.id);
    const totals = await scanner.scan({});
    assert.equal(totals.watchesScanned, 0);
    const due = await scanner.scan({ due: true });
    assert.equal(due.watchesScanned, 0);
    assert.equal((await alertsOf(watch.id)).length, 0);
  });

  it('a new watch is due at once and is not due again until its cadence passes', async () => {
    await makeWatch('Northwind');
    assert.equal((await scanner.scan({ due: true })).watchesScanned, 1);
    assert.equal((await scanner.scan({ due: true })).watchesScanned, 0);
  });

  it('marks without a shared class or outside the designations raise nothing', async () => {
    await importRecords(db, [
      makeRecord({ markText: 'NORTHWINDS', classes: [25] }),
      makeRecord({ markText: 'NORTHWIND', jurisdiction: 'US', ownerCountryCode: 'US' }),
      makeRecord({ markText: 'NORTHWIND', jurisdiction: 'WO', designations: ['CN'] }),
    ]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    assert.equal((await alertsOf(watch.id)).length, 0);
  });

  it('the brand itself in a class nothing relates raises a medium alert that says why, by full and incremental scans', async () => {
    // Class 25 (clothing) is neither the watch's class 9 nor related to it (goods.ts).
    const full = makeRecord({ markText: 'NORTHWIND', classes: [25] });
    await importRecords(db, [full, makeRecord({ markText: 'NORTHWIND OUTDOOR', classes: [25] })]);
    const watch = await makeWatch('Northwind');
    const own = await factories(db).makeWatch(principal, {
      name: 'Northwind',
      relatedClasses: false,
    });
    await scanner.scan({});
    const incremental = makeRecord({ markText: 'North-Wind', classes: [18] });
    await importRecords(db, [incremental]);
    await scanner.scan({});
    const alerts = await alertJsonOf(watch.id);
    assert.deepEqual(
      alerts.map((a) => a.hit.externalId).sort(),
      [full.externalId, incremental.externalId].sort(),
    );
    for (const alert of alerts) {
      assert.equal(alert.severity, 'medium');
      assert.match(alert.rationale, /the mark is the watched brand itself/);
      assert.match(alert.rationale, /Article 8\(5\) EUTMR/);
    }
    assert.equal((await alertsOf(own.id)).length, 0, 'related classes off: own classes only');
  });

  it('a class 42 record meets restaurant services by its goods text only when filed before 2002', async () => {
    // Class 42 held restaurant services until the Nice Classification's 8th edition (2002): the
    // filing date the mirror holds decides whether the record's text can mean them.
    const restaurant = [{ class: 42, text: 'Restaurant services', language: 'en' }];
    const before2002 = makeRecord({
      markText: 'NORTHWIND GRILL',
      classes: [42],
      goods: restaurant,
      filedAt: '1998-03-02',
    });
    const since2002 = makeRecord({
      markText: 'NORTHWIND TABLES',
      classes: [42],
      goods: [{ class: 42, text: 'Software for restaurant management', language: 'en' }],
      filedAt: '2019-06-04',
    });
    await importRecords(db, [before2002, since2002]);
    const watch = await factories(db).makeWatch(principal, {
      name: 'Northwind',
      niceClasses: [33],
    });
    await scanner.scan({});
    const alerts = await alertJsonOf(watch.id);
    assert.deepEqual(
      alerts.map((a) => a.hit.externalId),
      [before2002.externalId],
    );
    assert.match(
      alerts[0].rationale,
      /class 42, this record, the class of these services until 2002; filed on 1998-03-02/,
    );
  });

  it('a record without classes raises an alert on text and territory, capped at medium, and says why', async () => {
    // The source publishes no Nice class: identical text would be high, the cap makes it medium.
    const classless = makeRecord({
      markText: 'NORTHWIND',
      classes: [],
      ownerName: null,
      ownerCountryCode: null,
      status: null,
    });
    const elsewhere = makeRecord({ markText: 'NORTHWIND', classes: [], jurisdiction: 'US' });
    await importRecords(db, [classless, elsewhere]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    // The same through an incremental scan, whose candidates come from the in-memory range index.
    const later = makeRecord({ markText: 'NORTH WIND', classes: [] });
    await importRecords(db, [later]);
    await scanner.scan({});
    const alerts = new Map(
      (await alertJsonOf(watch.id)).map((a) => [a.hit.externalId as string, a]),
    );
    assert.deepEqual([...alerts.keys()].sort(), [classless.externalId, later.externalId].sort());
    for (const alert of alerts.values()) {
      assert.equal(alert.severity, 'medium');
      // The identical text scores high and is capped; NORTH WIND's score is medium of itself.
      if (alert.hit.externalId === classless.externalId) {
        assert.match(alert.rationale, /source publishes no Nice classes, which caps the severity/);
      }
      assert.ok(alert.rationale.includes(CLASSES_NOT_PUBLISHED), alert.rationale);
    }
    const hit = alerts.get(classless.externalId).hit;
    assert.deepEqual(
      [hit.ownerName, hit.ownerCountryCode, hit.status, hit.classes],
      [null, null, null, []],
    );
    assert.match(alerts.get(classless.externalId).rationale, /owner not published by this source/);
  });

  it('a WO record designating EM and a BX record reach a watch on DE and NL', async () => {
    const wo = makeRecord({
      markText: 'NORTHWIND',
      jurisdiction: 'WO',
      designations: ['EM', 'CN'],
    });
    const bx = makeRecord({ markText: 'NORTHWIND', jurisdiction: 'BX' });
    await importRecords(db, [wo, bx]);
    const watch = await makeWatch('Northwind', ['DE', 'NL']);
    await scanner.scan({});
    const ids = (await alertsOf(watch.id)).map((a) => a.external_id).sort();
    assert.deepEqual(ids, [wo.externalId, bx.externalId].sort());
  });

  it('the logoSt13 record is never a hit and fills logoUrl', async () => {
    const own = makeRecord({ markText: 'NORTHWIND', logoUrl: 'https://example.org/own-logo.png' });
    const other = makeRecord({ markText: 'NORTHWYND' });
    await importRecords(db, [own, other]);
    const watch = await makeWatch('Northwind');
    await createWatchService(db).update(principal, watch.id, { logoSt13: own.externalId });
    await scanner.scan({});
    assert.deepEqual(
      (await alertsOf(watch.id)).map((a) => a.external_id),
      [other.externalId],
    );
    const [row] = await db.query<{ logo_url: string | null }>(
      'SELECT logo_url FROM watches WHERE id = $1',
      [watch.id],
    );
    assert.equal(row?.logo_url, 'https://example.org/own-logo.png');
  });

  it('renaming a watch makes its next scan a full one, due at once', async () => {
    await importRecords(db, [makeRecord({ markText: 'ZEPHYRLINE' })]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    await createWatchService(db).update(principal, watch.id, { name: 'Zephyrline' });
    const totals = await scanner.scan({ due: true });
    assert.equal(totals.alertsCreated, 1);
    const [last] = await db.query<{ mode: string }>(
      'SELECT mode FROM scan_runs WHERE watch_id = $1 ORDER BY started_at DESC LIMIT 1',
      [watch.id],
    );
    assert.equal(last?.mode, 'full');
  });

  it('each scan run is recorded with its mode, range and counts', async () => {
    await importRecords(db, [makeRecord({ markText: 'NORTHWIND' }), makeRecord()]);
    const watch = await makeWatch('Northwind');
    await scanner.scan({});
    const [run] = await db.query<Record<string, unknown>>(
      'SELECT * FROM scan_runs WHERE watch_id = $1',
      [watch.id],
    );
    assert.equal(run?.mode, 'full');
    assert.equal(run?.from_seq, 0);
    assert.ok(Number(run?.to_seq) > 0);
    assert.equal(run?.hits_created, 1);
    assert.equal(run?.alerts_created, 1);
    assert.equal(run?.error, null);
    assert.ok(run?.finished_at instanceof Date);
  });

  it('team owners get one e-mail per scan run listing every new alert; free owners none', async () => {
    await importRecords(db, [
      makeRecord({ markText: 'NORTHWIND' }),
      makeRecord({ markText: 'NORTHWINDS' }),
    ]);
    await makeWatch('Northwind');
    await scanner.scan({});
    const outbox = await db.query<{ alert_ids: string[]; recipients: string[] }>(
      'SELECT alert_ids, recipients FROM email_outbox',
    );
    assert.equal(outbox.length, 1);
    assert.equal(outbox[0]?.alert_ids.length, 2);
    assert.deepEqual(outbox[0]?.recipients, [principal.email]);

    const make = factories(db);
    const { principal: freePrincipal } = await make.makeOwner({ tier: 'free' });
    await make.makeWatch(freePrincipal, { name: 'Northwind', scanCadence: 'weekly' });
    await scanner.scan({ due: true });
    assert.equal((await db.query('SELECT 1 FROM email_outbox')).length, 1);
  });

  it('watches of several owners scanned in one batch: each e-mail goes to its own owner', async () => {
    // The batch reads every owner's mailing in one statement: a mix-up would send one owner's
    // alerts to another, or an e-mail to a free owner.
    await importRecords(db, [makeRecord({ markText: 'QUILLORA' })]);
    const make = factories(db);
    const org = await make.makeOrg({ tier: 'team' });
    const members = [
      await make.makeUser({ orgId: org.id }),
      await make.makeUser({ orgId: org.id }),
    ];
    const orgPrincipal = principalFor(members[0] as (typeof members)[number], 'team', org);
    const { principal: free } = await make.makeOwner({ tier: 'free' });
    const { principal: solo } = await make.makeOwner({ tier: 'solo' });
    const watchIds = [
      (await make.makeWatch(principal, { name: 'Quillora' })).id,
      (await make.makeWatch(orgPrincipal, { name: 'Quillora' })).id,
      (await make.makeWatch(free, { name: 'Quillora', scanCadence: 'weekly' })).id,
      (await make.makeWatch(solo, { name: 'Quillora' })).id,
    ];
    await scanner.scan({ watchIds });
    const outbox = await db.query<{ owner_id: string; recipients: string[]; alert_ids: string[] }>(
      'SELECT owner_id, recipients, alert_ids FROM email_outbox ORDER BY owner_id',
    );
    const alertOwner = await db.query<{ id: string; owner_id: string }>(
      'SELECT id, owner_id FROM alerts',
    );
    assert.equal(alertOwner.length, 4, 'every watch raised its alert');
    const expected = [
      { owner_id: org.id, recipients: members.map((m) => m.email).sort() },
      { owner_id: principal.ownerId, recipients: [principal.email] },
      { owner_id: solo.ownerId, recipients: [solo.email] },
    ].sort((a, b) => (a.owner_id < b.owner_id ? -1 : 1));
    assert.deepEqual(
      outbox.map(({ owner_id, recipients }) => ({ owner_id, recipients })),
      expected,
    );
    for (const message of outbox) {
      const owners = message.alert_ids.map((id) => alertOwner.find((a) => a.id === id)?.owner_id);
      assert.deepEqual(owners, [message.owner_id]);
    }
    // The batch read the mirror's sequence once for all four: each is scanned up to it.
    const scanned = await db.query<{ seq: number; top: number }>(
      `SELECT w.scanned_seq::int8 AS seq, (SELECT max(change_seq) FROM marks)::int8 AS top
         FROM watches w WHERE w.id = ANY($1::text[])`,
      [watchIds],
    );
    assert.equal(scanned.length, 4);
    for (const { seq, top } of scanned) assert.equal(Number(seq), Number(top));
  });

  /** Three watches of VELMORANT for one batch: two owners, the third on the EU as well. */
  const threeVelmorantWatches = async (): Promise<string[]> => {
    const make = factories(db);
    const { principal: other } = await make.makeOwner({ tier: 'team' });
    return [
      (await make.makeWatch(principal, { name: 'Velmorant' })).id,
      (await make.makeWatch(other, { name: 'Velmorant' })).id,
      (await make.makeWatch(other, { name: 'Velmorant', designations: ['EU'] })).id,
    ];
  };

  it('watches scanned in one batch: each reassesses the alerts whose records changed in its own range, all read in one statement', async () => {
    const record = makeRecord({ markText: 'VELMORANT', status: 'published' });
    await importRecords(db, [record]);
    const watchIds = await threeVelmorantWatches();
    await scanner.scan({ watchIds });
    const severities = async () =>
      (
        await db.query<{ severity: string }>(
          'SELECT severity FROM alerts WHERE watch_id = ANY($1::text[]) ORDER BY array_position($1::text[], watch_id)',
          [watchIds],
        )
      ).map((a) => a.severity);
    assert.deepEqual(await severities(), ['high', 'high', 'high']);

    // The office refuses the mark. The third watch has already scanned past that change (as a
    // scan that read it would have): its range holds none of it, so its alert stays as it is.
    await importRecords(db, [{ ...record, status: 'abandoned' }]);
    await db.query(
      'UPDATE watches SET scanned_seq = (SELECT max(change_seq) FROM marks) WHERE id = $1',
      [watchIds[2]],
    );
    // A later record, so that the third watch's range is not empty: it starts after the change.
    await importRecords(db, [makeRecord()]);
    let reads = 0;
    const counting: Db = {
      ...db,
      query: (text, params) => {
        if (/JOIN mark_removals r/.test(text)) reads++;
        return db.query(text, params);
      },
    };
    await testScanner(counting).scan({ watchIds });
    assert.deepEqual(await severities(), ['low', 'low', 'high']);
    assert.equal(reads, 1, 'the changed records behind the alerts of the batch: one statement');
  });

  it('watches scanned in one batch: their word counts and the changed records behind their alerts are read together, not one after the other', async () => {
    await importRecords(db, [makeRecord({ markText: 'VELMORANT', status: 'published' })]);
    const watchIds = await threeVelmorantWatches();
    await scanner.scan({ watchIds });
    await importRecords(db, [makeRecord()]);
    // Each of the two reads waits for the other to start (2 s at most): read one after the
    // other, they never overlap.
    const batchRead = /FROM mark_words|WITH w AS \(SELECT \* FROM unnest/;
    let inFlight = 0;
    let overlapped = false;
    let bothStarted = () => {};
    const both = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const holding: Db = {
      ...db,
      query: async (text, params) => {
        if (!batchRead.test(text) || overlapped) return db.query(text, params);
        inFlight++;
        if (inFlight >= 2) {
          overlapped = true;
          bothStarted();
        }
        await Promise.race([both, delay(2000)]);
        try {
          return await db.query(text, params);
        } finally {
          inFlight--;
        }
      },
    };
    await testScanner(holding).scan({ watchIds });
    assert.ok(overlapped, 'the two batch reads were in flight at the same time');
  });

  it('watches scanned in one batch: each marks removed the hits whose records the office deleted in its own range', async () => {
    const record = makeRecord({ markText: 'VELMORANT' });
    await importRecords(db, [record]);
    const watchIds = await threeVelmorantWatches();
    await scanner.scan({ watchIds });

    // The office deletes the record (mark_removals keeps it); the third watch has already
    // scanned past the deletion (its range starts after it, up to a later record), so its hit is
    // left as it is.
    await db.transaction((tx) =>
      deleteMarks(tx, MIRROR_SOURCE, [{ externalId: record.externalId, asOf: null }]),
    );
    await db.query('UPDATE watches SET scanned_seq = $1 WHERE id = $2', [
      await highestChangeSeq(db),
      watchIds[2],
    ]);
    await importRecords(db, [makeRecord()]);
    await scanner.scan({ watchIds });
    const removed = await db.query<{ removed: boolean }>(
      `SELECT removed_at IS NOT NULL AS removed FROM hits
        WHERE watch_id = ANY($1::text[]) ORDER BY array_position($1::text[], watch_id)`,
      [watchIds],
    );
    assert.deepEqual(
      removed.map((h) => h.removed),
      [true, true, false],
    );
  });
});
