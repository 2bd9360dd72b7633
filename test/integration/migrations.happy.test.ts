import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listMigrations } from '../../src/data/migrate.ts';
import { rekeyStoredMarks } from '../../src/data/upgrades.ts';
import { CLASSES_NOT_PUBLISHED } from '../../src/domain/alerts/assessment.ts';
import { compactJson } from '../../src/json-text.ts';
import { MATCH_KEYS_VERSION, matchKeys } from '../../src/matching/normalize.ts';
import { migrateDatabase, UPGRADE_STEPS } from '../../src/start/database.ts';
import { alertListChanges, ownerWithAlerts } from '../helpers/alert-lists.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories, hitWithAlert } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { insertAlertBefore008, insertAlertBefore030 } from '../helpers/seed.ts';

// Upgrading a database that already holds data: migrations are forward-only and run on a live
// install's rows, not only on the empty database every other test starts from.

/** An alert's JSON without hit.removedAt, which migration 037 added (null: no record removed). */
const before037 = (json: string) => json.replace(',"removedAt":null}', '}');

describe('migrations: upgrading a database with data', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('004 gives alerts recorded before it the same JSON as alerts recorded after it', async () => {
    const { db } = database;
    const before004 = listMigrations().filter((m) => m.version < '004');
    for (const migration of before004) await db.exec(migration.sql);

    const make = factories(db);
    const { watchId } = await ownerWithAlerts(db, 0, { oldSchema: true });
    const oldAlert = await insertAlertBefore008(db, watchId, { markText: 'ACME ONE' });
    await db.query(
      `UPDATE alerts SET state = 'read', emailed_at = '2026-11-02T08:00:00.5Z' WHERE id = $1`,
      [oldAlert],
    );

    // Now the rest, as migrate() applies them on the next start (it records 001–003 as well).
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before004) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    const applied = await migrateDatabase(db);
    assert.ok(applied.includes('004_alert_api_json'), applied.join(', '));

    // Live as migration 028 reads the older one's status (filed): the factory's default is unknown.
    const newAlert = await make.makeAlert(watchId, { markText: 'ACME TWO', live: true });
    await db.query(
      `UPDATE alerts SET state = 'read', emailed_at = '2026-11-02T08:00:00.5Z' WHERE id = $1`,
      [newAlert],
    );
    const rows = await db.query<{ id: string; api_json: string }>(
      'SELECT id, api_json FROM alerts WHERE id = ANY($1::text[])',
      [[oldAlert, newAlert]],
    );
    const json = new Map(rows.map((r) => [r.id, JSON.parse(r.api_json)]));
    const older = json.get(oldAlert);
    const newer = json.get(newAlert);
    assert.equal(older.id, oldAlert);
    assert.equal(older.state, 'read');
    assert.equal(older.emailedAt, '2026-11-02T08:00:00.500Z');
    assert.equal(older.hit.displayName, 'ACME ONE');
    assert.deepEqual(older.hit.rawPayload, {
      externalId: older.hit.externalId,
      markText: 'ACME ONE',
    });
    // Apart from what differs by construction, the two objects are alike key for key, in order.
    const strip = (a: Record<string, unknown>) => ({
      ...a,
      id: null,
      createdAt: null,
      // Assessed by the upgrade (008) for the older one, given by the factory for the newer one.
      severity: null,
      // From the dates by the upgrade (030) for the older one, given by the factory for the newer.
      origin: null,
      rationale: null,
      rationaleAt: null,
      hit: {
        ...(a.hit as object),
        id: null,
        externalId: null,
        displayName: null,
        rawPayload: null,
      },
    });
    assert.deepEqual(Object.keys(older), Object.keys(newer));
    assert.deepEqual(Object.keys(older.hit), Object.keys(newer.hit));
    assert.deepEqual(strip(older), strip(newer));
  });
});

describe('migrations: 007 on a database that holds alerts', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('owners with alerts start at list version 1, others at 0, and the next write raises it', async () => {
    const { db } = database;
    const before007 = listMigrations().filter((m) => m.version < '007');
    for (const migration of before007) await db.exec(migration.sql);
    const withAlerts = await ownerWithAlerts(db, 2, { oldSchema: true });
    const without = await factories(db).makeUser();
    const alertId = withAlerts.alertIds[0];

    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before007) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    // 007 and whatever later migrations exist; the test is about 007.
    assert.equal((await migrateDatabase(db))[0], '007_alert_list_versions');

    // 007 starts the owner at 1; 008 then assesses the two alerts (a real change of both, in the
    // same upgrade), which raises it once more.
    assert.equal(await alertListChanges(db, withAlerts.ownerId), 2);
    assert.equal(await alertListChanges(db, without.id), 0);
    await db.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [alertId]);
    assert.equal(await alertListChanges(db, withAlerts.ownerId), 3);
  });
});

