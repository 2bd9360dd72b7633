import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { openDb } from '../../src/data/db.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { type ServeProcess, startServe } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import {
  type ReplicaCluster,
  replayControls,
  startReplicaCluster,
} from '../helpers/replica-cluster.ts';

// `tmwatch serve` itself with DATABASE_REPLICA_URL, on a real primary and a pg_basebackup standby:
// the process says where its lists are read, a list misses what the standby has not replayed, and
// a stopped standby moves the lists to the primary with one warning, not an error.
describe('tmwatch serve with DATABASE_REPLICA_URL', {
  skip: postgresOnly('starts PostgreSQL clusters of its own'),
}, () => {
  let cluster: ReplicaCluster;
  let primary: Db;
  let standby: Db;
  let serve: ServeProcess | undefined;
  const replay = replayControls(() => ({ primary, standby }));

  before(async () => {
    cluster = await startReplicaCluster();
    primary = await openDb({ databaseUrl: cluster.primaryUrl, dataDir: '' });
    standby = await openDb({ databaseUrl: cluster.standbyUrl, dataDir: '' });
    await migrateDatabase(primary);
  });
  after(async () => {
    await serve?.stop().catch(() => null);
    await standby?.close().catch(() => {});
    await primary?.close().catch(() => {});
    cluster?.destroy();
  });

  it('lists come from the standby while it is there, and from the primary when it stops', async () => {
    const make = factories(primary);
    const { user, principal } = await make.makeOwner();
    const { auth } = await make.makeKey({ userId: user.id });
    const first = await make.makeWatch(principal, { name: 'Replayed' });
    await replay.caughtUp();

    serve = await startServe({
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URL: cluster.standbyUrl,
      DATABASE_REPLICA_MAX_LAG_SECONDS: '600',
      LOG_LEVEL: 'info',
    });
    const running = serve;
    assert.match(
      running.stderr(),
      /the API reads its lists from the standby \(DATABASE_REPLICA_URL\)/,
    );
    const listed = async () => {
      const response = await fetch(`${running.url}/api/v1/watches`, { headers: auth });
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { data: { id: string }[] }).data.map((w) => w.id);
    };
    assert.deepEqual(await listed(), [first.id]);

    // Written on the primary behind the server's back while the standby does not replay: the
    // list, read from the standby, does not have it yet; once replay goes on, it does.
    await replay.pauseReplay();
    const second = await make.makeWatch(principal, { name: 'Not replayed' });
    assert.deepEqual(await listed(), [first.id]);
    await replay.resumeReplay();
    await eventually('the list to show the replayed watch', async () =>
      (await listed()).includes(second.id),
    );

    // Stopped: the same list, from the primary, and one warning that says so.
    cluster.stopStandby();
    await eventually('the list to be read from the primary', async () => {
      const ids = await listed();
      return ids.length === 2 && /reading from the primary/.test(running.stderr());
    });
    assert.doesNotMatch(running.stderr(), /"level":50|stack/);
    assert.equal(await running.stop(), 0);
    serve = undefined;
  });
});
