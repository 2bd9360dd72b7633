import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pLimit from 'p-limit';
import postgres from 'postgres';
import { acquireEmbeddedLock, type EmbeddedLock } from './embedded-lock.ts';

export type Row = Record<string, unknown>;

/** Anything that runs a parameterised statement: the database itself or an open transaction. */
export interface Queryable {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * The first column of each row as its UTF-8 bytes, for text that goes to a client unchanged (the
   * API's JSON). With PostgreSQL the bytes are the driver's own, never decoded into a string and
   * encoded again: for a page of 50 alerts (~60 KB) that saves the server process about a fifth of
   * its CPU per request (docs/benchmarks.md, bench:api).
   */
  queryBytes(text: string, params?: readonly unknown[]): Promise<Buffer[]>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * `COPY target FROM STDIN` in COPY's text format: `data` (text, or the UTF-8 bytes of it) is one
   * line per row, each ending in a newline, columns separated by tabs, values encoded with
   * copyValue / copyTextArray / copyNumberArray. `target` is a table name with an optional column list, written by the caller
   * (never user input). Loading rows this way costs PostgreSQL about half of what parsing the same
   * rows out of a JSON parameter does (docs/benchmarks.md, bench:scan).
   */
  copyFrom(target: string, data: string | Uint8Array<ArrayBuffer>): Promise<void>;
}

/**
 * The one query layer of the service. Both drivers return the same JavaScript values:
 * int8 as number, timestamptz as Date, json/jsonb parsed, arrays as arrays.
 */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Resolves when the database answers through the pool and, for PostgreSQL, a new connection can
   * be made too (readiness): a pool whose open connections still answer while no new one can be
   * opened would otherwise look ready.
   */
  ping(): Promise<void>;
  /**
   * The same database (same pool) with each PostgreSQL statement given `ms` to be answered, its
   * wait for a connection included: a frozen server (or a pool whose every connection is held)
   * then costs a request a 503 after `ms` instead of a wait without end. The app hands this to
   * everything that serves requests; background work uses the database without one, since a scan
   * or an import may take long and waiting for the server to come back is right there. PGlite
   * runs in the process and cannot freeze apart from it: it returns itself.
   */
  withStatementTimeout(ms: number): Db;
  close(): Promise<void>;
}

export type OpenDbOptions = {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** In-memory embedded database (tests); no lock, nothing on disk. */
  memory?: boolean;
  /** Connection pool size for PostgreSQL. */
  maxConnections?: number;
};

/**
 * A statement the database did not answer within the deadline of `Db.withStatementTimeout`; the
 * error handler answers it 503 like any outage (src/outage.ts).
 */
export class StatementTimeoutError extends Error {
  readonly code = 'STATEMENT_TIMEOUT';
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'StatementTimeoutError';
  }
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  return openPglite(options);
}

/** A queryBytes value: the driver's bytes, or PGlite's string encoded; NULL is a caller's bug. */
function bytesOf(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value);
  throw new Error('queryBytes: the first column must be non-NULL text');
}

// int8 values (counts, sequences) fit comfortably in a double for this service.
const toNumber = (value: string) => Number(value);

/**
 * postgres.js for a DATABASE_URL, which may name a Unix-domain socket directory the way libpq does:
 * `postgres://user@localhost/db?host=/var/run/postgresql`. postgres.js would otherwise send `host`
 * to the server as a run-time setting, which the server refuses. On the database's own machine the
 * socket costs less per query than TCP loopback (docs/benchmarks.md, bench:api).
 */
export function connectPostgres<T extends Record<string, postgres.PostgresType>>(
  url: string,
  options: postgres.Options<T>,
) {
  // Only the query string is parsed here: postgres.js accepts authorities that WHATWG URL refuses
  // (several hosts: `postgres://user@h1:5432,h2:5432/db`), and those must reach it unchanged.
  const at = url.indexOf('?');
  if (at === -1) return postgres(url, options);
  const query = new URLSearchParams(url.slice(at + 1));
  const host = query.get('host');
  if (host === null) return postgres(url, options);
  query.delete('host');
  const rest = query.toString();
  return postgres(`${url.slice(0, at)}${rest ? `?${rest}` : ''}`, { ...options, host });
}

/**
 * Seconds a new connection may take. postgres.js waits 30 by default, and every request during an
 * outage would wait that long before its 503; the API promises one within about 2 s.
 */
export const CONNECT_TIMEOUT_SECONDS = 2;

