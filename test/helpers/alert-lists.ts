import type { Db } from '../../src/data/db.ts';
import { newId } from '../../src/domain/ids.ts';
import { factories } from './factories.ts';
import { principalFor } from './seed.ts';

/** A new Team user with one watch and `alerts` alerts on it, as the alert list sees them. */
export async function ownerWithAlerts(db: Db, alerts: number) {
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
  for (let i = 0; i < alerts; i += 1) alertIds.push(await make.makeAlert(watchId));
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
