import type { Db, Queryable } from '../../src/data/db.ts';
import { generateApiKey, SCOPES } from '../../src/domain/api-keys.ts';
import { newId } from '../../src/domain/ids.ts';

/**
 * The benchmark's data set, written with set-based SQL (a statement per batch of owners, never a
 * statement per row): team-tier users, each with one API key (hashed here, in JS, exactly as the
 * service hashes them), watches, and alerts with their hits. Rows are what the service itself
 * would write: same columns, same id shapes, timestamps truncated to milliseconds.
 */
export type SeedSize = { users: number; watchesPerUser: number; alertsPerUser: number };

/** What the load generator needs: per user, the key to send and the ids that user can see. */
export type SeedUser = { key: string; watchIds: string[]; alertIds: string[] };
export type SeedResult = { users: SeedUser[]; counts: Record<string, number>; seconds: number };

const WORDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Tyrell',
  'Cyberdyne',
  'Aperture',
  'Massive',
  'Dynamic',
  'Northwind',
  'Contoso',
  'Fabrikam',
  'Zenith',
  'Orbital',
  'Quantum',
];
const wordsSql = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
// A word picked by a hash of some text: deterministic per row, spread over the list.
const pickWord = (text: string) => `(${wordsSql})[1 + abs(hashtext(${text})) % ${WORDS.length}]`;

const USERS_PER_BATCH = 100;

export async function seed(db: Db, size: SeedSize, log: (line: string) => void) {
  const started = performance.now();

  // Ids are made in JS by the service's own newId(): its shape, and far faster than any random
  // function in SQL (PGlite's gen_random_uuid() costs ~50 µs a call).
  const userIds = Array.from({ length: size.users }, () => newId('usr'));
  await db.query(
    `INSERT INTO users (id, email, tier, created_at)
     SELECT u.id, 'bench-' || u.n || '@example.test', 'team',
            date_trunc('milliseconds', now()) - interval '400 days'
       FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n)`,
    [userIds],
  );

  // Keys are hashed in JS (SHA-256, src/domain/api-keys.ts) and inserted in one statement.
  const keys = userIds.map((userId) => ({ userId, generated: generateApiKey() }));
  await db.query(
    `INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at)
     SELECT k.id, k.user_id, 'bench key', k.prefix, k.hash, $2::text[],
            date_trunc('milliseconds', now()) - interval '300 days'
       FROM jsonb_to_recordset($1::text::jsonb) AS k(id text, user_id text, prefix text, hash text)`,
    [
      JSON.stringify(
        keys.map((k) => ({
          id: newId('key'),
          user_id: k.userId,
          prefix: k.generated.prefix,
          hash: k.generated.hash,
        })),
      ),
      [...SCOPES],
    ],
  );

  // Foreign keys are checked row by row by triggers, which is most of the seeding time (on PGlite
  // ~150 µs a row). The rows are consistent by construction, so a superuser seeds without them.
  const superuser = await db.query<{ yes: boolean }>(
    'SELECT rolsuper AS yes FROM pg_roles WHERE rolname = current_user',
  );
  const skipTriggers = superuser[0]?.yes === true;

  for (let i = 0; i < userIds.length; i += USERS_PER_BATCH) {
    const batch = userIds.slice(i, i + USERS_PER_BATCH);
    await db.transaction(async (tx) => {
      if (skipTriggers) await tx.query('SET LOCAL session_replication_role = replica');
      await insertBatch(tx, batch, size);
    });
    log(`  seeded ${Math.min(i + USERS_PER_BATCH, userIds.length)}/${userIds.length} users`);
  }
  await db.exec('ANALYZE');

  const visible = await db.query<{ owner_id: string; watch_ids: string[]; alert_ids: string[] }>(
    `SELECT u.id AS owner_id,
            (SELECT array_agg(id) FROM watches w WHERE w.owner_id = u.id) AS watch_ids,
            (SELECT array_agg(id) FROM alerts a WHERE a.owner_id = u.id) AS alert_ids
       FROM users u`,
  );
  const byOwner = new Map(visible.map((row) => [row.owner_id, row]));
  const users = keys.map((k) => {
    const row = byOwner.get(k.userId);
    return {
      key: k.generated.plaintext,
      watchIds: row?.watch_ids ?? [],
      alertIds: row?.alert_ids ?? [],
    };
  });
  const counts: Record<string, number> = {};
  for (const table of ['users', 'api_keys', 'watches', 'hits', 'alerts']) {
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = rows[0]?.n ?? 0;
  }
  return { users, counts, seconds: (performance.now() - started) / 1000 } satisfies SeedResult;
}

