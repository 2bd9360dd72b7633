import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { type Db, openDb } from '../../src/data/db.ts';
import { openReadReplica, type ReadReplica } from '../../src/data/replica.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories, principalFor } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { type ReplicaCluster, startReplicaCluster } from '../helpers/replica-cluster.ts';
import { validWatch } from '../helpers/server.ts';

type Auth = { authorization: string };
type Owner = { auth: Auth; principal: ReturnType<typeof principalFor> };

// The API's lists read from a real streaming hot standby (DATABASE_REPLICA_URL), a private primary
// and a pg_basebackup of it on another port, started and stopped here; single resources and every
// write stay on the primary, and a client's own writes are in its lists at once.
describe('API lists on a hot standby', {
  skip: postgresOnly('starts PostgreSQL clusters of its own'),
}, () => {
  const MAX_LAG_SECONDS = 5;
  let cluster: ReplicaCluster | undefined;
  let primary: Db;
  let standby: Db;
  let reads: ReadReplica;
  let app: FastifyInstance;
  let now = Date.now();
  const clock: Clock = { now: () => now };
  /** Moves the clock on, so that the next list measures the standby again. */
  const later = (seconds: number) => {
    now += seconds * 1000;
  };
  const lines: string[] = [];

  before(async () => {
    cluster = await startReplicaCluster();
    primary = await openDb({ databaseUrl: cluster.primaryUrl, dataDir: '' });
    standby = await openDb({ databaseUrl: cluster.standbyUrl, dataDir: '' });
    await migrateDatabase(primary);
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    reads = await openReadReplica({
      primary,
      url: cluster.standbyUrl,
      maxLagSeconds: MAX_LAG_SECONDS,
      clock,
      logger,
    });
    app = await buildApp({
      db: primary,
      reads,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 100_000,
      statementTimeoutMs: 30_000,
      clock,
    });
  });

  after(async () => {
    // Each step runs whatever failed before it: the clusters are always stopped and deleted.
    await app?.close().catch(() => {});
    await reads?.close().catch(() => {});
    await standby?.close().catch(() => {});
    await primary?.close().catch(() => {});
    cluster?.destroy();
  });

  const makeOwner = async (): Promise<Owner> => {
    const make = factories(primary);
    const user = await make.makeUser();
    const { auth } = await make.makeKey({ userId: user.id });
    return { auth, principal: principalFor(user, 'team') };
  };
  const call = async (auth: Auth, method: 'GET' | 'POST' | 'PATCH', url: string, body?: object) => {
    const response = await app.inject({
      method,
      url: `/api/v1${url}`,
      headers: auth,
      ...(body ? { payload: body } : {}),
    });
    assert.ok(
      response.statusCode < 300,
      `${method} ${url}: ${response.statusCode} ${response.body}`,
    );
    return response.json();
  };
  const ids = async (auth: Auth, url: string) =>
    ((await call(auth, 'GET', url)).data as { id: string }[]).map((item) => item.id);
  /**
   * Waits until the standby has replayed everything the primary has written so far: up to the
   * insert position, since the clusters commit asynchronously (synchronous_commit=off), so the
   * last commit may not have been written out yet.
   */
  const caughtUp = async () => {
    const [primaryAt] = await primary.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    await eventually('the standby to replay what the primary wrote', async () => {
      const [row] = await standby.query<{ done: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [primaryAt?.lsn],
      );
      return row?.done === true;
    });
  };
  /** Waits until the primary has written out its WAL (asynchronous commits), as the lag sees it. */
  const writtenOut = async () => {
    const [at] = await primary.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    await eventually('the primary to write its last commit out', async () => {
      const [row] = await primary.query<{ done: boolean }>(
        'SELECT pg_current_wal_lsn() >= $1::pg_lsn AS done',
        [at?.lsn],
      );
      return row?.done === true;
    });
  };
  const pauseReplay = async () => {
    await standby.query('SELECT pg_wal_replay_pause()');
    await eventually('replay to pause', async () => {
      const [row] = await standby.query<{ state: string }>(
        'SELECT pg_get_wal_replay_pause_state() AS state',
      );
      return row?.state === 'paused';
    });
  };
  const resumeReplay = () => standby.query('SELECT pg_wal_replay_resume()');
  const warnings = () => lines.filter((line) => JSON.parse(line).level === 40);

  it('lists read the standby; single resources the primary; a client sees its own writes in its lists', async () => {
    const [writer, other] = [await makeOwner(), await makeOwner()];
    const make = factories(primary);
    const writersWatch = await make.makeWatch(writer.principal, { name: 'Northwind' });
    const [alertId] = await make.makeAlerts(writersWatch.id, 1, () => ({}));
    await caughtUp();
    later(1.5);
    // Asked twice: the second answer may come from the page cache, kept under the standby's version.
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await ids(writer.auth, '/alerts?state=unread'), [alertId]);
    }

    await pauseReplay();
    // Written through the API: the writer's lists read the primary until the standby has it.
    const created = await call(writer.auth, 'POST', '/watches', validWatch({ name: 'Quillmark' }));
    assert.ok((await ids(writer.auth, '/watches')).includes(created.data.id));
    await call(writer.auth, 'PATCH', `/alerts/${alertId}`, { state: 'dismissed' });
    assert.deepEqual(await ids(writer.auth, '/alerts?state=unread'), []);
    assert.deepEqual(await ids(writer.auth, '/alerts?state=dismissed'), [alertId]);
    const hook = await call(writer.auth, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/tmw',
      events: ['alert.created'],
    });
    assert.deepEqual(await ids(writer.auth, '/webhooks'), [hook.data.id]);

    // Written by another process (a scan, another instance): the other owner's lists come from the
    // paused standby and do not show it yet; the resource itself is read on the primary.
    const watch = await make.makeWatch(other.principal, { name: 'Brightwater' });
    const [otherAlert] = await make.makeAlerts(watch.id, 1, () => ({}));
    const webhook = await make.makeWebhook(other.principal, { url: 'https://hooks.example.com/b' });
    assert.deepEqual(await ids(other.auth, '/watches'), []);
    assert.deepEqual(await ids(other.auth, '/alerts'), []);
    assert.deepEqual(await ids(other.auth, '/webhooks'), []);
    assert.equal((await call(other.auth, 'GET', `/watches/${watch.id}`)).data.id, watch.id);
    assert.equal((await call(other.auth, 'GET', `/alerts/${otherAlert}`)).data.id, otherAlert);

    await resumeReplay();
    await caughtUp();
    later(1.5);
    assert.deepEqual(await ids(other.auth, '/watches'), [watch.id]);
    assert.deepEqual(await ids(other.auth, '/alerts'), [otherAlert]);
    assert.deepEqual(await ids(other.auth, '/webhooks'), [webhook.id]);
    assert.deepEqual(warnings(), [], 'a standby within the limit is read without a warning');
  });

  it('a standby lagging beyond the limit: lists read the primary, with one warning line', async () => {
    const owner = await makeOwner();
    // Whatever an earlier test left paused.
    await resumeReplay();
    await caughtUp();
    await pauseReplay();
    const watch = await factories(primary).makeWatch(owner.principal, { name: 'Silverline' });
    await writtenOut();
    later(1.5);
    // Measured now: the standby has not reached the primary's position, but is within the limit.
    assert.deepEqual(await ids(owner.auth, '/watches'), []);
    later(MAX_LAG_SECONDS + 1);
    assert.deepEqual(await ids(owner.auth, '/watches'), [watch.id]);
    later(11);
    assert.deepEqual(await ids(owner.auth, '/watches'), [watch.id]);
    const warned = warnings();
    assert.equal(warned.length, 1, 'one line, not one per request');
    assert.match(JSON.parse(warned[0] as string).msg, /^reading from the primary: the standby is/);
    await resumeReplay();
    await caughtUp();
    later(11);
    assert.deepEqual(await ids(owner.auth, '/watches'), [watch.id]);
    assert.ok(lines.some((l) => JSON.parse(l).msg.startsWith('reading from the standby again')));
  });

  it('a stopped standby: lists read the primary, with one warning line and no secret', async () => {
    lines.length = 0;
    const owner = await makeOwner();
    // Whatever an earlier test left paused.
    await resumeReplay();
    await caughtUp();
    later(1.5);
    assert.deepEqual(await ids(owner.auth, '/watches'), []);
    // The standby passed its last check; it stops before the next list reads it.
    cluster?.stopStandby();
    const watch = await factories(primary).makeWatch(owner.principal, { name: 'Lanternfish' });
    assert.deepEqual(await ids(owner.auth, '/watches'), [watch.id]);
    later(11);
    assert.deepEqual(await ids(owner.auth, '/alerts'), []);
    assert.deepEqual(await ids(owner.auth, '/watches'), [watch.id]);
    const warned = warnings();
    assert.equal(warned.length, 1);
    assert.match(JSON.parse(warned[0] as string).msg, /^reading from the primary: the standby/);
    assert.doesNotMatch(warned[0] as string, /stack|postgres:\/\//);
  });
});
