import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli.ts';

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
