import type { Db } from '../../src/data/db.ts';
import { randomBase62 } from '../../src/domain/ids.ts';
import { PLANS, type Tier } from '../../src/domain/plans.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { MIRROR_SOURCE } from '../../src/domain/sources.ts';

/**
 * Bulk rows written straight to the database, for tests that need hundreds of watches (quota caps,
 * page walks) where creating each one through the API would cost minutes. Rows are what the API
 * would write: same columns, same id shape.
 */
export async function seedWatches(
  db: Db,
  options: {
    ownerId: string;
    createdBy: string;
    count: number;
    active?: boolean;
    /** Every row gets this createdAt (ties on purpose); default: one millisecond apart, older first. */
    createdAt?: string;
  },
): Promise<string[]> {
  const batch = randomBase62(8);
  const rows = await db.query<{ id: string }>(
    `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                          scan_cadence, active, created_at)
     SELECT 'wat_' || $1 || lpad(g::text, 5, '0'), $2, $3, 'trademark', 'Seeded ' || g,
            '{"niceClasses":[9],"designations":["DE"]}'::jsonb,
            ARRAY[$7::text], 'daily', $5,
            coalesce($6::timestamptz, date_trunc('milliseconds', now()) - interval '1 hour'
                                       + g * interval '1 millisecond')
       FROM generate_series(1, $4::int) AS g
     RETURNING id`,
    [
      batch,
      options.ownerId,
      options.createdBy,
      options.count,
      options.active ?? true,
      options.createdAt ?? null,
      MIRROR_SOURCE,
    ],
  );
  return rows.map((row) => row.id);
}

/** The caller a domain service sees, for rules no API tier can reach (Solo cadence and cap). */
export function principalFor(
  user: { id: string; email: string },
  tier: Tier,
  organization: { id: string; name: string } | null = null,
): Principal {
  return {
    userId: user.id,
    email: user.email,
    organization,
    plan: PLANS[tier],
    ownerId: organization?.id ?? user.id,
    key: null,
  };
}
