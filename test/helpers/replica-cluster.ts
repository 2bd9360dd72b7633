import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import type { Clock } from '../../src/clock.ts';
import { type Db, openDb } from '../../src/data/db.ts';
import { openReadReplica, type ReadReplica } from '../../src/data/replica.ts';
import { createLogger } from '../../src/logger.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { freePort } from './cli.ts';
import { eventually } from './eventually.ts';

/**
 * A private PostgreSQL primary with a streaming hot standby, on this machine, for the tests of
 * DATABASE_REPLICA_URL: `initdb` of a primary in a temporary folder (wal_level=replica, a
 * replication line in its pg_hba), then `pg_basebackup -R` of it into a second cluster on another
 * port. Both run as the `postgres` OS user (PostgreSQL refuses root). `destroy()` stops both and
 * deletes the folder; it is also run when the process exits, so a failed test leaves nothing.
 */
export type ReplicaCluster = {
  primaryUrl: string;
  standbyUrl: string;
  stopStandby(): void;
  startStandby(): void;
  destroy(): void;
};

const BIN = process.env.PG_BINDIR ?? '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL program as the postgres OS user; throws with its output when it fails. */
function pg(program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

const SETTINGS = (port: number, dir: string) => `
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 16MB
max_connections = 40
wal_receiver_status_interval = 1
logging_collector = off
`;

export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'tmw-replica-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chown', ['postgres:postgres', dir]);
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const stop = (data: string) => {
    spawnSync(
      asRoot ? 'runuser' : join(BIN, 'pg_ctl'),
      [
        ...(asRoot ? ['-u', 'postgres', '--', join(BIN, 'pg_ctl')] : []),
        'stop',
        '-D',
        data,
        '-m',
        'immediate',
      ],
      { timeout: 60_000 },
    );
  };
  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.off('exit', destroy);
    for (const data of started.reverse()) stop(data);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', destroy);
  const start = (data: string) => {
    pg('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(data, 'server.log')]);
    if (!started.includes(data)) started.push(data);
  };
  try {
    pg('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    appendFileSync(join(primaryDir, 'postgresql.conf'), SETTINGS(primaryPort, dir));
    appendFileSync(
      join(primaryDir, 'pg_hba.conf'),
      'host replication postgres 127.0.0.1/32 trust\n',
    );
    start(primaryDir);
    pg('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
    appendFileSync(join(standbyDir, 'postgresql.conf'), SETTINGS(standbyPort, dir));
    start(standbyDir);
  } catch (error) {
    destroy();
    throw error;
  }
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    stopStandby: () => pg('pg_ctl', ['stop', '-D', standbyDir, '-m', 'fast', '-w']),
    startStandby: () => start(standbyDir),
    destroy,
  };
}

/**
 * Driving the standby's replay from a test, with connections to both servers (asked for when used:
 * a suite opens them in its `before`).
 */
export function replayControls(servers: () => { primary: Db; standby: Db }) {
  return {
    /**
     * Waits until the standby has replayed everything the primary has written so far: up to the
     * insert position, since the clusters commit asynchronously (synchronous_commit=off), so the
     * last commit may not have been written out yet.
     */
    async caughtUp() {
      const { primary, standby } = servers();
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
    },
    async pauseReplay() {
      const { standby } = servers();
      await standby.query('SELECT pg_wal_replay_pause()');
      await eventually('replay to pause', async () => {
        const [row] = await standby.query<{ state: string }>(
          'SELECT pg_get_wal_replay_pause_state() AS state',
        );
        return row?.state === 'paused';
      });
    },
    resumeReplay: () => servers().standby.query('SELECT pg_wal_replay_resume()'),
  };
}

/** A logger at info whose lines are kept, and the warnings among them. */
export function keptLines() {
  const lines: string[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const warnings = () => lines.filter((line) => JSON.parse(line).level === 40);
  return { logger, lines, warnings };
}

export type ReplicaSuite = {
  cluster: ReplicaCluster;
  primary: Db;
  standby: Db;
  /** The ReadReplica under test, measuring with `clock` and logging to `logger`. */
  reads: ReadReplica;
  clock: Clock;
  /** Moves the clock on, so that the next unit of work measures the standby again. */
  later(seconds: number): void;
} & ReturnType<typeof keptLines> &
  ReturnType<typeof replayControls>;

/**
 * The hooks of a suite on a real primary and standby: the clusters started, the primary migrated
 * and a ReadReplica opened before the suite; all closed, stopped and deleted after it (each step
 * also when an earlier one failed).
 */
export function replicaSuite(maxLagSeconds: number): ReplicaSuite {
  let now = Date.now();
  const suite = {
    clock: { now: () => now },
    later: (seconds: number) => {
      now += seconds * 1000;
    },
    ...keptLines(),
    ...replayControls(() => suite),
  } as ReplicaSuite;
  let cluster: ReplicaCluster | undefined;
  before(async () => {
    cluster = await startReplicaCluster();
    suite.cluster = cluster;
    suite.primary = await openDb({ databaseUrl: cluster.primaryUrl, dataDir: '' });
    suite.standby = await openDb({ databaseUrl: cluster.standbyUrl, dataDir: '' });
    await migrateDatabase(suite.primary);
    suite.reads = await openReadReplica({
      primary: suite.primary,
      url: cluster.standbyUrl,
      maxLagSeconds,
      clock: suite.clock,
      logger: suite.logger,
    });
  });
  after(async () => {
    await suite.reads?.close().catch(() => {});
    await suite.standby?.close().catch(() => {});
    await suite.primary?.close().catch(() => {});
    cluster?.destroy();
  });
  return suite;
}
