import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Db, openDb } from '../../src/data/db.ts';
import { RedisRateLimitStore } from '../../src/http/rate-limit/redis-store.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { canConnect, freePort, REDIS_SERVER } from '../helpers/dependency-processes.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// Dependencies that go away and come back, for real: a redis-server of the test's own on a port
// of its own, killed and restarted, and a TCP proxy in front of the PostgreSQL server that the
// test stops (refusing connections) and starts again. The machine's own Redis and PostgreSQL,
// which other test runs share, are never touched.

const LOAD = 20;

// Recovery has no deadline of its own (only the 503s must come within 2 s): the wait is bounded
// for a hung test, and generous, because on a loaded 2-core CI host a whole burst answering 200
// again once took longer than 15 s.
const waitFor = (check: () => Promise<boolean>) =>
  eventually('the condition', check, { timeoutMs: 45_000, everyMs: 50, ignoreErrors: true });

/** `count` concurrent GETs; each response's status and how long the slowest took. */
async function burst(server: { baseUrl: string }, path: string, headers: Record<string, string>) {
  const started = Date.now();
  const responses = await Promise.all(
    Array.from({ length: LOAD }, () =>
      fetch(`${server.baseUrl}${path}`, { headers }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { error?: { code: string; retryAfter?: number } },
      })),
    ),
  );
  return { responses, ms: Date.now() - started };
}

function assertOutage(result: Awaited<ReturnType<typeof burst>>) {
  assert.ok(result.ms < 2_000, `the 503s took ${result.ms} ms`);
  for (const res of result.responses) {
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error?.code, 'unavailable');
    assert.match(res.retryAfter ?? '', /^[1-9]\d*$/);
    assert.equal(res.body.error?.retryAfter, Number(res.retryAfter));
  }
}

describe('Redis stops and comes back', { skip: !existsSync(REDIS_SERVER), timeout: 60_000 }, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let server: TestServer;
  let auth: Record<string, string>;

  async function startRedis() {
    redis = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor(() => canConnect(port));
  }
  async function killRedis() {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  before(async () => {
    port = await freePort();
    await startRedis();
    server = await startTestServer({
      rateLimit: new RedisRateLimitStore(`redis://127.0.0.1:${port}`),
    });
    auth = (await server.make.makeKey()).auth;
  });
  after(async () => {
    await server?.close();
    await killRedis();
  });

  it('answers 503 with Retry-After within 2 s under load, /readyz says so, and recovers', async () => {
    assert.equal((await fetch(`${server.baseUrl}/api/v1/me`, { headers: auth })).status, 200);
    const ready = await (await fetch(`${server.baseUrl}/readyz`)).json();
    assert.deepEqual(ready, { status: 'ready', checks: { database: 'ok', redis: 'ok' } });

    await killRedis();
    assertOutage(await burst(server, '/api/v1/me', auth));
    const notReady = await fetch(`${server.baseUrl}/readyz`);
    assert.equal(notReady.status, 503);
    assert.match(
      ((await notReady.json()) as { error: { message: string } }).error.message,
      /redis/,
    );

    await startRedis();
    await waitFor(
      async () => (await fetch(`${server.baseUrl}/api/v1/me`, { headers: auth })).status === 200,
    );
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
  });
});

/** A TCP proxy to PostgreSQL that the test stops (connections refused, open ones cut) and starts. */
class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

const DATABASE_URL = process.env.DATABASE_URL;

describe('PostgreSQL connections end, or it refuses them, and comes back', {
  skip: DATABASE_URL ? false : 'needs DATABASE_URL (a PostgreSQL server)',
  timeout: 90_000,
}, () => {
  let probe: TestServer;
  let app: FastifyInstance;
  let server: { baseUrl: string };
  let proxied: Db;
  let proxy: TcpProxy;
  let auth: Record<string, string>;
  let databaseName: string;

  before(async () => {
    // The test's own database; the app under test reaches it only through the proxy.
    probe = await startTestServer();
    const url = new URL(probe.database.url as string);
    databaseName = url.pathname.slice(1);
    proxy = new TcpProxy(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
    await proxy.start();
    url.host = `127.0.0.1:${proxy.port}`;
    proxied = await openDb({ databaseUrl: url.toString(), dataDir: '' });
    auth = (await probe.make.makeKey()).auth;
    app = await buildApp({
      db: proxied,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 100_000,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = { baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  });
  after(async () => {
    await app?.close();
    await proxied?.close();
    await proxy?.stop();
    await probe?.close();
  });

  it('reads survive the termination of every connection of the service', async () => {
    assert.equal((await burst(server, '/api/v1/watches', auth)).responses[0]?.status, 200);
    const admin = await openDb({ databaseUrl: DATABASE_URL as string, dataDir: '' });
    try {
      const killed = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'tmwatch' AND pid <> pg_backend_pid()`,
        [databaseName],
      );
      assert.ok((killed[0]?.n ?? 0) > 0);
    } finally {
      await admin.close();
    }
    const after = await burst(server, '/api/v1/watches', auth);
    assert.deepEqual(
      after.responses.map((r) => r.status),
      Array(LOAD).fill(200),
    );
  });

  it('refused connections are 503 within 2 s under load, and the pool recovers by itself', async () => {
    await proxy.stop();
    assertOutage(await burst(server, '/api/v1/watches', auth));
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 503);
    await proxy.start();
    await waitFor(async () => {
      const { responses } = await burst(server, '/api/v1/watches', auth);
      return responses.every((r) => r.status === 200);
    });
  });
});
