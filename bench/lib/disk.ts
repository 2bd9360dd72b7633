// The size on disk of the benchmark's database after the import: the marks table (heap, TOAST, free
// space and visibility maps), its indexes together, and the rest (the other tables and indexes,
// the catalogs; for PGlite also its WAL and control files). Disk space is what a register of
// millions of records asks of a machine first.
import { existsSync, readdirSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/data/db.ts';

export type DatabaseSize = {
  /** pg_database_size on a server; the data directory on disk for PGlite. */
  total: number;
  marksTable: number;
  marksIndexes: number;
  rest: number;
  /** The marks indexes, largest first. */
  indexes: { name: string; bytes: number }[];
  /** The largest other tables of the service, each with its indexes and TOAST: part of `rest`. */
  others: { name: string; bytes: number }[];
  /** The server's WAL directory, shared by all its databases: null for PGlite or when unreadable. */
  serverWal: number | null;
  /** PGlite's own WAL, part of `rest`; null on a server. */
  pgliteWal: number | null;
};

/** Bytes a directory tree occupies on disk (allocated blocks, not apparent sizes). */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) total += statSync(path).blocks * 512;
  }
  return total;
}

export async function databaseSize(db: Db, pgliteDir: string | null): Promise<DatabaseSize> {
  const [sizes] = await db.query<{ database: number; heap: number; indexes: number }>(
    `SELECT pg_database_size(current_database())::int8 AS database,
            pg_table_size('marks')::int8 AS heap, pg_indexes_size('marks')::int8 AS indexes`,
  );
  if (sizes === undefined) throw new Error('databaseSize: no row');
  const indexes = await db.query<{ name: string; bytes: number }>(
    `SELECT c.relname AS name, pg_relation_size(i.indexrelid)::int8 AS bytes
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'marks'::regclass
      ORDER BY bytes DESC, name`,
  );
  // Side tables kept in step with marks by the importer (word counts, the two-edit band) grow
  // with the register too: the rest is named by its largest parts.
  const others = await db.query<{ name: string; bytes: number }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::int8 AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'm') AND c.relname <> 'marks'
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY bytes DESC, name
      LIMIT 3`,
  );
  let serverWal: number | null = null;
  if (db.kind === 'postgres') {
    try {
      const [wal] = await db.query<{ bytes: number }>(
        'SELECT coalesce(sum(size), 0)::int8 AS bytes FROM pg_ls_waldir()',
      );
      serverWal = wal?.bytes ?? null;
    } catch {
      // pg_ls_waldir needs superuser or pg_monitor: the figure is then left out.
    }
  }
  const total = pgliteDir === null ? sizes.database : directoryBytes(pgliteDir);
  const walDir = pgliteDir === null ? null : join(pgliteDir, 'pgdata', 'pg_wal');
  return {
    total,
    marksTable: sizes.heap,
    marksIndexes: sizes.indexes,
    rest: total - sizes.heap - sizes.indexes,
    indexes,
    others,
    serverWal,
    pgliteWal: walDir !== null && existsSync(walDir) ? directoryBytes(walDir) : null,
  };
}

/** Bytes as `812 MiB` or `12.3 GiB`. */
export function bytesText(bytes: number): string {
  if (Math.abs(bytes) >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (Math.abs(bytes) >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MiB`;
  return `${Math.round(bytes / 2 ** 10)} KiB`;
}

/** Free bytes for an unprivileged user on the file system holding `path`; null when unknown. */
export function freeBytes(path: string): number | null {
  try {
    const fs = statfsSync(path);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

/** The server's data directory when this process may read the setting; null otherwise. */
export async function serverDataDirectory(db: Db): Promise<string | null> {
  try {
    const [row] = await db.query<{ dir: string }>(
      `SELECT current_setting('data_directory') AS dir`,
    );
    return row?.dir ?? null;
  } catch {
    return null;
  }
}