describe('migrations: 008 on a database that holds alerts and marks', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('assesses every alert recorded before it, re-keys the mirror, and makes severity required', async () => {
    const { db } = database;
    const before008 = listMigrations().filter((m) => m.version < '008');
    for (const migration of before008) await db.exec(migration.sql);
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before008) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    // The watch is "Acme" in class 9 for DE: ACME is identical, ACMEE RUNNING a near form inside a
    // longer mark, NORTHWIND is not similar at all today (the watch was renamed, say).
    const { watchId } = await ownerWithAlerts(db, 0, { oldSchema: true });
    const identical = await insertAlertBefore008(db, watchId, { markText: 'ACME' });
    const unrelated = await insertAlertBefore008(db, watchId, { markText: 'NORTHWIND' });
    // A record of the mirror as version 3 keyed it: no anchors.
    await db.query(
      `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                          jurisdiction, designations, filed_at, status, classes, raw_payload,
                          norm_text, compact_text, compact_len, tokens, sound_codes)
       VALUES ('global_trademark_database', 'EM500000018000001', 'ZEROFLUSHNET', 'Z Ltd', 'GB',
               'EM', '{}', '2026-10-01', 'filed', '{9}', '{}', 'ZEROFLUSHNET', 'ZEROFLUSHNET', 12,
               '{ZEROFLUSHNET,ZEROFIUSHNET}', '{SRFLXNT}')`,
    );

    assert.equal((await migrateDatabase(db))[0], '008_alert_assessment');

    const rows = await db.query<{ id: string; severity: string; rationale: string; json: string }>(
      'SELECT id, severity, rationale, api_json AS json FROM alerts ORDER BY id',
    );
    assert.equal(rows.length, 2);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const same = byId.get(identical);
    const gone = byId.get(unrelated);
    assert.equal(same?.severity, 'high');
    assert.match(
      same?.rationale ?? '',
      /the watched brand written differently .* both read `ACME`/,
    );
    assert.match(same?.rationale ?? '', /Shared Nice class: 9 \(scientific and electronic/);
    assert.equal(gone?.severity, 'low');
    assert.match(gone?.rationale ?? '', /earlier version of the matching rules/);
    const json = JSON.parse(same?.json ?? '{}');
    assert.equal(json.severity, 'high', 'the API JSON is rebuilt');
    assert.equal(json.hit.publishedAt, null);
    assert.equal(json.hit.opposition, null);

    const [mark] = await db.query<{ tokens: string[] }>('SELECT tokens FROM mark_keys');
    assert.ok(mark?.tokens.includes('<ZEROF'), 'the mirror holds the new anchor keys');
    await assert.rejects(
      db.query(`UPDATE alerts SET severity = NULL WHERE id = $1`, [identical]),
      /null value in column "severity"/,
    );
  });
});

