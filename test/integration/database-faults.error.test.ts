import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { connectPostgres, type Db, openDb, StatementTimeoutError } from '../../src/data/db.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  type PausableServer,
  privatePostgresMissing,
  startPrivatePostgres,
} from '../helpers/dependency-processes.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { checkLogsAfterEach, startTestServer, type TestServer } from '../helpers/server.ts';

// PostgreSQL failing for real: the service's own connections terminated under load, a database
// that refuses connections, a server frozen with SIGSTOP (a cluster of the test's own: the
// machine's shared server is never paused), and the statement deadline that bounds each request.

const LOAD = 20;
const PATHS = ['/api/v1/alerts', '/api/v1/webhooks', '/api/v1/watches', '/api/v1/me'];

type Burst = { statuses: number[]; retryAfters: (string | null)[]; ms: number };

async function burst(baseUrl: string, auth: Record<string, string>): Promise<Burst> {
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: LOAD }, async (_, i) => {
      const res = await fetch(`${baseUrl}${PATHS[i % PATHS.length]}`, { headers: auth });
      await res.arrayBuffer();
      return res;
    }),
  );
  return {
    statuses: responses.map((res) => res.status),
    retryAfters: responses.map((res) => res.headers.get('retry-after')),
    ms: performance.now() - started,
  };
}

function assertAllUnavailable(result: Burst, withinMs: number) {
  assert.ok(result.ms < withinMs, `the 503s took ${Math.round(result.ms)} ms`);
  assert.deepEqual(result.statuses, Array(LOAD).fill(503));
  for (const value of result.retryAfters) assert.match(value ?? '', /^[1-9]\d*$/);
}

const recovers = (baseUrl: string, auth: Record<string, string>) =>
  eventually(
    'every endpoint answers 200 again',
    async () => (await burst(baseUrl, auth)).statuses.every((status) => status === 200),
    { timeoutMs: 45_000, everyMs: 100 },
  );

/** SQL of the machine's server, outside the test's database. */
async function asAdmin<T>(run: (sql: ReturnType<typeof connectPostgres>) => Promise<T>) {
  const sql = connectPostgres(process.env.DATABASE_URL as string, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const terminateService = (database: string) =>
  asAdmin(async (sql) => {
    const rows = await sql.unsafe(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND application_name = 'tmwatch' AND pid <> pg_backend_pid()`,
      [database],
    );
    return Number(rows[0]?.n ?? 0);
  });

const serviceConnections = (database: string) =>
  asAdmin(async (sql) => {
    const rows = await sql.unsafe(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND application_name = 'tmwatch' AND state IS NOT NULL`,
      [database],
    );
    return Number(rows[0]?.n ?? 0);
  });

const databaseOf = (server: TestServer) => new URL(server.database.url as string).pathname.slice(1);

describe('the pool after its connections are terminated under load', {
  skip: postgresOnly('pg_terminate_backend of the service connections'),
  timeout: 120_000,
}, () => {
  let server: TestServer;
  let auth: Record<string, string>;
  before(async () => {
    server = await startTestServer({ captureLogs: true });
    auth = (await server.make.makeKey()).auth;
  });
  after(() => server?.close());
  checkLogsAfterEach(() => server);

  it('replaces every terminated connection: afterwards all ten work at once', async () => {
    let stop = false;
    const load = Array.from({ length: LOAD }, async (_, i) => {
      while (!stop) {
        const res = await fetch(`${server.baseUrl}${PATHS[i % PATHS.length]}`, { headers: auth });
        await res.arrayBuffer();
      }
    });
    try {
      for (let round = 0; round < 4; round++) {
        // Each round once the load has connections again, so that connections die mid-write.
        await eventually('the load has connections', async () => {
          return (await serviceConnections(databaseOf(server))) >= 3;
        });
        assert.ok((await terminateService(databaseOf(server))) > 0);
      }
    } finally {
      stop = true;
      await Promise.all(load);
    }
    // The last termination may still be reaching the client: first the service answers again.
    await recovers(server.baseUrl, auth);
    // Ten statements that each hold a connection for a while: they finish together only if every
    // connection of the pool (ten) can be opened again. A connection the driver left unable to
    // send would fail its statement with CONNECT_TIMEOUT after 2 s, round after round.
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => server.db.query('SELECT pg_sleep(0.3)')),
      );
      const failed = results.filter((r) => r.status === 'rejected');
      assert.deepEqual(
        failed.map((r) => String((r as PromiseRejectedResult).reason?.code)),
        [],
        'a connection could not be opened again',
      );
      assert.ok(performance.now() - started < 1_800, 'the statements waited for each other');
    }
    assert.deepEqual((await burst(server.baseUrl, auth)).statuses, Array(LOAD).fill(200));
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
  });
});

