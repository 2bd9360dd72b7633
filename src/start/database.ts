import type { Db } from '../data/db.ts';
import { migrate } from '../data/migrate.ts';
import { type UpgradeHooks, upgradeSteps } from '../data/upgrades.ts';
import { reassessAlerts } from '../domain/alerts/reassess.ts';

/**
 * What the migrations' upgrade steps need from the domain: a migration that changes what an alert
 * says (008 severities, 014 corrected hits) assesses the alerts again with the alert module's one
 * reassessment, in the migration's transaction. Given from here, above the domain, so that the
 * data layer stays below it.
 */
export const UPGRADE_HOOKS: UpgradeHooks = { reassessAlerts };

/** The upgrade step of each migration version that has one, as migrateDatabase runs them. */
export const UPGRADE_STEPS = upgradeSteps(UPGRADE_HOOKS);

/** Brings the database's schema (and the data its migrations upgrade) up to date. */
export function migrateDatabase(db: Db): Promise<string[]> {
  return migrate(db, UPGRADE_HOOKS);
}
