import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { factories } from '../helpers/factories.ts';
import type { FeedServer } from '../helpers/feed-server.ts';
import {
  SEED_ZIP,
  suveneerZip,
  sync,
  syncTestContext,
  wrapperZip,
} from '../helpers/register-sync.ts';
import { testScanner } from '../helpers/scan.ts';

describe('register sync against a local copy of the USPTO daily feed', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let seed: Buffer;
  let suveneer: Buffer;
  let wrapper: Buffer;
  before(async () => {
    db = context.db;
    server = context.server;
    seed = readFileSync(SEED_ZIP);
    suveneer = await suveneerZip();
    wrapper = await wrapperZip();
  });

  const serveDays = (days: string[], body: Buffer) => {
    for (const day of days) server.files.set(`apc${day}.zip`, { kind: 'file', body });
  };

  it('a first sync loads the 7 newest listed files, oldest first, and imports their records', async () => {
    serveDays(['251230', '251231', '260101', '260102', '260103', '260104'], suveneer);
    server.files.set('apc260105.zip', { kind: 'file', body: wrapper });
    server.files.set('apc260106.zip', { kind: 'file', body: seed });
    const report = await sync(db, server);
    assert.equal(report.feed, 'uspto-daily');
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status]),
      [
        ['apc251231.zip', 'loaded'],
        ['apc260101.zip', 'loaded'],
        ['apc260102.zip', 'loaded'],
        ['apc260103.zip', 'loaded'],
        ['apc260104.zip', 'loaded'],
        ['apc260105.zip', 'loaded'],
        ['apc260106.zip', 'loaded'],
      ],
    );
    assert.equal(server.requests('/feed/apc251230.zip'), 0, 'the 8th newest is not fetched');
    const last = report.files.at(-1);
    assert.deepEqual(last, {
      name: 'apc260106.zip',
      status: 'loaded',
      bytes: seed.length,
      imported: 11,
      updated: 0,
      skipped: 0,
      errors: 0,
    });
    assert.deepEqual(
      report.files.slice(0, 2).map((f) => [f.imported, f.updated]),
      [
        [1, 0],
        [0, 1],
      ],
    );
    const marks = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks');
    // SUVENEER (in the first six files and the wrapper), MACHINE-PISTOL, and the seed's 11.
    assert.equal(marks[0]?.n, 1 + 1 + 11);
    const tusimple = await db.query<{ mark_text: string }>(
      "SELECT mark_text FROM marks WHERE external_id = 'US500000087310367'",
    );
    assert.equal(tusimple[0]?.mark_text, 'TUSIMPLE');
  });

  it('the table records each file with its size, SHA-256, counts and status', async () => {
    server.files.set('apc260106.zip', { kind: 'file', body: seed });
    await sync(db, server);
    const [row] = await listRegisterFiles(db, 'uspto-daily');
    assert.equal(row?.name, 'apc260106.zip');
    assert.equal(row?.status, 'loaded');
    assert.equal(row?.fileDate, '2026-01-06');
    assert.equal(row?.bytes, 13_974);
    assert.equal(row?.sha256, '51cd925187d7f7d9d8004938415e813d0fc31a58eb50b869a459d989779eeaa1');
    assert.deepEqual([row?.imported, row?.updated, row?.skipped, row?.errors], [11, 0, 0, 0]);
    assert.equal(row?.attempts, 1);
    assert.equal(row?.url, `${server.url}apc260106.zip`);
    assert.ok(row?.finishedAt !== null && row?.startedAt !== null);
  });

  it('a second sync loads nothing again: the loaded files are skipped without a download', async () => {
    serveDays(['260101', '260102'], suveneer);
    await sync(db, server);
    const seq = await db.query<{ s: number }>('SELECT max(change_seq)::int AS s FROM marks');
    const again = await sync(db, server);
    assert.deepEqual(
      again.files.map((f) => [f.name, f.status]),
      [
        ['apc260101.zip', 'skipped'],
        ['apc260102.zip', 'skipped'],
      ],
    );
    assert.equal(server.requests('/feed/apc260101.zip'), 1);
    assert.deepEqual(
      await db.query<{ s: number }>('SELECT max(change_seq)::int AS s FROM marks'),
      seq,
      'no record was written again',
    );
  });

  it('a file published after the last sync is loaded by the next one, and only it', async () => {
    serveDays(['260101'], suveneer);
    await sync(db, server);
    server.files.set('apc260102.zip', { kind: 'file', body: seed });
    const next = await sync(db, server);
    assert.deepEqual(
      next.files.map((f) => [f.name, f.status, f.imported]),
      [
        ['apc260101.zip', 'skipped', 0],
        ['apc260102.zip', 'loaded', 11],
      ],
    );
  });

  it('--since loads the files dated from that day on, on a first sync', async () => {
    serveDays(['251230', '251231', '260101'], suveneer);
    const report = await sync(db, server, { since: '2025-12-31' });
    assert.deepEqual(
      report.files.map((f) => f.name),
      ['apc251231.zip', 'apc260101.zip'],
    );
  });

  it('absolute links are followed like relative ones, and links to other names are ignored', async () => {
    server.absoluteLinks = true;
    server.extraLinks = ['apc260101.zip.md5', 'readme.html', 'apc18840407-20251231-01.zip'];
    serveDays(['260101'], suveneer);
    const report = await sync(db, server);
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status]),
      [['apc260101.zip', 'loaded']],
    );
    assert.equal(server.requests('/feed/readme.html'), 0);
  });

  it('records a sync loads raise alerts through the ordinary incremental scan', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const watch = await make.makeWatch(principal, { name: 'TuSimple', designations: ['US'] });
    const scanner = testScanner(db);
    serveDays(['260101'], suveneer);
    await sync(db, server);
    await scanner.scan({});
    server.files.set('apc260102.zip', { kind: 'file', body: seed });
    await sync(db, server);
    await db.query('UPDATE watches SET next_scan_at = now() WHERE id = $1', [watch.id]);
    await scanner.scan({});
    const runs = await db.query<{ mode: string }>(
      'SELECT mode FROM scan_runs WHERE watch_id = $1 ORDER BY started_at',
      [watch.id],
    );
    assert.deepEqual(
      runs.map((r) => r.mode),
      ['full', 'incremental'],
    );
    const alerts = await db.query<{ external_id: string }>(
      `SELECT h.external_id FROM alerts a JOIN hits h ON h.id = a.hit_id WHERE a.watch_id = $1`,
      [watch.id],
    );
    assert.ok(
      alerts.some((a) => a.external_id === 'US500000087310367'),
      'TUSIMPLE alerts',
    );
  });
});