describe('migrations: 014 on a database that holds made-up owners, countries, statuses and classes', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  // What the bundled sample of earlier versions held for an EUIPO text: the placeholders the
  // importers and the sample wrote where the source said nothing.
  const PLACEHOLDER_PAYLOAD = {
    externalId: 'EM500000018127518',
    markText: 'ACME',
    provenance: {
      source: 'euipo-trademarks2020',
      classesSynthetic: true,
      ownerInSource: false,
      statusInSource: false,
    },
  };

  const insertMark = (db: TestDatabase['db'], externalId: string, fields: string) =>
    db.query(
      `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                          jurisdiction, designations, filed_at, status, classes, raw_payload,
                          norm_text, compact_text, compact_len, tokens, sound_codes)
       VALUES ('global_trademark_database', $1, 'ACME', ${fields}, 'EM', '{}', '2019-09-23',
               $2, $3, $4::text::jsonb, 'ACME', 'ACME', 4, '{ACME}', '{AKM}')`,
      [externalId, 'filed', '{34}', JSON.stringify(PLACEHOLDER_PAYLOAD)],
    );

  it('turns the placeholders into null (or no classes), re-assesses their alerts and leaves real values alone', async () => {
    const { db } = database;
    const before014 = listMigrations().filter((m) => m.version < '014');
    await db.transaction(async (tx) => {
      for (const migration of before014) {
        await tx.exec(migration.sql);
        await UPGRADE_STEPS[migration.version]?.(tx);
      }
      await tx.query(
        'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const migration of before014) {
        await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      }
    });
    // The watch is "Acme" in class 9 for DE. The invented record is the identical text ACME in
    // the computed class 34; the real one is an ordinary hit the factory makes.
    const { watchId } = await ownerWithAlerts(db, 0, { oldSchema: true });
    const invented = await insertAlertBefore030(
      db,
      hitWithAlert(watchId, {
        externalId: PLACEHOLDER_PAYLOAD.externalId,
        markText: 'ACME',
        ownerName: '(not in source data)',
        ownerCountryCode: 'XX',
        status: 'filed',
        classes: [34],
        rationale: '**Severity: high.** Owner `(not in source data)`, shared Nice class 34.',
        severity: 'high',
      }),
    );
    await db.query(
      `UPDATE hits SET raw_payload = $2::text::jsonb
        WHERE id = (SELECT hit_id FROM alerts WHERE id = $1)`,
      [invented, JSON.stringify(PLACEHOLDER_PAYLOAD)],
    );
    const real = await insertAlertBefore030(
      db,
      hitWithAlert(watchId, { markText: 'ACMEE', severity: 'high' }),
    );
    await insertMark(db, PLACEHOLDER_PAYLOAD.externalId, `'(not in source data)', 'XX'`);
    await db.query(
      `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                          jurisdiction, designations, filed_at, status, classes, raw_payload,
                          norm_text, compact_text, compact_len, tokens, sound_codes)
       VALUES ('global_trademark_database', 'EM500000018000002', 'ACMEE', 'Acme Rival SA', 'FR',
               'EM', '{}', '2026-10-01', 'registered', '{9}', '{}', 'ACMEE', 'ACMEE', 5,
               '{ACMEE}', '{AKM}')`,
    );
    const seqBefore = await db.query<{ external_id: string; change_seq: string }>(
      'SELECT external_id, change_seq FROM marks ORDER BY external_id',
    );

    assert.equal((await migrateDatabase(db))[0], '014_no_invented_values');

    const marks = await db.query<Record<string, unknown>>(
      `SELECT external_id, owner_name, owner_country_code, status, classes, change_seq
         FROM marks ORDER BY external_id`,
    );
    assert.deepEqual(
      marks.map((m) => [m.external_id, m.owner_name, m.owner_country_code, m.status, m.classes]),
      [
        ['EM500000018000002', 'Acme Rival SA', 'FR', 'registered', [9]],
        ['EM500000018127518', null, null, null, []],
      ],
    );
    assert.deepEqual(
      marks.map((m) => String(m.change_seq)),
      seqBefore.map((m) => String(m.change_seq)),
      'no record takes a new change_seq: nothing new was published',
    );

    const alerts = await db.query<{
      id: string;
      severity: string;
      rationale: string;
      json: string;
    }>('SELECT id, severity, rationale, api_json AS json FROM alerts');
    const byId = new Map(alerts.map((a) => [a.id, a]));
    const corrected = byId.get(invented);
    const json = JSON.parse(corrected?.json ?? '{}');
    assert.deepEqual(
      [json.hit.ownerName, json.hit.ownerCountryCode, json.hit.status, json.hit.classes],
      [null, null, null, []],
      'the API JSON is rebuilt from the corrected hit',
    );
    // Identical text, no classes: medium, and the rationale no longer quotes the placeholders.
    assert.equal(corrected?.severity, 'medium');
    assert.ok(corrected?.rationale.includes(CLASSES_NOT_PUBLISHED), corrected?.rationale);
    assert.match(corrected?.rationale ?? '', /owner not published by this source/);
    assert.doesNotMatch(corrected?.rationale ?? '', /not in source data|XX|34/);
    const untouched = byId.get(real);
    assert.equal(untouched?.severity, 'high');
    assert.equal(JSON.parse(untouched?.json ?? '{}').hit.ownerName, 'Acme Holdings Ltd');
    assert.equal(
      (await db.query('SELECT 1 FROM pg_class WHERE relname = $1', ['invented_hits'])).length,
      0,
      'the temporary table is gone',
    );
  });
});

