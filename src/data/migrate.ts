import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';
import { foldPendingWordCounts } from './repositories/marks.ts';
import { rekeyStoredMarks, type UpgradeHooks, upgradeSteps } from './upgrades.ts';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 72_001;

export function listMigrations(): { version: string; sql: string }[] {
  return readdirSync(migrationsDir)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      version: name.replace(/\.sql$/, ''),
      sql: readFileSync(join(migrationsDir, name), 'utf8'),
    }));
}

/**
 * Applies pending migrations, forward-only, in one transaction, each followed by its TypeScript
 * upgrade step if it has one (upgrades.ts; `hooks`: what those steps need from above the data
 * layer, see src/start/database.ts). The advisory lock makes processes
 * that start together (several workers on one server) wait for each other instead of racing.
 * Then gives the stored marks the current match keys if they lack them, batch by batch
 * (rekeyStoredMarks: resumable, so not in the migrations' transaction), and folds the word counts'
 * changes that a stopped import left waiting.
 */
export async function migrate(db: Db, hooks: UpgradeHooks): Promise<string[]> {
  const applied = await applyMigrations(db, upgradeSteps(hooks));
  await rekeyStoredMarks(db);
  // What an import that stopped halfway left of its word counts' changes (migration 018).
  await foldPendingWordCounts(db);
  return applied;
}

async function applyMigrations(db: Db, steps: ReturnType<typeof upgradeSteps>): Promise<string[]> {
  const migrations = listMigrations();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map(
        (r) => r.version,
      ),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await steps[migration.version]?.(tx);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      applied.push(migration.version);
    }
    return applied;
  });
}
