// Stopping a register sync (SIGTERM, serve's or worker's shutdown): the signal reaches the download
// and the import, the file in hand is recorded as interrupted, and the next sync loads it again,
// leaving the mirror as one load would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { runDueSyncs } from '../../src/mirror/schedule.ts';
import { INTERRUPTED } from '../../src/mirror/sync.ts';
import { clockAt } from '../helpers/clock.ts';
import { eventually } from '../helpers/eventually.ts';
import type { FeedServer } from '../helpers/feed-server.ts';
import {
  bandMismatches,
  importRecords,
  keyMismatches,
  makeRecord,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import {
  FAST_HTTP,
  mirrorSnapshot,
  quietLogger,
  SEED_ZIP,
  sync,
  syncTestContext,
} from '../helpers/register-sync.ts';

describe('register sync: stopping in the middle of a file', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let seed: Buffer;
  before(() => {
    db = context.db;
    server = context.server;
    seed = readFileSync(SEED_ZIP);
  });

  /** The mirror after one uninterrupted load of the feed, on a clean mirror. */
  async function singleLoad() {
    await db.query('DELETE FROM marks');
    await db.query('DELETE FROM register_files');
    await sync(db, server);
    return mirrorSnapshot(db);
  }

  it('a stop while a file streams cuts the download at once; the next sync loads the file', async () => {
    // 13,974 bytes at 200 every 50 ms: about 3.5 s for the whole file.
    server.files.set('apc260101.zip', { kind: 'slow', body: seed, chunk: 200, everyMs: 50 });
    server.files.set('apc260102.zip', { kind: 'file', body: seed });
    const controller = new AbortController();
    const running = sync(db, server, { signal: controller.signal });
    await eventually('the file to be streaming', () => server.bytesSent() >= 1000, {
      everyMs: 10,
    });
    const stoppedAt = Date.now();
    controller.abort();
    const report = await running;
    assert.ok(Date.now() - stoppedAt < 1000, `stopped after ${Date.now() - stoppedAt} ms`);
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status, f.reason]),
      [['apc260101.zip', 'failed', INTERRUPTED]],
      'the next file is not begun',
    );
    assert.equal(server.requests('/feed/apc260101.zip'), 1, 'a stop is not retried');
    assert.equal(server.requests('/feed/apc260102.zip'), 0);
    const [row] = await listRegisterFiles(db);
    assert.deepEqual([row?.status, row?.reason], ['failed', INTERRUPTED]);
    const lease = await db.query<{ owner: string | null }>(
      'SELECT lease_owner AS owner FROM register_feeds',
    );
    assert.deepEqual(lease, [{ owner: null }], 'the feed is free for the next sync');

    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    const next = await sync(db, server);
    assert.deepEqual(
      next.files.map((f) => [f.name, f.status]),
      [
        ['apc260101.zip', 'loaded'],
        ['apc260102.zip', 'loaded'],
      ],
    );
    assert.deepEqual(await mirrorSnapshot(db), await singleLoad());
  });

  it('a scheduled sync stopped mid-file leaves its day due again at once, the attempt not counted', async () => {
    server.files.set('apc260101.zip', { kind: 'slow', body: seed, chunk: 200, everyMs: 50 });
    const schedule = (signal: AbortSignal) =>
      runDueSyncs({
        config: loadConfig({
          REGISTER_FEEDS: `uspto-daily=${server.url}`,
          REGISTER_SYNC_AT: '06:00',
        }),
        db,
        logger: quietLogger,
        signal,
        clock: clockAt('2026-01-02T06:00:00Z'),
        http: FAST_HTTP,
      });
    const controller = new AbortController();
    const running = schedule(controller.signal);
    await eventually('the file to be streaming', () => server.bytesSent() >= 1000, {
      everyMs: 10,
    });
    controller.abort();
    await running;
    const [row] = await listRegisterFiles(db);
    assert.deepEqual([row?.status, row?.reason], ['failed', INTERRUPTED]);
    const [day] = await db.query<{ attempts: number; retryAt: Date; owner: string | null }>(
      `SELECT scheduled_attempts AS attempts, scheduled_retry_at AS "retryAt", lease_owner AS owner
         FROM register_feeds`,
    );
    assert.deepEqual(day, {
      attempts: 0,
      retryAt: new Date('2026-01-02T06:00:00Z'),
      owner: null,
    });

    // The process restarts (or another one asks): the day's sync runs, and loads the file.
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    const [report] = await schedule(new AbortController().signal);
    assert.deepEqual(
      report?.files.map((f) => f.status),
      ['loaded'],
    );
    assert.deepEqual(await mirrorSnapshot(db), await singleLoad());
  });

  it('a stop during the import ends it between two batches; the next sync completes the file', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    const controller = new AbortController();
    const report = await sync(db, server, {
      signal: controller.signal,
      // The download is complete and the records are being read: the process is asked to stop.
      onProgress: (progress) => {
        if (progress.phase === 'import') controller.abort();
      },
    });
    assert.deepEqual(
      report.files.map((f) => [f.status, f.reason]),
      [['failed', INTERRUPTED]],
    );
    assert.equal((await db.query('SELECT 1 FROM marks')).length, 0, 'no batch was written');
    const next = await sync(db, server);
    assert.deepEqual(
      next.files.map((f) => [f.status, f.imported]),
      [['loaded', 11]],
    );
    assert.deepEqual(await mirrorSnapshot(db), await singleLoad());
  });

  it('the importer stopped between two batches keeps the batches written, with their word counts, and importing again completes it', async () => {
    const records = Array.from({ length: 12 }, (_, i) =>
      makeRecord({ markText: `KESTREL HARBOR ${i % 5} NORTHWIND` }),
    );
    const controller = new AbortController();
    // The process is asked to stop as the first batch commits.
    const stopping: Db = {
      ...db,
      transaction: async (fn) => {
        const result = await db.transaction(fn);
        controller.abort();
        return result;
      },
    };
    await assert.rejects(
      importRecords(stopping, records, { batchSize: 2, signal: controller.signal }),
      (error: unknown) => (error as Error).name === 'AbortError',
    );
    const written = (await db.query('SELECT 1 FROM marks')).length;
    assert.ok(written > 0 && written < records.length, `${written} of ${records.length} written`);
    const pending = await db.query('SELECT 1 FROM mark_word_deltas');
    assert.equal(pending.length, 0, 'the written batches’ word counts are folded');
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));

    const summary = await importRecords(db, records, { batchSize: 2 });
    assert.equal(summary.imported, records.length - written);
    assert.equal((await db.query('SELECT 1 FROM marks')).length, records.length);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await bandMismatches(db), []);
    assert.deepEqual(await keyMismatches(db), []);
  });
});
