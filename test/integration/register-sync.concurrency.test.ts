import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, beforeEach, describe, it } from 'node:test';
import type { Logger } from 'pino';
import type { Clock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import {
  claimScheduledSync,
  listRegisterFiles,
} from '../../src/data/repositories/register-files.ts';
import { registerSyncQueue, runDueSyncs } from '../../src/mirror/schedule.ts';
import { FEED_LEASE_SECONDS } from '../../src/mirror/sync.ts';
import { runQueues } from '../../src/runner.ts';
import { clockAt } from '../helpers/clock.ts';
import { eventually } from '../helpers/eventually.ts';
import type { FeedServer } from '../helpers/feed-server.ts';
import {
  FAST_HTTP,
  quietLogger,
  recordingLogger,
  SEED_ZIP,
  syncTestContext,
} from '../helpers/register-sync.ts';

describe('scheduled register sync: once a day, retried the same day, one process per feed', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  before(async () => {
    db = context.db;
    server = context.server;
  });
  beforeEach(() => {
    server.files.set('apc260101.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
  });

  const config = (env: Record<string, string> = {}) =>
    loadConfig({
      REGISTER_FEEDS: `uspto-daily=${server.url}`,
      REGISTER_SYNC_AT: '06:00',
      ...env,
    });
  const at = clockAt;
  /** Retries after one minute, then two…, three attempts a day. */
  const RETRY = { attempts: 3, backoffMs: 60_000 };
  const due = (clock: Clock, options: { env?: Record<string, string>; logger?: Logger } = {}) =>
    runDueSyncs({
      config: config(options.env),
      db,
      logger: options.logger ?? quietLogger,
      signal: new AbortController().signal,
      clock,
      http: FAST_HTTP,
      retry: RETRY,
    });
  const listings = () => server.requests('/feed/');
  const dayState = async () =>
    (
      await db.query<{ attempts: number; retryAt: Date | null; owner: string | null }>(
        `SELECT scheduled_attempts AS attempts, scheduled_retry_at AS "retryAt",
                lease_owner AS owner
           FROM register_feeds WHERE feed = 'uspto-daily'`,
      )
    )[0];

  it('before REGISTER_SYNC_AT nothing is fetched; after it the feed is synced', async () => {
    assert.deepEqual(await due(at('2026-01-02T05:59:00Z')), []);
    assert.equal(server.requests('/feed/'), 0);
    const reports = await due(at('2026-01-02T06:00:00Z'));
    assert.deepEqual(
      reports.map((r) => [r.feed, r.files.map((f) => f.status)]),
      [['uspto-daily', ['loaded']]],
    );
  });

  it('processes asking at the same time: exactly one of them syncs the feed that day', async () => {
    const now = at('2026-01-02T07:30:00Z');
    const results = await Promise.all([due(now), due(now), due(now)]);
    assert.equal(results.flat().length, 1);
    assert.equal(server.requests('/feed/'), 1);
    assert.equal(server.requests('/feed/apc260101.zip'), 1);
    const rows = await listRegisterFiles(db);
    assert.deepEqual(
      rows.map((r) => [r.name, r.status, r.attempts]),
      [['apc260101.zip', 'loaded', 1]],
    );
  });

  it('the same day is not synced twice; the next day is', async () => {
    await due(at('2026-01-02T06:10:00Z'));
    assert.deepEqual(await due(at('2026-01-02T23:59:00Z')), []);
    assert.equal(server.requests('/feed/'), 1);
    assert.equal((await due(at('2026-01-03T06:00:00Z'))).length, 1);
    assert.equal(server.requests('/feed/'), 2);
  });

  it('a sync whose listing cannot be read is tried again later that day, once the back-off has passed', async () => {
    server.listingStatus = 404;
    const { logger, lines } = recordingLogger();
    assert.deepEqual(await due(at('2026-01-02T06:00:00Z'), { logger }), []);
    assert.equal(listings(), 1);
    const failed = lines.find(
      (line) => line.msg === 'register sync failed; trying again later today',
    );
    assert.equal(failed?.retryAt, '2026-01-02T06:01:00.000Z');
    assert.equal(failed?.attempt, 1);
    assert.match(String(failed?.reason), /cannot read the listing .* HTTP 404/);
    assert.deepEqual(await due(at('2026-01-02T06:00:59Z')), [], 'not before the back-off');
    assert.equal(listings(), 1);
    server.listingStatus = null; // the office is back
    const reports = await due(at('2026-01-02T06:01:00Z'));
    assert.deepEqual(
      reports.map((r) => r.files.map((f) => [f.name, f.status])),
      [[['apc260101.zip', 'loaded']]],
    );
    assert.deepEqual(await due(at('2026-01-02T12:00:00Z')), [], 'the day is done');
    assert.equal(listings(), 2);
  });

  it('a sync where a file failed is tried again, and the retry loads only that file', async () => {
    const seed = readFileSync(SEED_ZIP);
    // The office's server fails (503) through the download's own retries, then recovers.
    const failing = 1 + FAST_HTTP.retries;
    server.files.set('apc260101.zip', { kind: 'flaky', body: seed, times: failing });
    server.files.set('apc260102.zip', { kind: 'file', body: seed });
    const first = await due(at('2026-01-02T06:00:00Z'));
    assert.deepEqual(
      first[0]?.files.map((f) => [f.status, f.reason]),
      [
        ['failed', 'HTTP 503 from the server'],
        ['loaded', undefined],
      ],
    );
    const retried = await due(at('2026-01-02T06:01:00Z'));
    assert.deepEqual(
      retried[0]?.files.map((f) => [f.name, f.status]),
      [
        ['apc260101.zip', 'loaded'],
        ['apc260102.zip', 'skipped'],
      ],
    );
    assert.equal(server.requests('/feed/apc260102.zip'), 1);
    assert.equal(server.requests('/feed/apc260101.zip'), failing + 1);
    assert.equal((await dayState())?.retryAt, null, 'nothing more to do today');
  });

  it('a file that another try cannot fix today (404, a corrupt archive) waits for the next day', async () => {
    server.files.set('apc260101.zip', { kind: 'status', status: 404 });
    server.files.set('apc260102.zip', { kind: 'file', body: Buffer.from('not a zip archive') });
    const { logger, messages } = recordingLogger();
    const [first] = await due(at('2026-01-02T06:00:00Z'), { logger });
    assert.deepEqual(
      first?.files.map((f) => f.status),
      ['failed', 'failed'],
    );
    assert.ok(messages().some((m) => m.includes('cannot load by trying again today')));
    assert.deepEqual(await due(at('2026-01-02T12:00:00Z')), []);
    assert.equal(server.requests('/feed/apc260101.zip'), 1, 'no download spent on it today');
    const [next] = await due(at('2026-01-03T06:00:00Z'));
    assert.deepEqual(
      next?.files.map((f) => f.status),
      ['failed', 'failed'],
      'the next day tries them again',
    );
  });

  it('the back-off doubles, the attempts of a day are bounded, and the next day starts again', async () => {
    server.listingStatus = 404;
    const { logger, messages } = recordingLogger();
    await due(at('2026-01-02T06:00:00Z'), { logger }); // attempt 1: again at 06:01
    await due(at('2026-01-02T06:01:00Z'), { logger }); // attempt 2: again at 06:03
    await due(at('2026-01-02T06:02:59Z'), { logger });
    assert.equal(listings(), 2);
    await due(at('2026-01-02T06:03:00Z'), { logger }); // attempt 3 of 3: none left
    await due(at('2026-01-02T23:59:00Z'), { logger });
    assert.equal(listings(), 3);
    assert.equal(
      messages().filter((m) => m.startsWith('register sync failed; no attempt left today')).length,
      1,
    );
    server.listingStatus = null;
    assert.equal((await due(at('2026-01-03T06:00:00Z'))).length, 1);
    assert.equal(listings(), 4);
  });

  it('processes asking for a due retry at the same time: exactly one of them runs it', async () => {
    server.listingStatus = 404;
    await due(at('2026-01-02T06:00:00Z'));
    server.listingStatus = null;
    const now = at('2026-01-02T06:05:00Z');
    const results = await Promise.all([due(now), due(now), due(now)]);
    assert.equal(results.flat().length, 1);
    assert.equal(listings(), 2);
    assert.equal(server.requests('/feed/apc260101.zip'), 1);
  });

  it('an attempt whose process died does not block the day: it is retried once its lease lapses', async () => {
    // A process claimed the day's sync at 06:00 and died: its lease runs out, nothing finished it.
    const claimed = await claimScheduledSync(db, {
      feed: 'uspto-daily',
      day: '2026-01-02',
      now: new Date('2026-01-02T06:00:00Z'),
      holder: 'died',
      leaseSeconds: FEED_LEASE_SECONDS,
      maxAttempts: RETRY.attempts,
    });
    assert.equal(claimed?.attempt, 1);
    assert.deepEqual(await due(at('2026-01-02T06:20:00Z')), [], 'its lease still runs');
    await db.query(
      `UPDATE register_feeds SET lease_expires_at = now() - interval '1 second'
        WHERE feed = 'uspto-daily'`,
    );
    assert.deepEqual(await due(at('2026-01-02T06:09:59Z')), [], 'not before its first lease ends');
    const reports = await due(at('2026-01-02T06:10:00Z'));
    assert.deepEqual(
      reports.map((r) => r.files.map((f) => f.status)),
      [['loaded']],
    );
    assert.deepEqual(await dayState(), { attempts: 2, retryAt: null, owner: null });
  });

  it('with REGISTER_FEEDS empty (the default) there is nothing to run and no request', async () => {
    const context = {
      config: loadConfig({}),
      db,
      logger: quietLogger,
      clock: at('2026-01-02T12:00:00Z'),
    };
    assert.equal(registerSyncQueue(context), null, 'no queue for the runner');
    assert.deepEqual(await runDueSyncs({ ...context, signal: new AbortController().signal }), []);
    assert.equal(server.requests('/feed/'), 0);
  });

  it('the runner of a worker syncs once the hour has passed, and stops when asked', async () => {
    const controller = new AbortController();
    const queue = registerSyncQueue({
      config: config(),
      db,
      logger: quietLogger,
      clock: at('2026-01-02T12:00:00Z'),
      http: FAST_HTTP,
    });
    assert.ok(queue);
    const loop = runQueues([queue], {
      pollMs: 100,
      signal: controller.signal,
      logger: quietLogger,
    });
    await eventually(
      'a file loaded by the loop',
      async () => (await listRegisterFiles(db)).some((row) => row.status === 'loaded'),
      { everyMs: 20 },
    );
    controller.abort();
    await loop;
    assert.equal(server.requests('/feed/'), 1);
  });
});