describe('migrations: an upgrade re-keys the mirror for match keys version 6', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('gives stored marks their spoken forms and compound keys, and leaves change_seq alone', async () => {
    const { db } = database;
    const upTo014 = listMigrations().filter((m) => m.version < '015');
    for (const migration of upTo014) await db.exec(migration.sql);
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of upTo014) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    // TRUE1 as version 5 keyed it: no spoken form.
    await db.query(
      `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                          jurisdiction, designations, filed_at, status, classes, raw_payload,
                          norm_text, compact_text, compact_len, tokens, sound_codes)
       VALUES ('global_trademark_database', 'US79232184', 'TRUE1', NULL, NULL, 'US', '{}',
               '2018-02-01', NULL, '{9}', '{}', 'TRUE1', 'TRUEI', 5, '{TRUEI,TRUE1}', '{TR}'),
              ('global_trademark_database', 'US90000003', 'SUNHARBOR', NULL, NULL, 'US', '{}',
               '2025-02-01', NULL, '{9}', '{}', 'SUNHARBOR', 'SUNHARBOR', 9, '{SUNHARBOR}', '{}')`,
    );
    const [{ seq: before } = { seq: '' }] = await db.query<{ seq: string }>(
      `SELECT change_seq::text AS seq FROM marks WHERE external_id = 'US79232184'`,
    );

    assert.deepEqual(await migrateDatabase(db), [
      '015_match_keys_state',
      '016_mark_band',
      '017_alert_json_inline_dates',
      '018_word_count_deltas',
      '019_mark_as_of',
      '020_register_sync_retries',
      '022_office_records',
      '024_webhook_errors_without_addresses',
      '025_initial_load',
      '028_live_or_dead',
      '030_alert_origin',
      '031_watch_alert_counts',
      '032_watch_related_classes',
      '033_compact_alert_json',
      '034_initial_load_feed',
      '035_mark_keys',
      '036_hashed_key_index',
      '037_mark_removals',
    ]);

    const [mark] = await db.query<{ tokens: string[]; codes: string[]; seq: string }>(
      `SELECT k.tokens, k.sound_codes AS codes, m.change_seq::text AS seq
         FROM marks m JOIN mark_keys k ON k.id = m.id
        WHERE m.external_id = 'US79232184'`,
    );
    assert.ok(mark?.tokens.includes('TRUEONE'), `tokens: ${mark?.tokens.join(',')}`);
    assert.ok(mark?.tokens.includes('<TRUEO'), 'and the anchors of the spoken form');
    assert.ok(mark?.codes.includes('TRN'), `sound codes: ${mark?.codes.join(',')}`);
    assert.equal(mark?.seq, before, 'the record did not change: no re-scan of old marks');
    const [compound] = await db.query<{ tokens: string[] }>(
      `SELECT k.tokens FROM marks m JOIN mark_keys k ON k.id = m.id
        WHERE m.external_id = 'US90000003'`,
    );
    assert.ok(compound?.tokens.includes('{SUN'), `compound keys: ${compound?.tokens.join(',')}`);
    // 016: the marks stored before it are in the two-edit band's table, TRUE1 (5 characters) not.
    const band = await db.query<{ externalId: string; classes: number[]; coverage: string[] }>(
      `SELECT m.external_id AS "externalId", b.class_keys AS classes, b.coverage_keys AS coverage
         FROM mark_band b JOIN marks m ON m.id = b.id`,
    );
    assert.deepEqual(band, [{ externalId: 'US90000003', classes: [9], coverage: ['US'] }]);
  });
});

describe('re-keying the stored marks to a new match keys version', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('commits batch by batch, and a re-key stopped halfway continues where it stopped', async () => {
    const { db } = database;
    const texts = ['ACME', 'KESTREL ANALYTICS', 'ZEROFLUSH NET', 'THE NORTH FACE', 'BLUE ORCHID'];
    await importRecords(
      db,
      [...texts, 'SOLAMANTE', 'ROSA BEL'].map((markText) => makeRecord({ markText })),
    );
    const ids = (await db.query<{ id: number }>('SELECT id FROM marks ORDER BY id')).map((r) =>
      Number(r.id),
    );
    // As an older version left them: other keys, and the state of a finished earlier re-key.
    await db.query(`UPDATE mark_keys SET tokens = '{OLD}', sound_codes = '{}'`);
    await db.query('UPDATE match_keys_state SET version = $1, rekeyed_through = NULL', [
      MATCH_KEYS_VERSION - 1,
    ]);
    const state = async () =>
      (
        await db.query<{ version: number; through: number | null }>(
          'SELECT version, rekeyed_through AS through FROM match_keys_state',
        )
      )[0];
    const current = async () =>
      (
        await db.query<{ id: number; tokens: string[]; markText: string }>(
          `SELECT m.id, k.tokens, m.mark_text AS "markText"
             FROM marks m JOIN mark_keys k ON k.id = m.id ORDER BY m.id`,
        )
      ).map((r) => ({
        id: Number(r.id),
        rekeyed: r.tokens.join() === matchKeys(r.markText).tokens.join(),
      }));

    // Stopped (the process ends, say) after its second batch of two: four marks done, committed.
    let batches = 0;
    await assert.rejects(
      rekeyStoredMarks(db, {
        batchSize: 2,
        afterBatch: () => {
          if (++batches === 2) throw new Error('stopped');
        },
      }),
      /stopped/,
    );
    assert.deepEqual(await state(), { version: MATCH_KEYS_VERSION, through: ids[3] });
    assert.deepEqual(
      (await current()).map((m) => m.rekeyed),
      [true, true, true, true, false, false, false],
    );

    // The next start continues after the fourth mark, and finishes.
    const reported: number[] = [];
    await rekeyStoredMarks(db, {
      batchSize: 2,
      afterBatch: (through) => {
        // A re-key that makes no progress would never end.
        if (reported.push(through) > ids.length) throw new Error('no progress');
      },
    });
    assert.deepEqual(reported, [ids[5], ids[6]]);
    assert.ok((await current()).every((m) => m.rekeyed));
    assert.deepEqual(await state(), { version: MATCH_KEYS_VERSION, through: null });

    // Nothing left to do: a later start reads the state and stops.
    await db.query(`UPDATE mark_keys SET tokens = '{OLD}' WHERE id = $1`, [ids[0]]);
    await rekeyStoredMarks(db);
    assert.equal((await current())[0]?.rekeyed, false, 'not re-keyed again');
  });
});

