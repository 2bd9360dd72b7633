import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMarkTexts } from '../../bench/lib/mark-texts.ts';
import { mulberry32 } from '../../bench/lib/random.ts';
import { VARIANT_KINDS, variantGenerators, vocabularyOf } from '../../bench/lib/variants.ts';
import type { Db, Queryable } from '../../src/data/db.ts';
import { listMigrations } from '../../src/data/migrate.ts';
import {
  finishInitialLoad,
  initialLoadInProgress,
} from '../../src/data/repositories/initial-load.ts';
import { highestChangeSeq } from '../../src/data/repositories/marks.ts';
import { KEYS_PER_SEARCH, queryCandidates } from '../../src/data/repositories/mirror-candidates.ts';
import { rekeyStoredMarks } from '../../src/data/upgrades.ts';
import {
  buildCandidateIndex,
  type IndexedRecordRow,
  matchCandidateIndex,
} from '../../src/matching/candidates.ts';
import { type PreparedWatch, prepareWatch } from '../../src/matching/decide.ts';
import { MATCH_KEYS_VERSION } from '../../src/matching/normalize.ts';
import { createRegisterMirror } from '../../src/scan/sources/register-mirror.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  bandMismatches,
  candidateIndexes,
  importRecords,
  keyMismatches,
  makeRecord,
} from '../helpers/register.ts';
import { insertMarksBefore035 } from '../helpers/seed.ts';

// Migration 035 moves the candidate keys of a mirror stored before it into mark_keys: a populated
// mirror, upgraded, must give every watch the candidates the rule gave it before, and the
// importer and deletions must keep the moved keys in step afterwards.

const texts = readMarkTexts();

const BRANDS = ['Starbuck', 'zeroflush', 'Luma Netlock', 'Pelikan', 'Nike', 'Brio', 'Quillstone'];
const CLASSES = [[], [25], [3], [35], [9, 25], [5], [32], [41]];
const TERRITORIES = [
  { jurisdiction: 'EM' },
  { jurisdiction: 'US' },
  { jurisdiction: 'DE' },
  { jurisdiction: 'CA' },
  { jurisdiction: 'WO', designations: ['US'] },
  { jurisdiction: 'WO', designations: ['FR'] },
  { jurisdiction: 'WO', designations: ['DE', 'EM'] },
];
// Watches in classes with and without related ones (25: 35 and 41; 5: 3 and 32), over offices
// reached directly and through international registrations.
const WATCHES = BRANDS.flatMap((name, i) => [
  prepareWatch({ name, niceClasses: [25], designations: ['DE', 'US'] }),
  prepareWatch({ name, niceClasses: [5], designations: [i % 2 === 0 ? 'US' : 'EM'] }),
  prepareWatch({ name, niceClasses: [9], designations: ['FR'], relatedClasses: false }),
]);

/** Real marks and variants of each brand, each in a seeded class set and territory. */
function registerRecords() {
  const rand = mulberry32(11);
  const random = {
    pick: <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T,
    int: (n: number) => Math.floor(rand() * n),
  };
  const { generators } = variantGenerators(random, vocabularyOf(texts.slice(0, 2000)));
  const variants = BRANDS.flatMap((brand) => [
    brand,
    ...VARIANT_KINDS.flatMap((kind) =>
      Array.from({ length: 4 }, () => generators[kind](brand)).filter(
        (v): v is string => v !== null,
      ),
    ),
  ]);
  return [...variants, ...texts.slice(0, 1500)].map((markText) =>
    makeRecord({ markText, classes: random.pick(CLASSES), ...random.pick(TERRITORIES) }),
  );
}

const sorted = (ids: Iterable<number>) => [...ids].map(Number).sort((a, b) => a - b);

/** The schema as the migrations before `version` left it, recorded as applied. */
async function migrateBefore(db: Db, version: string): Promise<void> {
  const earlier = listMigrations().filter((m) => m.version < version);
  for (const migration of earlier) await db.exec(migration.sql);
  await db.query(
    'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const migration of earlier) {
    await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
  }
}

const migrateBefore035 = (db: Db) => migrateBefore(db, '035');

/**
 * A mirror as migration 035 left it (match keys as texts in mark_keys), holding `records`: stored
 * as before 035, then moved by 035 itself, recorded as applied.
 */
async function mirrorAt035(db: Db, records: ReturnType<typeof makeRecord>[]): Promise<void> {
  await migrateBefore035(db);
  // Keyed by the current version: the re-key after the migrations has nothing to do.
  await db.query('UPDATE match_keys_state SET version = $1, rekeyed_through = NULL', [
    MATCH_KEYS_VERSION,
  ]);
  await insertMarksBefore035(db, records);
  const [m035] = listMigrations().filter((m) => m.version === '035_mark_keys');
  assert.ok(m035);
  await db.exec(m035.sql);
  await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m035.version]);
}

