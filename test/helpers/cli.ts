import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPostgres } from '../../src/data/db.ts';
import { listMigrations } from '../../src/data/migrate.ts';

/**
 * Helpers of the tests that drive `bin/tmwatch` as a real process, the way operators and scripts
 * do: fresh installations (a database of their own), command runs, and `serve` processes.
 */

export const BIN = fileURLToPath(new URL('../../bin/tmwatch', import.meta.url));

export type Env = Record<string, string | undefined>;

// Variables of the service (and of the test runner) that must not leak from the test's own
// environment into a child: each test states the configuration its child runs with.
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_REPLICA_URL',
  'DATABASE_REPLICA_MAX_LAG_SECONDS',
  'DATA_DIR',
  'REDIS_URL',
  'SMTP_URL',
  'SCHEDULER',
  'RATE_LIMIT_PER_MINUTE',
  'LOG_LEVEL',
  'PUBLIC_URL',
  'MAIL_FROM',
  'TRUST_PROXY',
  'REQUEST_TIMEOUT_SECONDS',
  'MAX_CONNECTIONS',
  'FAILED_AUTH_PER_MINUTE',
  'SCAN_LEASE_SECONDS',
  'SCAN_POLL_SECONDS',
  'WEBHOOK_ALLOW_PRIVATE_URLS',
  'REGISTER_SYNC_AT',
  'REGISTER_FEEDS',
  'USPTO_API_KEY',
  'EUIPO_CLIENT_ID',
  'EUIPO_CLIENT_SECRET',
  'EUIPO_ENVIRONMENT',
  'EUIPO_TOKEN_URL',
  'REGISTER_MAX_ENTRY_MB',
  'REGISTER_MAX_UNZIPPED_MB',
  'NODE_TEST_CONTEXT',
  'NODE_OPTIONS',
];

export function childEnv(env: Env): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete base[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
}

export type RunResult = {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock duration of the whole process, start to exit. */
  ms: number;
};

/** Runs `bin/tmwatch ARGS` to completion. */
export function tmwatch(args: string[], env: Env, timeoutMs = 120_000): Promise<RunResult> {
  const started = Date.now();
  const child = spawn(BIN, args, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * The one JSON object a successful command printed: stdout must be exactly one line holding one
 * JSON object, and the command must have exited 0.
 */
// biome-ignore lint/suspicious/noExplicitAny: printed objects are inspected field by field in tests
export function printedObject(result: RunResult): any {
  if (result.status !== 0) {
    throw new Error(`tmwatch exited ${result.status}: ${result.stderr}`);
  }
  const lines = result.stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '') {
    throw new Error(`stdout is not exactly one line: ${JSON.stringify(result.stdout)}`);
  }
  const value: unknown = JSON.parse(lines[0] ?? '');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`stdout is not a JSON object: ${result.stdout}`);
  }
  return value;
}

/** The message of a failed command: exactly one line on stderr, nothing on stdout. */
export function failureLine(result: RunResult): string {
  if (result.status === 0) throw new Error(`tmwatch succeeded unexpectedly: ${result.stdout}`);
  if (result.stdout !== '') throw new Error(`a failed command printed on stdout: ${result.stdout}`);
  const lines = result.stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '') {
    throw new Error(`stderr is not exactly one line: ${JSON.stringify(result.stderr)}`);
  }
  return lines[0] ?? '';
}

// Creating an embedded database on disk takes PGlite several seconds; every installation copies a
// migrated one, which takes milliseconds and is just as fresh. The template is made once by
// `tmwatch migrate` and kept in node_modules/.cache, keyed by the migrations and the PGlite
// version, so test files (and later runs) share it.
const CACHE_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/tmwatch-tests/', import.meta.url),
);