describe('match keys version 7: a mirror keyed by version 6 gets the new shape keys', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('gives one-word marks their contraction and anagram keys, and leaves change_seq alone', async () => {
    const { db } = database;
    await importRecords(db, [makeRecord({ markText: 'COMMUNICASH' })]);
    // As version 6 keyed it: without the contraction key (=) and the anagram key (#).
    await db.query(
      `UPDATE mark_keys SET tokens = ARRAY(SELECT t FROM unnest(tokens) t
                                            WHERE left(t, 1) NOT IN ('=', '#'))`,
    );
    await db.query('UPDATE match_keys_state SET version = 6, rekeyed_through = NULL');
    const read = async () =>
      (
        await db.query<{ tokens: string[]; seq: string }>(
          'SELECT k.tokens, m.change_seq::text AS seq FROM marks m JOIN mark_keys k ON k.id = m.id',
        )
      )[0];
    const before = await read();
    assert.ok(!before?.tokens.includes('=COM|SH:11'));

    await rekeyStoredMarks(db);

    const after = await read();
    assert.ok(after?.tokens.includes('=COM|SH:11'), `tokens: ${after?.tokens.join(',')}`);
    assert.ok(after?.tokens.includes('#ACCHIMMNOSU'), 'and its letters in alphabetical order');
    assert.equal(after?.seq, before?.seq, 'the record did not change: no re-scan of old marks');
  });
});

