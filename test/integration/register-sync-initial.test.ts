// A feed's first sync into an empty register mirror (a full release, loaded with --since) loads as
// `marks import --initial` does: without the candidate indexes, built and the words counted once
// at its end. A local listing serves zips of CIPO's real sample files (test/fixtures/cipo).
import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { ApiError } from '../../src/domain/errors.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { INTERRUPTED } from '../../src/mirror/sync.ts';
import { cipoWeekly, usptoDaily } from '../../src/register/feeds.ts';
import type { Scanner } from '../../src/scan/scanner.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories } from '../helpers/factories.ts';
import { type FeedServer, zipOf } from '../helpers/feed-server.ts';
import {
  bandMismatches,
  importRecords,
  candidateIndexes as indexesOf,
  makeRecord,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import { SUVENEER_XML, sync, syncTestContext } from '../helpers/register-sync.ts';
import { testScanner } from '../helpers/scan.ts';

const CIPO = 'test/fixtures/cipo';
/** CIPO's full release of a day, in two parts (a backfill: loaded with --since), then a week. */
const RELEASE = [
  'CA-TMK-GLOBAL_2026-01-03_1_500000_001.zip',
  'CA-TMK-GLOBAL_2026-01-03_500001_1000000_002.zip',
];
const WEEK = 'WEEKLY_2026-01-06_00-07-58.zip';
/** A watch of the sample's CERIDIAN (CA-1057614, class 17). */
const ceridian = { name: 'Ceridian', niceClasses: [17], designations: ['CA'] };

describe("a feed's first sync into an empty register mirror", () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let scanner: Scanner;
  let principal: Principal;
  let migratedIndexes: string[];
  const files: Record<string, Buffer> = {};

  const candidateIndexes = () => indexesOf(db);
  const loadingBy = async () =>
    (await db.query<{ feed: string | null }>('SELECT feed FROM mirror_initial_load'))[0]?.feed;
  const markCount = async () => (await db.query('SELECT 1 FROM marks')).length;
  const run = (options: Parameters<typeof sync>[2] = {}) =>
    sync(db, server, { feed: cipoWeekly, since: '2026-01-01', ...options });
  const isUnfinishedLoad = (error: unknown) =>
    error instanceof ApiError &&
    /initial load .*first sync of feed cipo-weekly.* has not finished: run "tmwatch registers sync --feed cipo-weekly" again/.test(
      error.message,
    );

  before(async () => {
    db = context.db;
    server = context.server;
    scanner = testScanner(db);
    migratedIndexes = await candidateIndexes();
    assert.ok(migratedIndexes.length >= 3, 'the migrations made the candidate indexes');
    // One of CIPO's real ST.96 files in each part of the release (the first, CERIDIAN, has a word
    // mark; the other is skipped); the week holds both.
    const one = `${CIPO}/trademark-go_CA-ST96_1057613-00_1.xml`;
    const two = `${CIPO}/trademark-go_CA-ST96_1057614-00_2.xml`;
    files[RELEASE[0] as string] = await zipOf({ 'b.xml': two });
    files[RELEASE[1] as string] = await zipOf({ 'a.xml': one });
    files[WEEK] = await zipOf({ 'a.xml': one, 'b.xml': two });
  });

  beforeEach(async () => {
    await db.query('DELETE FROM scan_runs');
    await db.query('DELETE FROM watches');
    await db.query('DELETE FROM mark_words');
    ({ principal } = await factories(db).makeOwner({ tier: 'team' }));
  });

  const serveAll = () => {
    for (const [name, body] of Object.entries(files))
      server.files.set(name, { kind: 'file', body });
  };

  it('loads without the candidate indexes, then builds them and counts the words once', async () => {
    serveAll();
    // The release's second part trickles in: the state between the two parts can be looked at.
    const second = files[RELEASE[1] as string] as Buffer;
    server.files.set(RELEASE[1] as string, { kind: 'slow', body: second, chunk: 64, everyMs: 40 });
    const running = run();
    await eventually('the first part to be loaded', async () =>
      (await listRegisterFiles(db)).some((f) => f.name === RELEASE[0] && f.status === 'loaded'),
    );
    assert.equal(await loadingBy(), 'cipo-weekly');
    assert.deepEqual(await candidateIndexes(), [], 'no candidate index while the load runs');
    assert.ok((await markCount()) > 0);
    assert.deepEqual(await storedWordCounts(db), new Map(), 'the words are counted at the end');
    const watch = await factories(db).makeWatch(principal, ceridian);
    assert.deepEqual(await scanner.queue.claim(1), [], 'no scan of a mirror being loaded');

    const report = await running;
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status]),
      [...RELEASE, WEEK].map((name) => [name, 'loaded']),
    );
    assert.equal(report.initialLoad, 'finished');
    assert.equal(await loadingBy(), undefined);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.notDeepEqual(await storedWordCounts(db), new Map());
    assert.deepEqual(await bandMismatches(db), []);
    // Scans run again (CERIDIAN was withdrawn: dead, it raises no alert).
    assert.equal((await scanner.scan({ watchIds: [watch.id] })).watchesScanned, 1);

    // The mirror holds records now: the next sync is an ordinary one.
    const later = 'WEEKLY_2026-01-13_00-05-12.zip';
    server.files.set(later, { kind: 'file', body: files[WEEK] as Buffer });
    const next = await run({ since: undefined });
    assert.deepEqual(
      next.files.filter((f) => f.status === 'loaded').map((f) => f.name),
      [later],
    );
    assert.equal(next.initialLoad, undefined);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
  });

  it('stopped, it leaves the mirror marked as loading: no scan, no other import or feed, until the same feed syncs again', async () => {
    serveAll();
    const second = files[RELEASE[1] as string] as Buffer;
    server.files.set(RELEASE[1] as string, { kind: 'slow', body: second, chunk: 64, everyMs: 40 });
    const controller = new AbortController();
    const running = run({ signal: controller.signal });
    await eventually(
      'the second part to be streaming',
      async () =>
        (await listRegisterFiles(db)).some((f) => f.name === RELEASE[0] && f.status === 'loaded') &&
        server.requests(`/feed/${RELEASE[1]}`) === 1,
    );
    controller.abort();
    const report = await running;
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status, f.reason ?? null]),
      [
        [RELEASE[0], 'loaded', null],
        [RELEASE[1], 'failed', INTERRUPTED],
      ],
    );
    assert.equal(report.initialLoad, 'unfinished');
    assert.equal(await loadingBy(), 'cipo-weekly');
    assert.deepEqual(await candidateIndexes(), [], 'no index half built');

    const watch = await factories(db).makeWatch(principal, ceridian);
    assert.deepEqual(await scanner.queue.claim(1), []);
    await assert.rejects(scanner.scan({ watchIds: [watch.id] }), isUnfinishedLoad);
    await assert.rejects(importRecords(db, [makeRecord()]), isUnfinishedLoad);
    await assert.rejects(importRecords(db, [makeRecord()], { initial: true }), isUnfinishedLoad);
    // Another feed's sync waits too, before it downloads anything.
    server.files.set('apc260105.zip', {
      kind: 'file',
      body: await zipOf({ 'a.xml': SUVENEER_XML }),
    });
    await assert.rejects(sync(db, server, { feed: usptoDaily }), isUnfinishedLoad);
    assert.equal(server.requests('/feed/apc260105.zip'), 0);
    assert.deepEqual(await candidateIndexes(), []);

    // The feed's next sync (the schedule's, or the same command) resumes the load and ends it.
    serveAll();
    const next = await run();
    assert.deepEqual(
      next.files.map((f) => [f.name, f.status]),
      [
        [RELEASE[0], 'skipped'],
        [RELEASE[1], 'loaded'],
        [WEEK, 'loaded'],
      ],
    );
    assert.equal(next.initialLoad, 'finished');
    assert.equal(await loadingBy(), undefined);
    assert.deepEqual(await candidateIndexes(), migratedIndexes);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await bandMismatches(db), []);
    assert.equal((await scanner.scan({ watchIds: [watch.id] })).watchesScanned, 1);
  });
});
