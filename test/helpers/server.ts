import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import type { Db } from '../../src/data/db.ts';
import { RedisRateLimitStore } from '../../src/http/rate-limit/redis-store.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { factories } from './factories.ts';
import { ResponseChecker } from './openapi.ts';

export type ApiResponse = {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected field by field in tests
  body: any;
  text: string;
};

export type RequestOptions = {
  headers?: Record<string, string>;
  /**
   * An object is sent as JSON; a string is sent as is (fetch labels it text/plain); a Blob without
   * a type is sent with no Content-Type at all.
   */
  body?: unknown;
};

/**
 * The real app on a real port against a fresh database, as every integration test uses it. Each
 * response to an API route is checked against the published OpenAPI document.
 */
export type TestServer = {
  app: FastifyInstance;
  db: Db;
  /** The view of `db` with the statement deadline that every request reads through (app.ts). */
  requestDb: Db;
  database: TestDatabase;
  baseUrl: string;
  make: ReturnType<typeof factories>;
  /** Every log line the app wrote, when started with `captureLogs` (level info and above). */
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
};

export async function startTestServer(
  options: {
    clock?: Clock;
    rateLimitPerMinute?: number;
    rateLimit?: RateLimitStore;
    captureLogs?: boolean;
    /** The level of the captured logs (default info). */
    captureLevel?: string;
    /** Further options of the app (time-outs, connection cap, trusted proxies…). */
    app?: Partial<AppDeps>;
    /** WEBHOOK_ALLOW_PRIVATE_URLS of the app (test receivers listen on 127.0.0.1). */
    webhookAllowPrivateUrls?: boolean;
  } = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const logSink = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const database = await createTestDatabase();
  const rateLimit =
    options.rateLimit ??
    (process.env.REDIS_URL
      ? new RedisRateLimitStore(process.env.REDIS_URL)
      : new MemoryRateLimitStore());
  // Nor over the statement deadline, on a machine busy with other test files: the tests of the
  // deadline (database-faults) build their app with the service's default.
  const statementTimeoutMs = options.app?.statementTimeoutMs ?? 30_000;
  // Made here and handed to the app, so that a test can watch the statements of requests.
  const requestDb = database.db.withStatementTimeout(statementTimeoutMs);
  const app = await buildApp({
    ...options.app,
    db: { ...database.db, withStatementTimeout: () => requestDb },
    logger: options.captureLogs
      ? createLogger(options.captureLevel ?? 'info', logSink)
      : createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    rateLimit,
    // Tests that are not about the limits must not trip over them.
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    failedAuthPerMinute: options.app?.failedAuthPerMinute ?? 100_000,
    statementTimeoutMs,
    clock: options.clock,
    webhookAllowPrivateUrls: options.webhookAllowPrivateUrls,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const checker = new ResponseChecker(
    (await (await fetch(`${baseUrl}/openapi.json`)).json()) as never,
  );

  async function request(method: string, path: string, opts: RequestOptions = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Blob | undefined;
    if (typeof opts.body === 'string' || opts.body instanceof Blob) body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('json') && text !== '') {
      parsed = JSON.parse(text);
    }
    checker.check(method, path.split('?')[0] ?? path, response.status, parsed);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    app,
    db: database.db,
    requestDb,
    database,
    baseUrl,
    make: factories(database.db),
    logs,
    request,
    async close() {
      await app.close();
      await rateLimit.close();
      await database.drop();
    },
  };
}

export const validWatch = (overrides: Record<string, unknown> = {}) => ({
  watchType: 'trademark',
  name: 'Acme',
  attributes: { niceClasses: [9, 42], designations: ['DE', 'EU'] },
  ...overrides,
});

/**
 * After each test of the calling suite, fails on any new log line (of a server started with
 * `captureLogs`) at error level or above, holding a stack trace, or holding one of `secrets()`.
 */
export function checkLogsAfterEach(server: () => TestServer, secrets: () => string[] = () => []) {
  let seen = 0;
  afterEach(() => {
    const logs = server().logs;
    const lines = logs.slice(seen);
    seen = logs.length;
    for (const line of lines) {
      const entry = JSON.parse(line) as { level: number };
      assert.ok(entry.level < 50, `an error was logged: ${line}`);
      assert.doesNotMatch(line, /stack/i, 'a log line holds a stack trace');
      for (const secret of secrets()) {
        assert.equal(line.includes(secret), false, 'a log line holds a secret');
      }
    }
  });
}