describe('match keys version 8: a mirror keyed by version 7 gets the whole-mark skeleton keys', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('gives a one-word mark its skeleton keys and leaves a row whose keys stay the same unwritten', async () => {
    const { db } = database;
    await importRecords(db, [
      makeRecord({ markText: 'NYKES' }),
      makeRecord({ markText: 'ROSA BELLO' }),
    ]);
    // As version 7 keyed them: a one-word mark had no skeleton key; a two-word mark's pair key is
    // its whole skeleton, so its keys do not change.
    await db.query(
      `UPDATE mark_keys k SET tokens = ARRAY(SELECT t FROM unnest(k.tokens) t WHERE left(t, 1) <> '%')
         FROM marks m WHERE m.id = k.id AND m.mark_text = 'NYKES'`,
    );
    await db.query('UPDATE match_keys_state SET version = 7, rekeyed_through = NULL');
    const read = async () =>
      new Map(
        (
          await db.query<{ text: string; tokens: string[]; version: string }>(
            `SELECT m.mark_text AS text, k.tokens, k.xmin::text AS version
               FROM marks m JOIN mark_keys k ON k.id = m.id`,
          )
        ).map((r) => [r.text, r]),
      );
    const before = await read();
    assert.ok(!before.get('NYKES')?.tokens.includes('%NIKE'));
    const vacuums = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT vacuum_count::text AS n FROM pg_stat_user_tables WHERE relname = 'mark_keys'`,
          )
        )[0]?.n,
      );
    const vacuumsBefore = await vacuums();

    await rekeyStoredMarks(db);
    assert.equal(await vacuums(), vacuumsBefore + 1, 'rows rewritten: mark_keys vacuumed after');

    const after = await read();
    const nykes = after.get('NYKES')?.tokens ?? [];
    assert.ok(nykes.includes('%NIKES') && nykes.includes('%NIKE'), nykes.join(','));
    assert.equal(
      after.get('ROSA BELLO')?.version,
      before.get('ROSA BELLO')?.version,
      'keys unchanged: the row is not written again',
    );
    assert.deepEqual(after.get('ROSA BELLO')?.tokens, before.get('ROSA BELLO')?.tokens);

    // A re-key that rewrites nothing (every key already as the version makes it) vacuums nothing.
    await db.query('UPDATE match_keys_state SET version = 7, rekeyed_through = NULL');
    await rekeyStoredMarks(db);
    assert.equal(await vacuums(), vacuumsBefore + 1, 'nothing rewritten: no VACUUM');
  });
});

describe('migrations: 017 builds the same alert JSON as before, faster', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('gives alerts, new and updated, byte for byte the JSON that the 008 trigger built', async () => {
    const { db } = database;
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const { id: watchId } = await make.makeWatch(principal, { name: 'Kestrel' });
    const ids = await make.makeAlerts(watchId, 3, (i) => ({
      markText: `KESTREL ${i}`,
      // Timestamps both given and absent, and a rationale with characters JSON escapes.
      publishedAt: i === 0 ? null : '2026-09-01T00:00:00.000Z',
      rationale: `**KESTREL** "${i}"\nline\t<b>`,
    }));
    await db.query(`UPDATE alerts SET state = 'read', emailed_at = now_ms() WHERE id = $1`, [
      ids[0],
    ]);
    // 008's function, from its migration, under another name.
    const sql008 = listMigrations().find((m) => m.version === '008_alert_assessment')?.sql ?? '';
    const body = /CREATE OR REPLACE FUNCTION alerts_set_api_json\(\)[\s\S]*?\$\$;/.exec(
      sql008,
    )?.[0];
    assert.ok(body, '008 defines the function');
    await db.exec(body.replace('alerts_set_api_json()', 'alerts_api_json_008()'));
    await db.exec(
      `CREATE TEMP TABLE rebuilt AS SELECT * FROM alerts WITH NO DATA;
       CREATE TRIGGER rebuild BEFORE INSERT ON rebuilt FOR EACH ROW
         EXECUTE FUNCTION alerts_api_json_008();
       -- The origin (migration 030) is appended by a trigger of its own, after the JSON is built.
       CREATE TRIGGER rebuild_origin BEFORE INSERT ON rebuilt FOR EACH ROW
         EXECUTE FUNCTION alerts_add_origin_json();`,
    );
    await db.query('INSERT INTO rebuilt SELECT * FROM alerts');
    const pairs = await db.query<{ id: string; now: string; then: string }>(
      `SELECT a.id, a.api_json AS now, r.api_json AS then
         FROM alerts a JOIN rebuilt r ON r.id = a.id ORDER BY a.id`,
    );
    assert.equal(pairs.length, 3);
    // Migration 028 added hit.live after hit.status; since 033 the JSON is stored compact; 037
    // added hit.removedAt; the rest is 017's, byte for byte.
    for (const p of pairs) {
      assert.equal(before037(p.now).replace('"live":null,', ''), compactJson(p.then), p.id);
    }
    assert.match(pairs.map((p) => p.now).join(''), /"emailedAt":"\d{4}-/);
  });
});

describe('migrations: 033 stores the alert JSON compact', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  /** A function of a migration, from its file, under another name. */
  function migrationFunction(version: string, name: string, renamed: string): string {
    const sql = listMigrations().find((m) => m.version === version)?.sql ?? '';
    const body = new RegExp(`CREATE (OR REPLACE )?FUNCTION ${name}\\(\\)[\\s\\S]*?\\$\\$;`).exec(
      sql,
    )?.[0];
    assert.ok(body, `${version} defines ${name}`);
    return body.replace(`${name}()`, `${renamed}()`);
  }

  it('gives alerts, new and updated, the JSON that 028 and 030 built, without its whitespace', async () => {
    const { db } = database;
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const { id: watchId } = await make.makeWatch(principal, { name: 'Kestrel' });
    // jsonb members whose value is null (printed member by member), nested arrays of objects,
    // escapes, text with the separators in it, and numbers as jsonb keeps them.
    const payloads = [
      { markText: 'KESTREL', applicant: { name: 'A : B , C', address: null }, list: [] },
      { nested: [{ a: null, b: [null, { c: null, d: 'x "y" \\ z' }] }, {}], n: [1.5, -0, 1e21] },
      { text: 'ü € \u2028 \t tab\nline', empty: {}, deep: { deeper: { deepest: [[], [1, [2]]] } } },
    ];
    const ids = await make.makeAlerts(watchId, payloads.length, (i) => ({
      markText: `KESTREL ${i}`,
      rawPayload: payloads[i],
      opposition: i === 0 ? null : { deadline: i === 1 ? null : '2026-12-01', office: 'EUIPO' },
      registeredAt: i === 2 ? '2025-01-01T00:00:00.000Z' : null,
      rationale: `**KESTREL** "${i}"\nline\t<b>`,
    }));
    await db.query(`UPDATE alerts SET state = 'read', emailed_at = now_ms() WHERE id = $1`, [
      ids[0],
    ]);
    await db.exec(migrationFunction('028_live_or_dead', 'alerts_set_api_json', 'api_json_028'));
    await db.exec(migrationFunction('030_alert_origin', 'alerts_add_origin_json', 'origin_030'));
    await db.exec(
      `CREATE TEMP TABLE rebuilt AS SELECT * FROM alerts WITH NO DATA;
       CREATE TRIGGER rebuild BEFORE INSERT ON rebuilt FOR EACH ROW EXECUTE FUNCTION api_json_028();
       CREATE TRIGGER rebuild_origin BEFORE INSERT ON rebuilt FOR EACH ROW
         EXECUTE FUNCTION origin_030();`,
    );
    await db.query('INSERT INTO rebuilt SELECT * FROM alerts');
    const pairs = await db.query<{ id: string; now: string; then: string }>(
      `SELECT a.id, a.api_json AS now, r.api_json AS then
         FROM alerts a JOIN rebuilt r ON r.id = a.id ORDER BY a.id`,
    );
    assert.equal(pairs.length, payloads.length);
    for (const p of pairs) {
      assert.match(p.then, /"id" : "alt_/, 'the function of 028 built it with spaces');
      assert.equal(before037(p.now), compactJson(p.then), p.id);
    }
  });
});

describe('migrations: 033 on alerts stored before it', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('rebuilds their JSON compact, members and values unchanged', async () => {
    const { db } = database;
    const before033 = listMigrations().filter((m) => m.version < '033');
    for (const migration of before033) await db.exec(migration.sql);
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const { id: watchId } = await make.makeWatch(principal, { name: 'Osprey' });
    const id = await make.makeAlert(watchId, {
      rawPayload: { owner: { name: 'O : P, Q', city: null }, marks: [{ a: null }, 1.5] },
    });
    const read = async () =>
      (
        await db.query<{ json: string }>('SELECT api_json AS json FROM alerts WHERE id = $1', [id])
      )[0]?.json ?? '';
    const spaced = await read();
    assert.match(spaced, /"id" : "alt_/);

    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of before033) {
      await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    const applied = await migrateDatabase(db);
    assert.ok(applied.includes('033_compact_alert_json'), applied.join(', '));
    assert.equal(before037(await read()), compactJson(spaced));
  });
});

describe('migrations: 019 on a mirror stored before it', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('keeps the stored marks as they were, of unknown date, replaced by the next version', async () => {
    const { db } = database;
    const upTo018 = listMigrations().filter((m) => m.version < '019');
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    // As migrate() applied them: one transaction, each migration with its upgrade step.
    await db.transaction(async (tx) => {
      for (const migration of upTo018) {
        await tx.exec(migration.sql);
        await UPGRADE_STEPS[migration.version]?.(tx);
        await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      }
    });
    // An installation of 018 whose marks hold the current match keys, and two marks as its
    // importer wrote them.
    await db.query('UPDATE match_keys_state SET version = $1, rekeyed_through = NULL', [
      MATCH_KEYS_VERSION,
    ]);
    const stored = [makeRecord({ markText: 'HARBOR LANE BAKERY' }), makeRecord()];
    for (const record of stored) {
      const keys = matchKeys(record.markText);
      await db.query(
        `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                            jurisdiction, designations, filed_at, status, classes, raw_payload,
                            norm_text, compact_text, compact_len, tokens, sound_codes)
         VALUES ('global_trademark_database', $1, $2, 'Some Owner GmbH', 'DE', 'EM', '{}',
                 '2026-10-01', 'filed', '{9}', $3, $4, $5, $6, $7, $8)`,
        [
          record.externalId,
          record.markText,
          JSON.stringify(record),
          keys.normalized,
          keys.compact,
          keys.compact.length,
          keys.tokens,
          keys.soundCodes,
        ],
      );
    }
    const before = await db.query('SELECT * FROM marks ORDER BY id');

    assert.deepEqual((await migrateDatabase(db))[0], '019_mark_as_of');
    // The match keys live in mark_keys since migration 035.
    const after = await db.query<Record<string, unknown>>(
      'SELECT m.*, k.tokens, k.sound_codes FROM marks m JOIN mark_keys k ON k.id = m.id ORDER BY m.id',
    );
    assert.deepEqual(
      // goods and owner_key: the columns of the later migration 022; live, of 028.
      after.map(
        ({ as_of: _asOf, goods: _goods, owner_key: _ownerKey, live: _live, ...rest }) => rest,
      ),
      before,
      'every column of every mark as it was',
    );
    assert.deepEqual(
      after.map((m) => m.as_of),
      [null, null],
    );
    // Of unknown date, the stored version is replaced by any imported one, dated or not, as
    // every import did before; from then on the dates decide.
    const [bakery] = stored;
    await importRecords(db, [{ ...bakery, markText: 'HARBOR LANE FOODS' }], { asOf: '2026-11-02' });
    const late = await importRecords(db, [bakery], { asOf: '2026-11-01' });
    assert.equal(late.skipped, 1);
    const [mark] = await db.query<{ text: string }>(
      'SELECT mark_text AS text FROM marks WHERE external_id = $1',
      [bakery?.externalId],
    );
    assert.equal(mark?.text, 'HARBOR LANE FOODS');
  });
});

describe('migration 024: webhook delivery errors without addresses', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('rewrites the recorded reasons that named what a host resolved to, and only those', async () => {
    const { db } = database;
    const make = factories(db);
    const { principal } = await make.makeOwner({ tier: 'team' });
    const webhook = await make.makeWebhook(principal, { url: 'https://hooks.example.com/' });
    const reasons = [
      'vm resolves to 127.0.0.1, which is not a public address',
      'internal.example resolves to 10.0.0.5, which is not a public address',
      'the endpoint answered 500',
      'no answer within 10 s',
    ];
    for (const [i, reason] of reasons.entries()) {
      await db.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, last_error)
         VALUES ($1, $2, $3, 'webhook.test', '{}', $4)`,
        [`whd_m024_${i}`, webhook.id, `evt_m024_${i}`, reason],
      );
    }
    const migration = listMigrations().find((m) => m.version.startsWith('024_'));
    assert.ok(migration, 'migration 024 exists');
    await db.exec(migration.sql);
    const rows = await db.query<{ last_error: string }>(
      "SELECT last_error FROM webhook_deliveries WHERE id LIKE 'whd_m024_%' ORDER BY id",
    );
    assert.deepEqual(
      rows.map((r) => r.last_error),
      [
        'the host is not a public address',
        'the host is not a public address',
        'the endpoint answered 500',
        'no answer within 10 s',
      ],
    );
  });
});