describe('migration 035: a mirror stored before it keeps its candidates', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('moves every mark’s keys, and every watch finds the same records after the upgrade', async () => {
    const { db } = database;
    await migrateBefore035(db);
    // Keyed by the current version: the re-key after the migrations has nothing to do, so the keys
    // found afterwards are those the migration moved.
    await db.query('UPDATE match_keys_state SET version = $1, rekeyed_through = NULL', [
      MATCH_KEYS_VERSION,
    ]);
    const records = registerRecords();
    await insertMarksBefore035(db, records);

    // The candidates before: the one candidate rule over the keys as stored in marks.
    const stored = await db.query<IndexedRecordRow>(
      `SELECT id, mark_text AS "markText", live, tokens, sound_codes AS sound, compact_text AS compact, compact_len AS len,
              classes, jurisdiction, designations FROM marks`,
    );
    const index = buildCandidateIndex(stored);
    const expected = WATCHES.map((watch) => sorted(matchCandidateIndex(index, watch)));

    assert.equal((await migrateDatabase(db))[0], '035_mark_keys');

    assert.deepEqual(await keyMismatches(db), [], 'every mark has its keys, as stored');
    const idOf = new Map(
      (
        await db.query<{ id: number; externalId: string }>(
          'SELECT id, external_id AS "externalId" FROM marks',
        )
      ).map((r) => [r.externalId, Number(r.id)]),
    );
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    let total = 0;
    for (const [i, watch] of WATCHES.entries()) {
      const found = await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq });
      const ids = sorted(found.map((r) => idOf.get(r.externalId) as number));
      assert.deepEqual(ids, expected[i], `${watch.name} in ${[...watch.classes]}: other records`);
      total += ids.length;
    }
    // Not a comparison of empty lists: the seeded register gives these watches hundreds.
    assert.ok(total > 100, `${total} candidates compared`);
  });

  it('the importer and deletions keep the moved keys in step', async () => {
    const { db } = database;
    // The second is in the two-edit band too: its deletion takes both rows.
    const [first, second] = await db.query<{ externalId: string; markText: string }>(
      `SELECT external_id AS "externalId", mark_text AS "markText" FROM marks
        WHERE jurisdiction = 'EM' AND compact_len >= 8 ORDER BY id LIMIT 2`,
    );
    assert.ok(first && second);
    // An update of text, classes and territory, a new mark, and a deletion.
    await importRecords(db, [
      makeRecord({
        externalId: first.externalId,
        markText: 'BRIOCHE ROYALE',
        classes: [30],
        jurisdiction: 'WO',
        designations: ['US'],
      }),
      makeRecord({ markText: 'BRIO', classes: [5], jurisdiction: 'US' }),
    ]);
    await db.query('DELETE FROM marks WHERE external_id = $1', [second.externalId]);
    assert.deepEqual(await keyMismatches(db), []);
    assert.deepEqual(await bandMismatches(db), []);
    const [keys] = await db.query<{ classes: number[]; coverage: string[] }>(
      `SELECT k.class_keys AS classes, k.coverage_keys AS coverage
         FROM mark_keys k JOIN marks m ON m.id = k.id WHERE m.external_id = $1`,
      [first.externalId],
    );
    assert.deepEqual(keys, { classes: [30], coverage: ['WO', 'WO:US'] });
    const brio = prepareWatch({ name: 'Brio', niceClasses: [5], designations: ['US'] });
    const found = await createRegisterMirror().findCandidates(db, brio, {
      fromSeq: 0,
      toSeq: await highestChangeSeq(db),
    });
    assert.ok(found.some((r) => r.markText === 'BRIO' && r.jurisdiction === 'US'));
  });
});

describe('migration 035 during an initial load', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('leaves the load to build the new index with the others, and none of the dropped ones', async () => {
    const { db } = database;
    await migrateBefore035(db);
    // What beginInitialLoad did before 035: the GIN indexes of marks and mark_band noted, dropped.
    const gin = `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
                   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                   JOIN pg_am am ON am.oid = c.relam
                  WHERE am.amname = 'gin' ORDER BY c.relname`;
    const dropped = await db.query<{ name: string; definition: string }>(gin);
    await db.query('INSERT INTO mirror_initial_load (index_definitions) VALUES ($1::text[])', [
      dropped.map((d) => d.definition),
    ]);
    for (const d of dropped) await db.exec(`DROP INDEX ${d.name}`);
    await insertMarksBefore035(db, [makeRecord({ markText: 'BRIO', classes: [5] })]);

    await migrateDatabase(db);
    assert.deepEqual(await db.query(gin), [], 'still no candidate index while the load runs');
    await finishInitialLoad(db);

    const built = (await db.query<{ name: string }>(gin)).map((r) => r.name);
    const expected = [
      ...dropped.map((d) => d.name).filter((n) => !/^marks_(tokens|sound)_idx$/.test(n)),
      'mark_keys_idx',
    ].sort();
    assert.deepEqual(built, expected);
    assert.equal(await initialLoadInProgress(db), null);
  });
});

