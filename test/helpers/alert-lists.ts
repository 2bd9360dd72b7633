import type { Db } from '../../src/data/db.ts';
import { newId } from '../../src/domain/ids.ts';
import { MIRROR_SOURCE } from '../../src/domain/sources.ts';
import { factories } from './factories.ts';
import { principalFor } from './seed.ts';

/**
 * A new Team user with one watch and `alerts` alerts on it, as the alert list sees them;
 * `before008` writes them as the schema before migration 008 did (insertAlertBefore008).
 */
export async function ownerWithAlerts(
  db: Db,
  alerts: number,
  options: { before008?: boolean } = {},
) {
  const make = factories(db);
  const user = await make.makeUser();
  const watchId = newId('wat');
  await db.query(
    `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                          scan_cadence)
     VALUES ($1, $2, $2, 'trademark', 'Acme', '{"niceClasses":[9],"designations":["DE"]}',
             '{global_trademark_database}', 'daily')`,
    [watchId, user.id],
  );
  const alertIds: string[] = [];
  for (let i = 0; i < alerts; i += 1) {
    alertIds.push(
      options.before008 ? await insertAlertBefore008(db, watchId) : await make.makeAlert(watchId),
    );
  }
  return { ownerId: user.id, principal: principalFor(user, 'team'), watchId, alertIds };
}

/** How many committed transactions changed the owner's alerts (migration 007); 0 if none did. */
export async function alertListChanges(db: Db, ownerId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT coalesce((SELECT version FROM alert_list_versions WHERE owner_id = $1), 0)::int AS n',
    [ownerId],
  );
  return row?.n ?? -1;
}

/**
 * An alert and its hit as the schema before migration 008 stored them (no severity, rationale,
 * publication date or opposition window), for the tests that upgrade such a database.
 */
export async function insertAlertBefore008(
  db: Db,
  watchId: string,
  options: { markText?: string; externalId?: string; jurisdiction?: string } = {},
): Promise<string> {
  const hitId = newId('hit');
  const alertId = newId('alt');
  const markText = options.markText ?? 'ACME';
  const externalId = options.externalId ?? `EM5000000${hitId.slice(4, 12)}`;
  await db.query(
    `INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                       owner_name, owner_country_code, jurisdiction, filed_at, status, classes,
                       raw_payload)
     VALUES ($1, $2, $7, $3, 'trademark', $4, 'Acme Holdings Ltd', 'GB',
             $5, '2026-10-01T00:00:00Z', 'filed', '{9,42}', $6)`,
    [
      hitId,
      watchId,
      externalId,
      markText,
      options.jurisdiction ?? 'EM',
      { externalId, markText },
      MIRROR_SOURCE,
    ],
  );
  await db.query(
    `INSERT INTO alerts (id, watch_id, hit_id, owner_id)
     SELECT $1, $2, $3, owner_id FROM watches WHERE id = $2`,
    [alertId, watchId, hitId],
  );
  return alertId;
}
