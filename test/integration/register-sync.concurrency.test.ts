import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { runDueSyncs, runRegisterSyncLoop } from '../../src/mirror/schedule.ts';
import { eventually } from '../helpers/eventually.ts';
import type { FeedServer } from '../helpers/feed-server.ts';
import { FAST_HTTP, quietLogger, SEED_ZIP, syncTestContext } from '../helpers/register-sync.ts';

describe('scheduled register sync: once a day, one process per feed', () => {
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
  const at = (iso: string) => () => new Date(iso);
  const due = (now: () => Date, env: Record<string, string> = {}) =>
    runDueSyncs({
      config: config(env),
      db,
      logger: quietLogger,
      signal: new AbortController().signal,
      now,
      http: FAST_HTTP,
    });

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

  it('with REGISTER_FEEDS empty (the default) the loop returns at once and makes no request', async () => {
    const controller = new AbortController();
    await runRegisterSyncLoop({
      config: loadConfig({}),
      db,
      logger: quietLogger,
      signal: controller.signal,
      now: at('2026-01-02T12:00:00Z'),
    });
    assert.equal(server.requests('/feed/'), 0);
  });

  it('the loop of a worker syncs once the hour has passed, and stops when asked', async () => {
    const controller = new AbortController();
    const loop = runRegisterSyncLoop({
      config: config({ SCAN_POLL_SECONDS: '0.1' }),
      db,
      logger: quietLogger,
      signal: controller.signal,
      now: at('2026-01-02T12:00:00Z'),
      http: FAST_HTTP,
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