/** Watches, hits and alerts of a batch of users: two statements. */
async function insertBatch(tx: Queryable, batch: string[], size: SeedSize) {
  await tx.query(
    `INSERT INTO watches (id, owner_id, created_by, watch_type, name, attributes, sources,
                          scan_cadence, created_at, updated_at, next_scan_at, needs_full_scan)
     SELECT ids.id, u.id, u.id, 'trademark', ${pickWord('u.id || g')} || ' ' || g,
            jsonb_build_object(
              'niceClasses', jsonb_build_array(9, 35 + g % 8),
              'designations', CASE WHEN g % 3 = 0 THEN '["DE","EU","US"]'::jsonb
                                   ELSE '["EU"]'::jsonb END),
            ARRAY['global_trademark_database'], 'daily', t.ts, t.ts, t.ts + interval '1 day',
            false
       FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n)
      CROSS JOIN generate_series(1, $2::int) AS g
       JOIN unnest($3::text[]) WITH ORDINALITY AS ids(id, n) ON ids.n = (u.n - 1) * $2 + g
      CROSS JOIN LATERAL (
        SELECT date_trunc('milliseconds', now()) - interval '200 days' + g * interval '1 hour'
               AS ts) AS t`,
    [
      batch,
      size.watchesPerUser,
      Array.from({ length: batch.length * size.watchesPerUser }, () => newId('wat')),
    ],
  );
  // Hits and their alerts in one statement; alerts spread over the last 30 days.
  const perWatch = Math.ceil(size.alertsPerUser / size.watchesPerUser);
  const rowsInBatch = batch.length * size.watchesPerUser * perWatch;
  await tx.query(
    `WITH numbered AS (
       SELECT w.id AS watch_id, w.owner_id, g, row_number() OVER (ORDER BY w.id, g) AS n
         FROM watches w
        CROSS JOIN generate_series(1, $2::int) AS g
        WHERE w.owner_id = ANY($1::text[])
     ),
     src AS MATERIALIZED (
       SELECT w.watch_id, w.owner_id, w.g, ids.hit_id, ids.alert_id,
              lpad(((abs(hashtext(w.watch_id)) % 10000000) * 100 + w.g)::text, 9, '0')
                AS external_id,
              date_trunc('milliseconds', now() - random() * interval '30 days') AS created_at,
              date_trunc('day', now() - interval '400 days' - random() * interval '3000 days')
                AS filed_at,
              random() AS r
         FROM numbered w
         JOIN unnest($3::text[], $4::text[]) WITH ORDINALITY AS ids(hit_id, alert_id, n)
           ON ids.n = w.n
     ),
     rows AS MATERIALIZED (
       SELECT s.*,
              ${pickWord('s.hit_id')} || ' ' || ${pickWord('s.alert_id')} AS display_name,
              ${pickWord('s.external_id')} || ' Holdings Ltd' AS owner_name,
              (ARRAY['GB','DE','US','FR','CN','JP'])[1 + g % 6] AS country,
              (ARRAY['EM','DE','US','GB','WO'])[1 + abs(hashtext(s.hit_id)) % 5] AS jurisdiction,
              CASE WHEN s.r < 0.6 THEN 'registered' WHEN s.r < 0.9 THEN 'filed'
                   ELSE 'opposed' END AS status,
              CASE WHEN s.g % 2 = 0 THEN ARRAY[9, 42] ELSE ARRAY[9, 35, 42] END AS classes
         FROM src s
     ),
     new_hits AS (
       INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                         owner_name, owner_country_code, jurisdiction, filed_at, registered_at,
                         expires_at, status, classes, raw_payload, created_at)
       SELECT hit_id, watch_id, 'global_trademark_database', 'EM0' || external_id, 'trademark',
              display_name, owner_name, country, jurisdiction, filed_at,
              CASE WHEN status = 'registered' THEN filed_at + interval '180 days' END,
              CASE WHEN status = 'registered' THEN filed_at + interval '3830 days' END,
              status, classes,
              jsonb_build_object(
                'st13', 'EM5000000' || external_id,
                'markText', display_name,
                'markFeature', 'Word',
                'applicant', jsonb_build_object(
                  'name', owner_name, 'countryCode', country,
                  'address', (1 + g) || ' Market Street, London EC1A 1BB'),
                'representative', jsonb_build_object(
                  'name', 'Bench & Partners LLP', 'countryCode', 'GB'),
                'niceClasses', classes,
                'goodsAndServices',
                  'Computer software; downloadable mobile applications; software as a service.',
                'statusHistory', jsonb_build_array(
                  jsonb_build_object('date', to_char(filed_at, 'YYYY-MM-DD'), 'status', 'Filed'),
                  jsonb_build_object('date', to_char(filed_at + interval '90 days', 'YYYY-MM-DD'),
                                     'status', 'Published'))),
              created_at
         FROM rows
       RETURNING id AS hit_id
     )
     INSERT INTO alerts (id, watch_id, hit_id, owner_id, state, severity, rationale,
                         rationale_at, emailed_at, created_at, origin)
     SELECT alert_id, watch_id, hit_id, owner_id,
            CASE WHEN r < 0.6 THEN 'unread' WHEN r < 0.9 THEN 'read' ELSE 'dismissed' END,
            CASE WHEN r < 0.2 THEN 'high' WHEN r < 0.6 THEN 'medium' ELSE 'low' END,
            -- Every alert has a rationale (NOT NULL since migration 014).
            'Identical word element "' || display_name || '" in overlapping class 9.',
            created_at + interval '2 minutes',
            CASE WHEN r < 0.9 THEN created_at + interval '5 minutes' END,
            created_at,
            -- Filed long before the watches were made: marks already on the register.
            'existing_mark'
       -- Read through new_hits: each alert is written after its hit, which the alert's JSON
       -- (migration 004) is built from.
       FROM new_hits JOIN rows USING (hit_id)`,
    [
      batch,
      perWatch,
      Array.from({ length: rowsInBatch }, () => newId('hit')),
      Array.from({ length: rowsInBatch }, () => newId('alt')),
    ],
  );
}