describe('migrations: 028 on a mirror and alerts stored before it', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('reads live or dead from what each record kept, and the alert on a dead record is low, its pre-rule window gone', async () => {
    const { db } = database;
    await db.query(
      'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await db.transaction(async (tx) => {
      for (const migration of listMigrations().filter((m) => m.version < '028')) {
        await tx.exec(migration.sql);
        await UPGRADE_STEPS[migration.version]?.(tx);
        await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      }
    });
    // Three marks as the importer of 027 wrote them: a USPTO case-file the office says is dead, one
    // it says neither of (715, cancelled and restored to pendency: its word is pending), and an
    // EUTM whose status text's word is registered.
    const marks = [
      [
        'US500000060146682',
        'MACHINE-PISTOL',
        'US',
        'cancelled',
        { statusLiveDead: 'Dead/Cancelled' },
      ],
      [
        'US500000071000715',
        'RESTORED',
        'US',
        'pending',
        { statusLiveDead: 'Indifferent/Cancelled' },
      ],
      ['EM500000018173421', 'REGISTERED ONE', 'EM', 'registered', { statusCode: 'Registered' }],
    ] as const;
    for (const [externalId, markText, office, status, raw] of marks) {
      const keys = matchKeys(markText);
      await db.query(
        `INSERT INTO marks (source_code, external_id, mark_text, owner_name, owner_country_code,
                            jurisdiction, designations, filed_at, status, classes, raw_payload,
                            norm_text, compact_text, compact_len, tokens, sound_codes)
         VALUES ('global_trademark_database', $1, $2, 'Owner', 'US', $3, '{}', '1920-09-25',
                 $4, '{9}', $5::text::jsonb, $6, $7, $8, $9, $10)`,
        [
          externalId,
          markText,
          office,
          status,
          JSON.stringify(raw),
          keys.normalized,
          keys.compact,
          keys.compact.length,
          keys.tokens,
          keys.soundCodes,
        ],
      );
    }
    // A high alert on the dead record, with the window today's rule gave its 1967 publication.
    const make = factories(db);
    const { principal } = await make.makeOwner();
    const watch = await make.makeWatch(principal, {
      name: 'Machine Pistol',
      niceClasses: [9],
      designations: ['US'],
    });
    await db.query(
      `INSERT INTO hits (id, watch_id, source_code, external_id, entity_type, display_name,
                         owner_name, owner_country_code, jurisdiction, filed_at, status, classes,
                         raw_payload, published_at, opposition)
       VALUES ('hit_028dead', $1, 'global_trademark_database', 'US500000060146682', 'trademark',
               'MACHINE-PISTOL', 'Owner', 'US', 'US', '1920-09-25', 'cancelled', '{9}',
               '{"statusLiveDead":"Dead/Cancelled"}', '1967-03-14',
               '{"office":"USPTO","closesAt":"1967-04-13","extendableUntil":"1967-09-10","rule":"USPTO"}')`,
      [watch.id],
    );
    await db.query(
      `INSERT INTO alerts (id, watch_id, hit_id, owner_id, severity, rationale, rationale_at)
       SELECT 'alt_028dead', $1, 'hit_028dead', owner_id, 'high', 'old', now() FROM watches WHERE id = $1`,
      [watch.id],
    );

    // 028 first; the later migrations follow it.
    assert.deepEqual((await migrateDatabase(db)).slice(0, 1), ['028_live_or_dead']);
    const live = await db.query<{ external_id: string; live: boolean | null }>(
      'SELECT external_id, live FROM marks ORDER BY external_id',
    );
    assert.deepEqual(
      live.map((m) => [m.external_id, m.live]),
      [
        ['EM500000018173421', true],
        ['US500000060146682', false],
        ['US500000071000715', null],
      ],
    );
    const [alert] = await db.query<{ severity: string; json: string }>(
      `SELECT severity, api_json AS json FROM alerts WHERE id = 'alt_028dead'`,
    );
    assert.equal(alert?.severity, 'low');
    const json = JSON.parse(alert?.json ?? '{}');
    assert.equal(json.hit.live, false);
    assert.equal(json.hit.opposition, null);
    assert.match(json.rationale, /the record is dead at its office \(status cancelled\)/);
    assert.match(
      json.rationale,
      /before the USPTO rule this service applies came into force on 2003-11-02/,
    );
  });
});
