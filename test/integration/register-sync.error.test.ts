import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { claimFeedLease, listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { type FeedServer, zipOf } from '../helpers/feed-server.ts';
import {
  bandMismatches,
  keyMismatches,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import {
  FAST_HTTP,
  mirrorSnapshot,
  SEED_ZIP,
  SUVENEER_XML,
  suveneerZip,
  sync,
  syncTestContext,
  twoDays,
} from '../helpers/register-sync.ts';

describe('register sync: broken files, outages and recovery', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let seed: Buffer;
  let suveneer: Buffer;
  before(async () => {
    db = context.db;
    server = context.server;
    seed = readFileSync(SEED_ZIP);
    suveneer = await suveneerZip();
  });

  const statusOf = (report: Awaited<ReturnType<typeof sync>>) =>
    report.files.map((f) => [f.name, f.status]);

  it('a listed file the server does not have (404) fails at once, and the others still load', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: suveneer });
    server.files.set('apc260102.zip', { kind: 'status', status: 404 });
    server.files.set('apc260103.zip', { kind: 'file', body: seed });
    const report = await sync(db, server);
    assert.deepEqual(statusOf(report), [
      ['apc260101.zip', 'loaded'],
      ['apc260102.zip', 'failed'],
      ['apc260103.zip', 'loaded'],
    ]);
    assert.equal(report.files[1]?.reason, 'HTTP 404 from the server');
    assert.equal(server.requests('/feed/apc260102.zip'), 1, 'a 404 is not retried');
  });

  it('a connection cut before the declared length is retried, then reported as truncated', async () => {
    server.files.set('apc260101.zip', { kind: 'cut', body: seed, sent: 5000 });
    const report = await sync(db, server);
    assert.equal(report.files[0]?.status, 'failed');
    assert.match(report.files[0]?.reason ?? '', /declared 13974 bytes but sent 5000: truncated/);
    assert.equal(server.requests('/feed/apc260101.zip'), 1 + FAST_HTTP.retries);
    const [row] = await listRegisterFiles(db);
    assert.equal(row?.status, 'failed');
  });

  it('a truncated file (complete download, half an archive) fails as an unreadable zip', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: seed.subarray(0, 7000) });
    const report = await sync(db, server);
    assert.equal(report.files[0]?.status, 'failed');
    assert.match(report.files[0]?.reason ?? '', /not a readable zip archive/);
  });

  it('a corrupt zip whose stored data changed is caught by its CRC-32', async () => {
    // Stored, not deflated: only the CRC can tell that a byte of the XML changed.
    const stored = await zipOf({ 'apc.xml': SUVENEER_XML }, { compress: false });
    const corrupt = Buffer.from(stored);
    const at = corrupt.indexOf('SUVENEER');
    corrupt[at] = 'Z'.charCodeAt(0);
    server.files.set('apc260101.zip', { kind: 'file', body: corrupt });
    const report = await sync(db, server);
    assert.equal(report.files[0]?.status, 'failed');
    assert.match(report.files[0]?.reason ?? '', /CRC-32 mismatch/);
    const marks = await db.query('SELECT 1 FROM marks');
    assert.equal(marks.length, 0, 'nothing of a corrupt file is imported');
  });

  it('a server that stalls mid-file hits the idle time-out, and the next file still loads', async () => {
    server.files.set('apc260101.zip', { kind: 'stall', body: seed, sent: 1000 });
    server.files.set('apc260102.zip', { kind: 'file', body: suveneer });
    const report = await sync(db, server);
    assert.deepEqual(statusOf(report), [
      ['apc260101.zip', 'failed'],
      ['apc260102.zip', 'loaded'],
    ]);
    assert.equal(report.files[0]?.reason, `no data for ${FAST_HTTP.idleTimeoutMs} ms`);
  });

  it('a server error that passes is retried with back-off and the file loads', async () => {
    server.files.set('apc260101.zip', { kind: 'flaky', body: seed, times: 2 });
    const report = await sync(db, server);
    assert.deepEqual(statusOf(report), [['apc260101.zip', 'loaded']]);
    assert.equal(server.requests('/feed/apc260101.zip'), 3);
  });

  it('a failed file is loaded again by the next sync, and the mirror ends as if loaded once', async () => {
    server.files.set('apc260101.zip', { kind: 'cut', body: seed, sent: 9000 });
    server.files.set('apc260102.zip', { kind: 'file', body: suveneer });
    await sync(db, server);
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    const again = await sync(db, server);
    assert.deepEqual(statusOf(again), [
      ['apc260101.zip', 'loaded'],
      ['apc260102.zip', 'skipped'],
    ]);
    const rows = await listRegisterFiles(db);
    assert.deepEqual(
      rows.map((r) => [r.name, r.status, r.attempts]),
      [
        ['apc260101.zip', 'loaded', 2],
        ['apc260102.zip', 'loaded', 1],
      ],
    );
    const recovered = await mirrorSnapshot(db);

    // The same two files loaded once each, on a clean mirror.
    await db.query('DELETE FROM marks');
    await db.query('DELETE FROM register_files');
    await sync(db, server);
    assert.deepEqual(recovered, await mirrorSnapshot(db));
  });

  it('a failed file loaded after a newer one keeps the newer versions: as if loaded in date order', async () => {
    const days = await twoDays();
    // 14 September fails, 25 September loads; the next sync loads 14 September after it.
    server.files.set('apc240914.zip', { kind: 'status', status: 404 });
    server.files.set('apc240925.zip', { kind: 'file', body: days['240925'] });
    await sync(db, server);
    server.files.set('apc240914.zip', { kind: 'file', body: days['240914'] });
    const late = await sync(db, server);
    assert.deepEqual(
      late.files.map((f) => [f.name, f.status, f.imported, f.updated, f.skipped]),
      [
        ['apc240914.zip', 'loaded', 1, 0, 3],
        ['apc240925.zip', 'skipped', 0, 0, 0],
      ],
    );
    const [revival] = await db.query<{ status: string; asOf: string }>(
      `SELECT raw_payload->>'statusCode' AS status, to_char(as_of, 'YYYY-MM-DD') AS "asOf"
         FROM marks WHERE external_id = 'US500000098186103'`,
    );
    assert.deepEqual(revival, { status: '616', asOf: '2024-09-25' }, 'the later version stays');
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await bandMismatches(db), []);
    assert.deepEqual(await keyMismatches(db), []);
    const recovered = await mirrorSnapshot(db);

    // The two files loaded once each, in date order, on a clean mirror.
    await db.query('DELETE FROM marks');
    await db.query('DELETE FROM register_files');
    await sync(db, server);
    assert.deepEqual(recovered, await mirrorSnapshot(db));
  });

  it('an interrupted load (left "loading" by a crash) is loaded again by the next sync', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    await db.query(
      `INSERT INTO register_files (feed, name, url, status, file_date, attempts, started_at)
       VALUES ('uspto-daily', 'apc260101.zip', $1, 'loading', '2026-01-01', 1, now())`,
      [`${server.url}apc260101.zip`],
    );
    const report = await sync(db, server);
    assert.deepEqual(statusOf(report), [['apc260101.zip', 'loaded']]);
  });

  it('a listing that cannot be read is an "unavailable" error naming the feed', async () => {
    await assert.rejects(
      sync(db, server, { url: `${server.url}missing/` }),
      (error: unknown) =>
        error instanceof ApiError &&
        error.kind === 'unavailable' &&
        /feed uspto-daily .* HTTP 404/.test(error.message),
    );
  });

  it('only one process syncs a feed at a time: a second one is refused while the lease runs', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    assert.ok(await claimFeedLease(db, 'uspto-daily', 'other-process', 60));
    await assert.rejects(
      sync(db, server),
      (error: unknown) => error instanceof ApiError && error.kind === 'conflict',
    );
    assert.equal(server.requests('/feed/'), 0, 'the refused sync made no request');
  });

  it('a lease left by a crashed process lapses, and the next sync takes the feed', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: suveneer });
    await db.query(
      `INSERT INTO register_feeds (feed, lease_owner, lease_expires_at)
       VALUES ('uspto-daily', 'crashed', now() - interval '1 second')`,
    );
    const report = await sync(db, server);
    assert.deepEqual(statusOf(report), [['apc260101.zip', 'loaded']]);
  });
});