// Migration 036 indexes mark_keys' match keys hashed (the table keeps the texts): a mirror indexed
// by 035, upgraded, must give every watch the candidates it gave before, found through the new
// index, and the importer and the re-key then write keys the candidate query finds.
describe('migration 036: a mirror indexed by 035 keeps its candidates', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('indexes the hashed keys, and every watch finds the same records after the upgrade', async () => {
    const { db } = database;
    await mirrorAt035(db, registerRecords());
    const idOf = new Map(
      (
        await db.query<{ id: number; externalId: string }>(
          'SELECT id, external_id AS "externalId" FROM marks',
        )
      ).map((r) => [r.externalId, Number(r.id)]),
    );
    // The whole mirror (highestChangeSeq also reads 037's table, not there yet).
    const [{ seq: toSeq } = { seq: 0 }] = await db.query<{ seq: number }>(
      'SELECT max(change_seq)::int8 AS seq FROM marks',
    );
    const mirror = createRegisterMirror();
    const candidates = async () => {
      const found: number[][] = [];
      for (const watch of WATCHES) {
        const records = await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq });
        found.push(sorted(records.map((r) => idOf.get(r.externalId) as number)));
      }
      return found;
    };
    // The candidates before: 035's own query over the text keys.
    const expected = await candidatesAt035(db);
    assert.ok(expected.flat().length > 100, `${expected.flat().length} candidates compared`);
    const indexes = await candidateIndexes(db);

    assert.equal((await migrateDatabase(db))[0], '036_hashed_key_index');
    assert.deepEqual(
      await candidateIndexes(db),
      indexes.map((d) =>
        d.startsWith('CREATE INDEX mark_keys_idx ')
          ? 'CREATE INDEX mark_keys_idx ON public.mark_keys USING gin (mark_key_hashes(tokens), mark_key_hashes(sound_codes), class_keys, coverage_keys)'
          : d,
      ),
      'the key index replaced by the hashed one, the others as they were',
    );
    assert.deepEqual(await keyMismatches(db), [], 'every mark keeps its text keys');
    // The query's key conditions are the index's expressions: it searches the new index.
    await db.query('ANALYZE mark_keys');
    const conditions = await keyIndexConditions(
      db,
      prepareWatch({ name: 'Starbuck', niceClasses: [25], designations: ['US'] }),
      toSeq,
    );
    for (const keys of ['mark_key_hashes(tokens) &&', 'mark_key_hashes(sound_codes) &&']) {
      assert.ok(
        conditions.some((c) => c.includes(keys)),
        `${keys} searched in mark_keys_idx: ${conditions.join(' | ')}`,
      );
    }
    // The watch's keys are searched in groups of KEYS_PER_SEARCH (a GIN search compares all of its
    // keys at every row it returns), not in one search of them all.
    const sizes = conditions
      .filter((c) => c.includes('mark_key_hashes(tokens) &&'))
      .map((c) => (c.match(/\{([^}]*)\}/)?.[1] ?? '').split(',').length);
    const total = sizes.reduce((a, b) => a + b, 0);
    assert.ok(total > 2 * KEYS_PER_SEARCH, `${total} keys searched`);
    assert.ok(
      sizes.every((n) => n <= KEYS_PER_SEARCH),
      `at most ${KEYS_PER_SEARCH} keys per search: ${sizes.join(', ')}`,
    );
    // The class and territory keys are tested on the key rows found (onRows), not intersected
    // inside the index: their posting lists hold a large share of the register.
    assert.ok(
      conditions.every((c) => !c.includes('class_keys') && !c.includes('coverage_keys')),
      `no class or territory keys in a search of mark_keys_idx: ${conditions.join(' | ')}`,
    );
    assert.deepEqual(await candidates(), expected);

    // Written after the upgrade: by the importer, and by a re-key.
    await importRecords(db, [makeRecord({ markText: 'BRIO', classes: [5], jurisdiction: 'US' })]);
    await db.query(`UPDATE mark_keys SET tokens = '{OLD}', sound_codes = '{}'`);
    await db.query('UPDATE match_keys_state SET version = $1, rekeyed_through = NULL', [
      MATCH_KEYS_VERSION - 1,
    ]);
    await rekeyStoredMarks(db);
    assert.deepEqual(await keyMismatches(db), []);
    const brio = prepareWatch({ name: 'Brio', niceClasses: [5], designations: ['US'] });
    const found = await mirror.findCandidates(db, brio, {
      fromSeq: 0,
      toSeq: await highestChangeSeq(db),
    });
    assert.ok(found.some((r) => r.markText === 'BRIO' && r.jurisdiction === 'US'));
  });

  /**
   * The conditions the candidate query of `watch` searches mark_keys_idx with (its Bitmap Index
   * Scans), from the plan PostgreSQL makes for the query as queryCandidates sends it.
   */
  async function keyIndexConditions(db: Db, watch: PreparedWatch, toSeq: number) {
    const conditions: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Node Type'] === 'Bitmap Index Scan' && node['Index Name'] === 'mark_keys_idx') {
        conditions.push(String(node['Index Cond']));
      }
      for (const child of (node.Plans ?? []) as Record<string, unknown>[]) walk(child);
    };
    const explain = (tx: Queryable): Queryable => ({
      ...tx,
      async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
        if (!/^SELECT m\.external_id/.test(text.trim())) return tx.query<T>(text, params);
        const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) ${text}`,
          params,
        );
        const json = row?.['QUERY PLAN'];
        walk((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan);
        return [];
      },
    });
    await queryCandidates(
      { ...db, transaction: (fn) => db.transaction((tx) => fn(explain(tx))) } as Db,
      watch,
      { fromSeq: 0, toSeq },
    );
    return conditions;
  }

  /**
   * Migration 035's candidate rule over the text keys as 035 stored them: the in-memory index of
   * the same rule (candidates.happy keeps the two equal), fed mark_keys' texts.
   */
  async function candidatesAt035(db: Db): Promise<number[][]> {
    const rows = await db.query<IndexedRecordRow>(
      `SELECT m.id, m.mark_text AS "markText", m.live, k.tokens, k.sound_codes AS sound,
              m.compact_text AS compact, m.compact_len AS len, m.classes, m.jurisdiction,
              m.designations
         FROM marks m JOIN mark_keys k ON k.id = m.id`,
    );
    const index = buildCandidateIndex(rows);
    return WATCHES.map((watch) => sorted(matchCandidateIndex(index, watch)));
  }
});

describe('migration 036 during an initial load', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  after(() => database.drop());

  it('builds no index, and the load builds the hashed key index it recorded', async () => {
    const { db } = database;
    await mirrorAt035(db, []);
    // What beginInitialLoad does: the candidate indexes noted, dropped.
    const gin = `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
                   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                   JOIN pg_am am ON am.oid = c.relam
                  WHERE am.amname = 'gin' ORDER BY c.relname`;
    const dropped = await db.query<{ name: string; definition: string }>(gin);
    assert.ok(dropped.some((d) => d.name === 'mark_keys_idx'));
    await db.query('INSERT INTO mirror_initial_load (index_definitions) VALUES ($1::text[])', [
      dropped.map((d) => d.definition),
    ]);
    for (const d of dropped) await db.exec(`DROP INDEX ${d.name}`);

    assert.equal((await migrateDatabase(db))[0], '036_hashed_key_index');
    assert.deepEqual(await db.query(gin), [], 'still no candidate index while the load runs');
    const [recorded] = await db.query<{ definitions: string[] }>(
      'SELECT index_definitions AS definitions FROM mirror_initial_load',
    );
    assert.deepEqual(
      recorded?.definitions.filter((d) => d.includes('mark_keys_idx')),
      [
        'CREATE INDEX mark_keys_idx ON mark_keys USING gin (mark_key_hashes(tokens), mark_key_hashes(sound_codes), class_keys, coverage_keys)',
      ],
      'the load will build the hashed index instead of the text one',
    );
    // The load continued (`marks import --initial` again), which finishes it.
    await importRecords(db, [makeRecord({ markText: 'BRIO', classes: [5], jurisdiction: 'US' })], {
      initial: true,
    });

    assert.deepEqual(
      await db.query(gin),
      dropped.map((d) =>
        d.name === 'mark_keys_idx'
          ? {
              name: d.name,
              definition:
                'CREATE INDEX mark_keys_idx ON public.mark_keys USING gin (mark_key_hashes(tokens), mark_key_hashes(sound_codes), class_keys, coverage_keys)',
            }
          : d,
      ),
      'the indexes dropped, the key index as 036 defines it',
    );
    assert.equal(await initialLoadInProgress(db), null);
    assert.deepEqual(await keyMismatches(db), []);
    const brio = prepareWatch({ name: 'Brio', niceClasses: [5], designations: ['US'] });
    const found = await createRegisterMirror().findCandidates(db, brio, {
      fromSeq: 0,
      toSeq: await highestChangeSeq(db),
    });
    assert.deepEqual(
      found.map((r) => r.markText),
      ['BRIO'],
    );
  });
});
