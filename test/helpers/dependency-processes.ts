import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres } from '../../src/data/db.ts';
import { eventually } from './eventually.ts';

// Servers of a test's own, on ports of their own, that the test may pause (SIGSTOP), resume and
// kill: the machine's shared PostgreSQL and Redis, which other test runs use, are never touched.

export const REDIS_SERVER = '/usr/bin/redis-server';
const INITDB = '/usr/local/bin/initdb';
const POSTGRES = '/usr/local/bin/postgres';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export type PausableServer = {
  port: number;
  url: string;
  /** SIGSTOP: the kernel still accepts connections and data, nothing answers. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
};

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Continued first: a stopped process would not act on the kill until then.
  process.kill(-(child.pid as number), 'SIGCONT');
  process.kill(-(child.pid as number), 'SIGKILL');
  await exited;
}

/** A redis-server of the test's own; undefined reason when the machine has one to start. */
export const redisServerMissing = existsSync(REDIS_SERVER) ? false : `needs ${REDIS_SERVER}`;

export async function startRedisServer(): Promise<PausableServer> {
  const port = await freePort();
  // Its own process group, so that pausing and killing reach it whatever it forks.
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', detached: true },
  );
  await eventually('redis-server listens', () => canConnect(port), { timeoutMs: 20_000 });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pause: () => process.kill(-(child.pid as number), 'SIGSTOP'),
    resume: () => process.kill(-(child.pid as number), 'SIGCONT'),
    stop: () => stopGroup(child),
  };
}

/** Sends `name` to `pid`, which may have ended since it was listed (a backend exiting). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The processes whose parent is `pid` (Linux: /proc/N/stat's fourth field). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces: the fields after it are split.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/**
 * Why a private PostgreSQL cluster cannot be started here, or false: initdb refuses to run as
 * root, so the cluster runs as the machine's `postgres` user, which only root can become.
 */
export function privatePostgresMissing(): string | false {
  if (!existsSync(INITDB) || !existsSync(POSTGRES)) return `needs ${INITDB} and ${POSTGRES}`;
  if (process.getuid?.() !== 0) return 'needs root (to run initdb as the postgres user)';
  if (postgresUser() === null) return 'needs a postgres user';
  return false;
}

/**
 * A PostgreSQL cluster of the test's own: initdb into a temporary folder, the server on a free
 * port of 127.0.0.1 (its socket in that folder), trust authentication for `postgres`. `url` names
 * its `postgres` database. Pausing stops every process of the cluster, as a frozen machine would.
 */
export async function startPrivatePostgres(): Promise<PausableServer> {
  const user = postgresUser();
  if (!user) throw new Error('no postgres user');
  const dir = mkdtempSync(join(tmpdir(), 'tmw-pg-'));
  await chown(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  execFileSync(INITDB, ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], {
    ...user,
    stdio: 'ignore',
  });
  const port = await freePort();
  const child = spawn(
    POSTGRES,
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
    { ...user, stdio: 'ignore', detached: true },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await eventually(
    'the private PostgreSQL accepts connections',
    async () => {
      const sql = connectPostgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
      try {
        return (await sql.unsafe('SELECT 1')).length === 1;
      } finally {
        await sql.end({ timeout: 0 });
      }
    },
    { timeoutMs: 30_000, ignoreErrors: true },
  );
  const postmaster = child.pid as number;
  // Each backend is a session of its own (PostgreSQL calls setsid), so the postmaster's process
  // group does not reach them: the postmaster first (no new backend is forked), then its children.
  const pause = () => {
    signal(postmaster, 'SIGSTOP');
    for (const pid of childrenOf(postmaster)) signal(pid, 'SIGSTOP');
  };
  const resume = () => {
    for (const pid of childrenOf(postmaster)) signal(pid, 'SIGCONT');
    signal(postmaster, 'SIGCONT');
  };
  return {
    port,
    url,
    pause,
    resume,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        resume();
        // Immediate shutdown: the postmaster ends its backends before it exits.
        signal(postmaster, 'SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
