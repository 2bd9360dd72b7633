import type { Db } from '../../src/data/db.ts';
import { factories } from './factories.ts';
import { insertAlertBefore008, insertWatchBefore008 } from './seed.ts';

/**
 * A new Team user with one watch and `alerts` alerts on it, as the alert list sees them. On a
 * database not migrated to today (`oldSchema`), the watch and the alerts are written as the schema
 * before migration 008 stored them (seed.ts): today's services write today's columns.
 */
export async function ownerWithAlerts(
  db: Db,
  alerts: number,
  options: { oldSchema?: boolean } = {},
) {
  const make = factories(db);
  const { user, principal } = await make.makeOwner();
  const watchId = options.oldSchema
    ? await insertWatchBefore008(db, user.id)
    : (await make.makeWatch(principal)).id;
  const alertIds: string[] = [];
  for (let i = 0; i < alerts; i += 1) {
    alertIds.push(
      options.oldSchema ? await insertAlertBefore008(db, watchId) : await make.makeAlert(watchId),
    );
  }
  return { ownerId: user.id, principal, watchId, alertIds };
}

/** How many committed transactions changed the owner's alerts (migration 007); 0 if none did. */
export async function alertListChanges(db: Db, ownerId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT coalesce((SELECT version FROM alert_list_versions WHERE owner_id = $1), 0)::int AS n',
    [ownerId],
  );
  return row?.n ?? -1;
}
