import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/data/db.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories, principalFor } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { type ReplicaCluster, replicaSuite } from '../helpers/replica-cluster.ts';
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
  const suite = replicaSuite(MAX_LAG_SECONDS);
  const { clock, later, lines, warnings, caughtUp, pauseReplay, resumeReplay } = suite;
  let primary: Db;
  let cluster: ReplicaCluster;
  let app: FastifyInstance;

  before(async () => {
    ({ primary, cluster } = suite);
    app = await buildApp({
      db: primary,
      reads: suite.reads,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 100_000,
      statementTimeoutMs: 30_000,
      clock,
    });
  });
  after(() => app?.close());

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
    assert.ok(
      lines.some((l: string) => JSON.parse(l).msg.startsWith('reading from the standby again')),
    );
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
