// The cipo-weekly and euipo-bulk feeds against a local listing serving zips of the offices' real
// sample files (test/fixtures/cipo, test/fixtures/euipo-bulk): the files load, and each failure
// that uspto-daily's tests cover (404, a truncated zip, a cut connection, a stall, a stop, the
// next sync after) ends the same way.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { runDueSyncs } from '../../src/mirror/schedule.ts';
import { INTERRUPTED } from '../../src/mirror/sync.ts';
import { cipoWeekly, euipoBulk, type Feed } from '../../src/register/feeds.ts';
import { clockAt } from '../helpers/clock.ts';
import { eventually } from '../helpers/eventually.ts';
import { type FeedServer, zipOf } from '../helpers/feed-server.ts';
import {
  FAST_HTTP,
  mirrorSnapshot,
  quietLogger,
  sync,
  syncTestContext,
} from '../helpers/register-sync.ts';

/** A zip holding every XML file of a fixture folder, as the office's zips hold one per mark. */
function zipOfFolder(dir: string) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.xml'));
  return zipOf(Object.fromEntries(files.map((name) => [name, join(dir, name)])));
}

type OfficeCase = {
  feed: Feed;
  /** Three of the feed's file names, oldest first. */
  names: [string, string, string];
  fixtures: string;
  /** A record the sample holds, and what the mirror must say of it. */
  expected: { externalId: string; markText: string; jurisdiction: string; classes: number[] };
};

const CASES: OfficeCase[] = [
  {
    feed: cipoWeekly,
    names: [
      'WEEKLY_2026-01-06_00-07-58.zip',
      'WEEKLY_2026-01-13_00-05-12.zip',
      'WEEKLY_2026-01-20_00-06-40.zip',
    ],
    fixtures: 'test/fixtures/cipo',
    expected: { externalId: 'CA-1057614', markText: 'CERIDIAN', jurisdiction: 'CA', classes: [17] },
  },
  {
    feed: euipoBulk,
    names: [
      'DIFF_EUTMS_20260106_0001.zip',
      'DIFF_EUTMS_20260107_0001.zip',
      'DIFF_EUTMS_20260108_0001.zip',
    ],
    fixtures: 'test/fixtures/euipo-bulk',
    expected: {
      externalId: 'EM500000018173421',
      markText: 'Preflet',
      jurisdiction: 'EM',
      classes: [9],
    },
  },
];