/**
 * TCP keepalive of each connection, in seconds idle: a server whose machine or network is gone
 * (no FIN, no RST) is noticed by the kernel's probes and the connection replaced, instead of a
 * statement waiting for an answer that cannot come. postgres.js's default is 60.
 */
export const KEEPALIVE_SECONDS = 10;

// The connection was lost under the statement (the server restarted, an administrator or a
// failover terminated it): the statement may be sent again on a new connection.
const LOST_CONNECTION = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNRESET',
  'EPIPE',
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
]);
// Only statements that change nothing are sent again: a write may have committed before the
// connection dropped, and doing it twice is not ours to decide.
const READ_ONLY = /^\s*(SELECT|WITH)\b/i;
const WRITES = /\b(INSERT|UPDATE|DELETE|MERGE|COPY|CALL|nextval|setval|pg_advisory)\b/i;

const RETRY_PAUSE_MS = 100;

function isRetriableRead(text: string, error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    LOST_CONNECTION.has(code) &&
    READ_ONLY.test(text) &&
    !WRITES.test(text)
  );
}

/** Runs `run` and, when it was a read whose connection was lost under it, once more. */
async function readOnceMore<T>(text: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isRetriableRead(text, error)) throw error;
    // The other connections of the pool were usually lost at the same moment (a restart, a
    // failover, pg_terminate_backend of them all); a pause lets the driver notice their closes, so
    // the retry gets a new connection rather than the next dead one.
    await sleep(RETRY_PAUSE_MS);
    return run();
  }
}

/** What the deadline of one statement sees of it: whether it may still start, and its query. */
type Guard = {
  /** Throws when the deadline has passed: a statement that waited for a permit is not sent late. */
  check(): void;
  /** The statement's postgres.js query, cancelled when the deadline passes. */
  track(query: { cancel(): unknown }): void;
};
const UNBOUNDED: Guard = { check() {}, track() {} };

/**
 * Runs `work` within `ms` (undefined: without a deadline). When the deadline passes first, the
 * caller gets a StatementTimeoutError at once and the statement is cancelled: one still waiting for
 * a connection is taken out of postgres.js's queue, one sent is cancelled on the server (a
 * CancelRequest on a new connection, itself bounded by the connect timeout), which frees its
 * connection as soon as the server can act.
 */
function bounded<T>(ms: number | undefined, work: (guard: Guard) => Promise<T>): Promise<T> {
  if (ms === undefined) return work(UNBOUNDED);
  // One promise and one timer per statement: this runs for every statement of every request.
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    let query: { cancel(): unknown } | undefined;
    const timer = setTimeout(() => {
      expired = true;
      const pending = query;
      if (pending)
        Promise.resolve()
          .then(() => pending.cancel())
          .catch(() => {});
      reject(new StatementTimeoutError(ms));
    }, ms);
    const guard: Guard = {
      check() {
        if (expired) throw new StatementTimeoutError(ms);
      },
      track(pending) {
        query = pending;
      },
    };
    // Once the deadline has answered, the statement's own end (cancelled) has no one to hear it:
    // settling the promise again is a no-op.
    const settle = () => clearTimeout(timer);
    let done: Promise<T>;
    try {
      done = work(guard);
    } catch (error) {
      settle();
      reject(error);
      return;
    }
    done.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * A result's rows as a plain array (postgres.js returns an Array subclass with extra fields), its
 * holes left out. postgres.js 3.4 counts a connection's rows across statements and resets the count
 * only when a statement completes: after a statement that failed while its rows streamed (a
 * cancelled statement, a terminated backend, an error in a later row), the connection's next
 * statement gets its rows after as many empty slots (porsager/postgres#1119, #1181). forEach skips
 * the slots; the rows after them are the statement's own, all of them.
 */
function rowsOf<R>(result: readonly R[]): R[] {
  const rows: R[] = [];
  result.forEach((row) => {
    rows.push(row);
  });
  return rows;
}

/** The statements of one runner (the pool or a transaction), each watched by `guard`. */
function statementsOf(runner: postgres.Sql | postgres.TransactionSql, guard: Guard): Queryable {
  const unsafe = (text: string, params: readonly unknown[], prepare: boolean) => {
    guard.check();
    // Named prepared statements: unsafe() defaults to unnamed ones, which PostgreSQL parses and
    // plans on every execution, after a first round trip to describe the parameters. The texts
    // are a fixed set (values always travel as parameters), so each connection prepares each
    // statement once. It cut PostgreSQL's CPU per API request by 55-90% (docs/benchmarks.md).
    const query = runner.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare });
    guard.track(query);
    return query;
  };
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return rowsOf(await unsafe(text, params, true)) as T[];
    },
    async queryBytes(text: string, params: readonly unknown[] = []) {
      return rowsOf(await unsafe(text, params, true).raw()).map((row) => bytesOf(row[0]));
    },
    async exec(script: string) {
      await unsafe(script, [], false).simple();
    },
    async copyFrom(target: string, data: string | Uint8Array<ArrayBuffer>) {
      const query = unsafe(`COPY ${target} FROM STDIN`, [], false);
      // postgres.js 3.4 never settles the writable when the server rejects the data after the
      // end of the stream (porsager/postgres#1173): the error only reaches the query's own reject,
      // which is hooked here so that the caller gets the server's error instead of waiting forever
      // (and sql.begin() rolls back instead of leaking the connection).
      const failed = new Promise<never>((_, reject) => {
        const internal = query as unknown as { reject: (error: unknown) => void };
        const own = internal.reject;
        internal.reject = (error) => {
          own(error);
          reject(error);
        };
      });
      failed.catch(() => {});
      const stream = await query.writable();
      stream.end(data);
      await Promise.race([finished(stream), failed]);
    },
  };
}