describe('a database that refuses connections (ALLOW_CONNECTIONS false)', {
  skip: postgresOnly('ALTER DATABASE of the test database'),
  timeout: 120_000,
}, () => {
  let server: TestServer;
  let auth: Record<string, string>;
  const allow = (value: boolean) =>
    asAdmin((sql) => sql.unsafe(`ALTER DATABASE ${databaseOf(server)} ALLOW_CONNECTIONS ${value}`));
  before(async () => {
    server = await startTestServer({ captureLogs: true });
    auth = (await server.make.makeKey()).auth;
  });
  after(async () => {
    if (server) await allow(true);
    await server?.close();
  });
  checkLogsAfterEach(() => server);

  it('is not ready while its open connections still answer', async () => {
    await recovers(server.baseUrl, auth);
    await allow(false);
    const res = await fetch(`${server.baseUrl}/readyz`);
    assert.equal(res.status, 503);
    assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });

  it('answers 503 with Retry-After (SQLSTATE 55000 is an outage), logs no stack, and recovers', async () => {
    await terminateService(databaseOf(server));
    assertAllUnavailable(await burst(server.baseUrl, auth), 2_000);
    assert.ok(server.logs.some((line) => line.includes('55000')));
    await allow(true);
    await recovers(server.baseUrl, auth);
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
  });
});

describe('a frozen PostgreSQL (SIGSTOP of a cluster of the test own)', {
  skip: postgresOnly('a PostgreSQL cluster started by the test') || privatePostgresMissing(),
  timeout: 120_000,
}, () => {
  let cluster: PausableServer;
  let db: Db;
  let app: FastifyInstance;
  let baseUrl: string;
  let auth: Record<string, string>;
  const logs: string[] = [];

  before(async () => {
    cluster = await startPrivatePostgres();
    const admin = connectPostgres(cluster.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('CREATE DATABASE tmw_frozen');
    await admin.end();
    db = await openDb({ databaseUrl: cluster.url.replace(/postgres$/, 'tmw_frozen'), dataDir: '' });
    await migrateDatabase(db);
    auth = (await factories(db).makeKey()).auth;
    app = await buildApp({
      db,
      logger: createLogger('info', {
        write(line: string) {
          logs.push(line);
        },
      }),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 100_000,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    cluster?.resume();
    await app?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('answers 503 with Retry-After within the deadline, is not ready, and recovers', async () => {
    // Every connection of the pool opened (on a busy machine that may take a few bursts).
    await recovers(baseUrl, auth);
    cluster.pause();
    // The deadline is 1.5 s; the rest is the burst's own HTTP on a busy machine.
    assertAllUnavailable(await burst(baseUrl, auth), 3_000);
    assert.equal((await fetch(`${baseUrl}/readyz`)).status, 503);
    cluster.resume();
    await recovers(baseUrl, auth);
    assert.equal((await fetch(`${baseUrl}/readyz`)).status, 200);
    for (const line of logs) {
      assert.ok((JSON.parse(line) as { level: number }).level < 50, line);
      assert.doesNotMatch(line, /stack/i);
    }
  });
});

describe('the statement deadline of a request', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database?.drop());

  it('fails a PostgreSQL statement that outlives it at once, and frees its connection', {
    skip: postgresOnly('a statement PostgreSQL is slow to answer'),
  }, async () => {
    const { db } = database;
    const started = performance.now();
    await assert.rejects(
      db.withStatementTimeout(200).query('SELECT pg_sleep(5)'),
      StatementTimeoutError,
    );
    await assert.rejects(
      db.withStatementTimeout(200).transaction(async (tx) => {
        await tx.query('SELECT pg_sleep(5)');
      }),
      StatementTimeoutError,
    );
    assert.ok(performance.now() - started < 2_000);
    // Cancelled on the server: nothing is left sleeping.
    await eventually('the statements are cancelled', async () => {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep(5)%'`,
      );
      return rows[0]?.n === 0;
    });
  });

  it('rolls back unrun a transaction that got its connection only after its deadline', {
    skip: postgresOnly('a pool whose every connection is busy'),
  }, async () => {
    const { db } = database;
    // Every connection of the pool (ten) busy for a while, outside any request.
    const busy = Array.from({ length: 10 }, () => db.query('SELECT pg_sleep(1)'));
    const watcher = connectPostgres(database.url as string, { max: 1, onnotice: () => {} });
    try {
      // Once one sleeps, the gate has handed all ten to the driver, ahead of the transaction.
      await eventually('the statements sleep', async () => {
        const rows = await watcher.unsafe(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND query = 'SELECT pg_sleep(1)' AND state = 'active'`,
        );
        return (rows[0]?.n ?? 0) > 0;
      });
    } finally {
      await watcher.end({ timeout: 1 });
    }
    await assert.rejects(
      db.withStatementTimeout(200).transaction(async (tx) => {
        await tx.exec('CREATE TABLE written_too_late (x int)');
      }),
      StatementTimeoutError,
    );
    await Promise.all(busy);
    // The transaction got a connection once the sleeps ended; it must have changed nothing.
    await eventually('the late transaction has ended', async () => {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      return rows[0]?.n === 0;
    });
    const [table] = await db.query<{ name: string | null }>(
      `SELECT to_regclass('written_too_late')::text AS name`,
    );
    assert.equal(table?.name, null);
  });

  it('does not bound the embedded database, which runs in the process', {
    skip: process.env.DATABASE_URL ? 'the embedded database only' : false,
  }, async () => {
    const rows = await database.db
      .withStatementTimeout(1)
      .query<{ n: number }>('SELECT count(*)::int AS n FROM generate_series(1, 200000)');
    assert.equal(rows[0]?.n, 200_000);
  });
});
