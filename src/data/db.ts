import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pLimit from 'p-limit';
import postgres from 'postgres';
import { acquireEmbeddedLock, type EmbeddedLock } from './embedded-lock.ts';

export type Row = Record<string, unknown>;

/** Anything that runs a parameterised statement: the database itself or an open transaction. */
export interface Queryable {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(sql: string): Promise<void>;
}

/**
 * The one query layer of the service. Both drivers return the same JavaScript values:
 * int8 as number, timestamptz as Date, json/jsonb parsed, arrays as arrays.
 */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
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

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  return openPglite(options);
}

// int8 values (counts, sequences) fit comfortably in a double for this service.
const toNumber = (value: string) => Number(value);

function openPostgres(url: string, max: number): Db {
  const sql = postgres(url, {
    max,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: toNumber },
    },
    connection: { application_name: 'tmwatch' },
  });
  const wrap = (runner: postgres.Sql | postgres.TransactionSql): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      // Named prepared statements: unsafe() defaults to unnamed ones, which PostgreSQL parses and
      // plans on every execution, after a first round trip to describe the parameters. The texts
      // are a fixed set (values always travel as parameters), so each connection prepares each
      // statement once. It cut PostgreSQL's CPU per API request by 55-90% (docs/benchmarks.md).
      const rows = await runner.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
        prepare: true,
      });
      // postgres.js returns an Array subclass with extra fields; callers get a plain array, as
      // from PGlite.
      return Array.from(rows) as T[];
    },
    async exec(script: string) {
      await runner.unsafe(script).simple();
    },
  });
  const root = wrap(sql);
  // At most `max` statements outside transactions are handed to postgres.js at a time; the rest
  // wait here. postgres.js 3.4 keeps the statements waiting for a connection in a queue whose
  // removal scans it from the front and which never shrinks until it empties, so under sustained
  // load (more requests than connections) its cost grows with every query: measured, a 50-at-once
  // SELECT 1 loop on 10 connections fell from 15,000 to 4,000 queries/s within 40 s, most of the
  // CPU in that scan. Transactions are not gated: code inside one may run a statement on the
  // root, which must never wait for a permit the transaction itself holds.
  const gate = pLimit(max);
  return {
    kind: 'postgres',
    query: (text, params) => gate(() => root.query(text, params)),
    exec: root.exec,
    async transaction(fn) {
      return (await sql.begin((tx) => fn(wrap(tx)))) as Awaited<ReturnType<typeof fn>>;
    },
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
      extensions: { pg_trgm, fuzzystrmatch },
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
    async exec(script: string) {
      await runner.exec(script);
    },
  });
  const root = wrap(pg);
  return {
    kind: 'pglite',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
}