/**
 * Each statement of a transaction within `ms`. `failed` is the deadline that already passed in
 * it: after that, nothing more is sent (the caller was told the transaction failed), and a
 * deadline passing is reported to `onTimeout`.
 */
function boundedStatements(
  tx: postgres.TransactionSql,
  ms: number,
  failed: () => StatementTimeoutError | undefined,
  onTimeout: (error: StatementTimeoutError) => void,
): Queryable {
  const within = <T>(run: (q: Queryable) => Promise<T>) => {
    const earlier = failed();
    if (earlier) return Promise.reject(earlier);
    return bounded(ms, (guard) => run(statementsOf(tx, guard))).catch((error: unknown) => {
      if (error instanceof StatementTimeoutError) onTimeout(error);
      throw error;
    });
  };
  return {
    query: (text, params) => within((q) => q.query(text, params)),
    queryBytes: (text, params) => within((q) => q.queryBytes(text, params)),
    exec: (script) => within((q) => q.exec(script)),
    copyFrom: (target, data) => within((q) => q.copyFrom(target, data)),
  };
}

/**
 * A transaction under a statement deadline. When one of its statements (or BEGIN's wait for a
 * connection) passes the deadline, the caller hears at once: sql.begin() itself would first wait
 * for its ROLLBACK, which a frozen server never answers. Work that reaches BEGIN only after that
 * is rolled back unrun, so nothing is written after the caller was told it failed.
 */
async function transactionWithin<T>(
  sql: postgres.Sql,
  ms: number,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  let failed: StatementTimeoutError | undefined;
  let fail: (error: StatementTimeoutError) => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    fail = (error) => {
      failed ??= error;
      reject(failed);
    };
  });
  const begun = setTimeout(() => fail(new StatementTimeoutError(ms)), ms);
  const run = sql.begin((tx) => {
    clearTimeout(begun);
    if (failed) throw failed;
    return fn(boundedStatements(tx, ms, () => failed, fail));
  });
  run.catch(() => {});
  try {
    return (await Promise.race([run, aborted])) as T;
  } finally {
    clearTimeout(begun);
  }
}

/** A new connection, opened, asked SELECT 1 and closed: whether the server takes connections. */
async function probeNewConnection(url: string): Promise<void> {
  const probe = connectPostgres(url, {
    max: 1,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'tmwatch' },
  });
  try {
    await probe.unsafe('SELECT 1');
  } finally {
    await probe.end({ timeout: 0 });
  }
}

function openPostgres(url: string, max: number): Db {
  const sql = connectPostgres(url, {
    max,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    keep_alive: KEEPALIVE_SECONDS,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: toNumber },
    },
    connection: { application_name: 'tmwatch' },
  });
  // At most `max` statements outside transactions are handed to postgres.js at a time; the rest
  // wait here. postgres.js 3.4 keeps the statements waiting for a connection in a queue whose
  // removal scans it from the front and which never shrinks until it empties, so under sustained
  // load (more requests than connections) its cost grows with every query: measured, a 50-at-once
  // SELECT 1 loop on 10 connections fell from 15,000 to 4,000 queries/s within 40 s, most of the
  // CPU in that scan. Transactions are not gated: code inside one may run a statement on the
  // root, which must never wait for a permit the transaction itself holds.
  const gate = pLimit(max);
  return postgresDb({ sql, url, gate }, undefined);
}

