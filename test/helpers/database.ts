import { randomBytes } from 'node:crypto';
import { connectPostgres, type Db, openDb } from '../../src/data/db.ts';
import { migrateDatabase } from '../../src/start/database.ts';

/**
 * A fresh, migrated database for one test file: embedded PGlite in memory by default; with
 * DATABASE_URL, a new database on that server, dropped again by `drop()`. Nothing is left behind.
 * `migrated: false` leaves it empty, for tests of the migrations themselves.
 */
export type TestDatabase = { db: Db; url: string | undefined; drop(): Promise<void> };

export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = await openDb({ dataDir: '', memory: true });
    if (migrated) await migrateDatabase(db);
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `tmw_test_${randomBytes(6).toString('hex')}`;
  const admin = connectPostgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), dataDir: '' });
  if (migrated) await migrateDatabase(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