function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = fileURLToPath(
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
  );
  hash.update((JSON.parse(readFileSync(pglite, 'utf8')) as { version: string }).version);
  for (const migration of listMigrations()) hash.update(migration.version).update(migration.sql);
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;
function embeddedTemplate(): Promise<string> {
  template ??= (async () => {
    const key = templateKey();
    const dir = join(CACHE_DIR, `embedded-${key}`);
    if (existsSync(dir)) return dir;
    mkdirSync(CACHE_DIR, { recursive: true });
    const build = mkdtempSync(join(CACHE_DIR, 'build-'));
    try {
      printedObject(await tmwatch(['migrate'], { DATA_DIR: build }));
      // Atomic: a directory under the final name is always complete. If another test file got
      // there first, its copy is as good as ours.
      renameSync(build, dir);
    } catch (error) {
      if (!existsSync(dir)) throw error;
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
    for (const old of readdirSync(CACHE_DIR)) {
      if (old.startsWith('embedded-') && old !== `embedded-${key}`) {
        rmSync(join(CACHE_DIR, old), { recursive: true, force: true });
      }
    }
    return dir;
  })();
  return template;
}

export type Installation = {
  kind: 'pglite' | 'postgres';
  /** The environment of a `tmwatch` process of this installation. */
  env: Env;
  dataDir: string;
  /** Removes the data directory and drops the PostgreSQL database. */
  cleanup(): Promise<void>;
};

/** Whether the suite runs against a PostgreSQL server (and Redis) instead of embedded PGlite. */
export const serverDatabaseUrl = process.env.DATABASE_URL || undefined;
export const serverRedisUrl = process.env.REDIS_URL || undefined;

/**
 * A new installation with a database of its own: a migrated embedded database in a temporary
 * DATA_DIR, or, when the suite runs against PostgreSQL (DATABASE_URL), a new database on that server
 * (empty: the first command migrates it). `embedded: true` forces PGlite; `empty: true` gives an
 * embedded DATA_DIR without any database yet.
 */
export async function freshInstallation(
  options: { embedded?: boolean; empty?: boolean } = {},
): Promise<Installation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tmwatch-test-'));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (options.embedded || !serverDatabaseUrl) {
    if (!options.empty) cpSync(await embeddedTemplate(), dataDir, { recursive: true });
    return { kind: 'pglite', env: { DATA_DIR: dataDir }, dataDir, cleanup: removeDir };
  }
  const name = `tmw_test_${randomBytes(6).toString('hex')}`;
  const admin = connectPostgres(serverDatabaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    async cleanup() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await removeDir();
    },
  };
}

/** A port nobody listens on right now (the OS picks it; it is released before use). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export type ServeProcess = {
  child: ChildProcess;
  /** The address from the banner, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The console banner `serve` printed once it listened. */
  banner: string;
  stderr(): string;
  /** Resolves with the exit status once the process has exited. */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

const BANNER = /Trademark Watch is running at (\S+)\n(?:.+\n)*\n/;

/** Starts `tmwatch serve` and resolves once it listens (its banner is out). */
export function startServe(env: Env, timeoutMs = 90_000): Promise<ServeProcess> {
  const child = spawn(BIN, ['serve'], {
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', SCHEDULER: 'off', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (status) => resolve(status));
  });
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  // A test that fails half-way must not leave a server running.
  process.on('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    void exited.then((status) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${status} before listening:\n${stderr}`));
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
      const match = BANNER.exec(stderr);
      if (!match?.[1] || started) return;
      started = true;
      clearTimeout(timer);
      const url = match[1];
      resolve({
        child,
        url,
        banner: match[0],
        stderr: () => stderr,
        exited,
        async stop(signal: NodeJS.Signals = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          const status = await exited;
          if (stdout !== '') throw new Error(`serve printed on stdout: ${stdout}`);
          return status;
        },
      });
    });
  });
}

/** A user of the given tier and an API key (watches and alerts scopes by default), made with the CLI. */
export async function makeKey(
  env: Env,
  tier = 'team',
  scopes = 'watches:read,watches:write,alerts:read',
): Promise<{ userId: string; key: string; id: string }> {
  const email = `user-${randomBytes(4).toString('hex')}@example.test`;
  const user = printedObject(
    await tmwatch(['users', 'create', '--email', email, '--tier', tier], env),
  );
  const key = printedObject(
    await tmwatch(['keys', 'create', '--user', user.id, '--name', 'test', '--scopes', scopes], env),
  );
  return { userId: user.id, key: key.key, id: key.id };
}

/** GET a path with an API key. */
export async function getWithKey(baseUrl: string, path: string, key: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as never,
  };
}