/**
 * The Db over one pool, each statement within `ms` (undefined: without a deadline). Every view
 * of the pool (withStatementTimeout) shares its connections and its gate.
 */
function postgresDb(
  pool: { sql: postgres.Sql; url: string; gate: ReturnType<typeof pLimit> },
  ms: number | undefined,
): Db {
  const { sql, url, gate } = pool;
  // A statement of the pool: its wait for a permit and a connection counts against its deadline.
  const pooled = <T>(run: (q: Queryable) => Promise<T>, gated: boolean) =>
    bounded(ms, (guard) => {
      const once = () => run(statementsOf(sql, guard));
      return gated ? gate(once) : once();
    });
  const query: Db['query'] = (text, params) =>
    pooled((q) => readOnceMore(text, () => q.query(text, params)), true);
  return {
    kind: 'postgres',
    query,
    queryBytes: (text, params) =>
      pooled((q) => readOnceMore(text, () => q.queryBytes(text, params)), true),
    exec: (script) => pooled((q) => q.exec(script), false),
    copyFrom: (target, data) => pooled((q) => q.copyFrom(target, data), false),
    async transaction(fn) {
      if (ms !== undefined) return transactionWithin(sql, ms, fn);
      return (await sql.begin((tx) => fn(statementsOf(tx, UNBOUNDED)))) as Awaited<
        ReturnType<typeof fn>
      >;
    },
    async ping() {
      await Promise.all([query('SELECT 1'), probeNewConnection(url)]);
    },
    withStatementTimeout: (deadline) => postgresDb(pool, deadline),
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

async function openPglite(options: OpenDbOptions): Promise<Db> {
  let lock: EmbeddedLock | undefined;
  let dataDir: string | undefined;
  if (!options.memory) {
    const dir = resolve(options.dataDir);
    mkdirSync(dir, { recursive: true });
    // PGlite has no lock of its own: a second process on the same files would corrupt them.
    lock = acquireEmbeddedLock(dir);
    dataDir = resolve(dir, 'pgdata');
  }
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir ?? 'memory://', {
      extensions: { pg_trgm, fuzzystrmatch, unaccent },
      parsers: { [types.INT8]: toNumber },
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const wrap = (runner: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      const result = await runner.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async queryBytes(text: string, params: readonly unknown[] = []) {
      const result = await runner.query<unknown[]>(text, params as unknown[], { rowMode: 'array' });
      return result.rows.map((row) => bytesOf(row[0]));
    },
    async exec(script: string) {
      await runner.exec(script);
    },
    async copyFrom(target: string, data: string | Uint8Array<ArrayBuffer>) {
      // PGlite reads COPY … FROM '/dev/blob' from the query's blob.
      await runner.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([data]) });
    },
  });
  const root = wrap(pg);
  const db: Db = {
    kind: 'pglite',
    query: root.query,
    queryBytes: root.queryBytes,
    exec: root.exec,
    copyFrom: root.copyFrom,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async ping() {
      await pg.query('SELECT 1');
    },
    withStatementTimeout: () => db,
    async close() {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
  return db;
}

// COPY's text format (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"):
// backslash, tab, newline and carriage return are escaped, NULL is \N.
/** A character that copyValue escapes. */
export const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** One value of a COPY text row; null is SQL NULL. Numbers and booleans as PostgreSQL reads them. */
export function copyValue(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return COPY_SPECIAL.test(value)
    ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] as string)
    : value;
}

// Inside an array literal every element is double-quoted (so that NULL, empty strings, spaces,
// commas and braces stay text), with `"` and `\` backslash-escaped.
const ARRAY_SPECIAL = /["\\\t\n\r]/;
const ARRAY_ELEMENT_SPECIAL_ALL = /["\\]/g;

/** A text[] value of a COPY text row. */
export function copyTextArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  // The common case (match keys, country codes): nothing to escape at either level.
  if (!ARRAY_SPECIAL.test(values.join(''))) return `{"${values.join('","')}"}`;
  const quoted = values.map((v) => `"${v.replace(ARRAY_ELEMENT_SPECIAL_ALL, '\\$&')}"`);
  return copyValue(`{${quoted.join(',')}}`);
}

/** An integer[] (or other numeric array) value of a COPY text row. */
export function copyNumberArray(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}
