import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { connectPostgres, openDb } from '../../src/data/db.ts';
import {
  BIN,
  childEnv,
  type Env,
  freshInstallation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { seedWatches } from '../helpers/seed.ts';

const skip = postgresOnly('several worker processes share one PostgreSQL database');

function startWorker(env: Env): ChildProcess {
  return spawn(BIN, ['worker'], {
    env: childEnv({ SCAN_POLL_SECONDS: '0.2', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

const until = <T>(what: string, probe: () => Promise<T>) =>
  eventually(what, probe, { timeoutMs: 120_000, everyMs: 100 });

/** A migrated PostgreSQL installation with an owner, opened from the test as well. */
async function installation() {
  const install = await freshInstallation();
  printedObject(await tmwatch(['migrate'], install.env));
  const db = await openDb({ databaseUrl: install.env.DATABASE_URL, dataDir: '' });
  const user = await factories(db).makeUser({ tier: 'enterprise' });
  return {
    install,
    db,
    user,
    async cleanup() {
      await db.close();
      await install.cleanup();
    },
  };
}

describe('scan workers sharing one PostgreSQL database', { skip, timeout: 300_000 }, () => {
  it('three worker processes scan 200 due watches, each exactly once', async (t) => {
    const { install, db, user, cleanup } = await installation();
    t.after(cleanup);
    await importRecords(db, [makeRecord({ markText: 'SEEDED' }), makeRecord()]);
    const ids = await seedWatches(db, { ownerId: user.id, createdBy: user.id, count: 200 });
    assert.equal(ids.length, 200);

    const workers = [1, 2, 3].map(() => startWorker(install.env));
    t.after(() => Promise.all(workers.map((w) => stop(w, 'SIGKILL'))));
    await until('every watch to be scanned', async () => {
      const [row] = await db.query<{ n: number }>(
        'SELECT count(DISTINCT watch_id)::int AS n FROM scan_runs',
      );
      return row?.n === 200 ? true : undefined;
    });
    // A worker stops only once its scan in hand has committed or been dropped: after this no
    // second scan of a watch can still be under way, so the count below is final.
    await Promise.all(workers.map((w) => stop(w)));
    assert.ok(
      workers.every((w) => w.exitCode === 0),
      'every worker stopped cleanly',
    );

    const runs = await db.query<{ watch_id: string; n: number }>(
      'SELECT watch_id, count(*)::int AS n FROM scan_runs GROUP BY watch_id',
    );
    assert.equal(runs.length, 200);
    assert.ok(
      runs.every((r) => r.n === 1),
      'no watch was scanned twice',
    );
    const [workersUsed] = await db.query<{ n: number }>(
      'SELECT count(DISTINCT worker)::int AS n FROM scan_runs',
    );
    assert.ok((workersUsed?.n ?? 0) >= 2, 'the work was shared between processes');
    const [errors] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scan_runs WHERE error IS NOT NULL',
    );
    assert.equal(errors?.n, 0);
  });

  it('a worker killed in the middle of committing a scan leaves nothing, and another completes it', async (t) => {
    const { install, db, user, cleanup } = await installation();
    t.after(cleanup);
    const records = ['NORTHWIND', 'NORTH WIND', 'NORTHWYND'].map((markText) =>
      makeRecord({ markText }),
    );
    await importRecords(db, [...records, makeRecord()]);
    const [watchId] = await seedWatches(db, { ownerId: user.id, createdBy: user.id, count: 1 });
    await db.query(`UPDATE watches SET name = 'Northwind' WHERE id = $1`, [watchId]);

    // Hold a lock that the scan's commit needs after it has written its hits and alerts: the
    // worker then stands inside its transaction, half done, when it is killed.
    const admin = connectPostgres(install.env.DATABASE_URL ?? '', { max: 1, onnotice: () => {} });
    t.after(() => admin.end());
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const locked = new Promise<void>((resolveLocked) => {
      void admin.begin(async (tx) => {
        await tx.unsafe('LOCK TABLE scan_runs IN SHARE ROW EXCLUSIVE MODE');
        resolveLocked();
        await released;
      });
    });
    await locked;

    const env = { ...install.env, SCAN_LEASE_SECONDS: '2' };
    const first = startWorker(env);
    t.after(() => stop(first, 'SIGKILL'));
    await until('the first worker to block inside its commit', async () => {
      const rows = await db.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%INSERT INTO scan_runs%'`,
      );
      return rows.length > 0 ? true : undefined;
    });
    await stop(first, 'SIGKILL');
    release();

    const count = async (table: string) =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;
    // The killed transaction is rolled back when its connection goes: no partial result.
    await until('the killed transaction to be rolled back', async () =>
      (await db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).length === 0
        ? true
        : undefined,
    );
    assert.equal(await count('hits'), 0);
    assert.equal(await count('alerts'), 0);
    assert.equal(await count('scan_runs'), 0);

    const second = startWorker(env);
    t.after(() => stop(second, 'SIGKILL'));
    await until('the second worker to complete the scan', async () =>
      (await count('scan_runs')) === 1 ? true : undefined,
    );
    await stop(second);
    const hits = await db.query<{ external_id: string }>(
      'SELECT external_id FROM hits WHERE watch_id = $1 ORDER BY external_id',
      [watchId],
    );
    assert.deepEqual(
      hits.map((h) => h.external_id),
      records.map((r) => r.externalId).sort(),
    );
    assert.equal(await count('alerts'), 3);
    assert.equal(await count('scan_runs'), 1);
  });
});