for (const { feed, names, fixtures, expected } of CASES) {
  describe(`register sync of ${feed.name} from a local listing of real sample files`, () => {
    const context = syncTestContext();
    let db: Db;
    let server: FeedServer;
    let sample: Buffer;
    before(async () => {
      db = context.db;
      server = context.server;
      sample = await zipOfFolder(fixtures);
    });
    const [first = '', second = '', third = ''] = names;
    const run = (options: Parameters<typeof sync>[2] = {}) =>
      sync(db, server, { feed, ...options });
    const statusOf = (report: Awaited<ReturnType<typeof run>>) =>
      report.files.map((f) => [f.name, f.status]);

    /** The mirror after one uninterrupted load of the listing, on a clean mirror. */
    async function singleLoad() {
      await db.query('DELETE FROM marks');
      await db.query('DELETE FROM register_files');
      await run();
      return mirrorSnapshot(db);
    }

    it("loads a zip of the office's real files, entry by entry, with the records' fields", async () => {
      server.files.set(first, { kind: 'file', body: sample });
      const report = await run();
      assert.equal(report.feed, feed.name);
      const [file] = report.files;
      assert.equal(file?.status, 'loaded', file?.reason);
      assert.equal(file?.errors, 0);
      assert.ok((file?.imported ?? 0) >= 1);
      const [mark] = await db.query<Record<string, unknown>>(
        'SELECT mark_text, jurisdiction, classes FROM marks WHERE external_id = $1',
        [expected.externalId],
      );
      assert.deepEqual(mark, {
        mark_text: expected.markText,
        jurisdiction: expected.jurisdiction,
        classes: expected.classes,
      });
    });

    it('the daily schedule syncs it from the location in REGISTER_FEEDS', async () => {
      server.files.set(first, { kind: 'file', body: sample });
      const reports = await runDueSyncs({
        config: loadConfig({ REGISTER_FEEDS: `${feed.name}=${server.url}` }),
        db,
        logger: quietLogger,
        signal: new AbortController().signal,
        clock: clockAt('2026-01-07T07:00:00Z'),
        http: FAST_HTTP,
      });
      assert.deepEqual(
        reports.map((r) => [r.feed, r.files.map((f) => [f.name, f.status])]),
        [[feed.name, [[first, 'loaded']]]],
      );
    });

    it('a listed file the server does not have (404) fails at once, and the others still load', async () => {
      server.files.set(first, { kind: 'file', body: sample });
      server.files.set(second, { kind: 'status', status: 404 });
      server.files.set(third, { kind: 'file', body: sample });
      const report = await run();
      assert.deepEqual(statusOf(report), [
        [first, 'loaded'],
        [second, 'failed'],
        [third, 'loaded'],
      ]);
      assert.equal(report.files[1]?.reason, 'HTTP 404 from the server');
      assert.equal(server.requests(`/feed/${second}`), 1);
    });

    it('a truncated zip fails as an unreadable archive; a cut connection is retried, then reported', async () => {
      server.files.set(first, {
        kind: 'file',
        body: sample.subarray(0, Math.floor(sample.length / 2)),
      });
      server.files.set(second, { kind: 'cut', body: sample, sent: 1000 });
      const report = await run();
      assert.match(report.files[0]?.reason ?? '', /not a readable zip archive/);
      assert.match(report.files[1]?.reason ?? '', /but sent 1000: truncated/);
      assert.equal(server.requests(`/feed/${second}`), 1 + FAST_HTTP.retries);
      assert.equal((await db.query('SELECT 1 FROM marks')).length, 0);
    });

    it('a server that stalls mid-file hits the idle time-out, and the next file still loads', async () => {
      server.files.set(first, { kind: 'stall', body: sample, sent: 100 });
      server.files.set(second, { kind: 'file', body: sample });
      const report = await run();
      assert.deepEqual(statusOf(report), [
        [first, 'failed'],
        [second, 'loaded'],
      ]);
      assert.equal(report.files[0]?.reason, `no data for ${FAST_HTTP.idleTimeoutMs} ms`);
    });

    it('a stop mid-file records it as interrupted; the next sync loads it, as one load would', async () => {
      server.files.set(first, { kind: 'slow', body: sample, chunk: 500, everyMs: 50 });
      server.files.set(second, { kind: 'file', body: sample });
      const controller = new AbortController();
      const running = run({ signal: controller.signal });
      await eventually('the file to be streaming', () => server.bytesSent() >= 500, {
        everyMs: 10,
      });
      controller.abort();
      const stopped = await running;
      assert.deepEqual(
        stopped.files.map((f) => [f.name, f.status, f.reason]),
        [[first, 'failed', INTERRUPTED]],
      );
      server.files.set(first, { kind: 'file', body: sample });
      const next = await run();
      assert.deepEqual(statusOf(next), [
        [first, 'loaded'],
        [second, 'loaded'],
      ]);
      assert.deepEqual(await mirrorSnapshot(db), await singleLoad());
    });

    it('a failed file is loaded again by the next sync (a re-run), and the mirror ends as if loaded once', async () => {
      server.files.set(first, { kind: 'cut', body: sample, sent: 1000 });
      server.files.set(second, { kind: 'file', body: sample });
      await run();
      server.files.set(first, { kind: 'file', body: sample });
      const again = await run();
      assert.deepEqual(statusOf(again), [
        [first, 'loaded'],
        [second, 'skipped'],
      ]);
      const rows = await listRegisterFiles(db, feed.name);
      assert.deepEqual(
        rows.map((r) => [r.name, r.status, r.attempts]),
        [
          [first, 'loaded', 2],
          [second, 'loaded', 1],
        ],
      );
      assert.deepEqual(await mirrorSnapshot(db), await singleLoad());
    });
  });
}
