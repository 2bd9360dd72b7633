import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMarkTexts } from '../../bench/lib/mark-texts.ts';
import { mulberry32 } from '../../bench/lib/random.ts';
import { VARIANT_KINDS, variantGenerators, vocabularyOf } from '../../bench/lib/variants.ts';
import type { Db } from '../../src/data/db.ts';
import { highestChangeSeq } from '../../src/data/repositories/marks.ts';
import { readChangedKeys } from '../../src/data/repositories/mirror-candidates.ts';
import { anyClassForms } from '../../src/matching/any-class.ts';
import {
  buildCandidateIndex,
  matchCandidateIndex,
  retrieves,
  watchTokens,
} from '../../src/matching/candidates.ts';
import {
  decideConflictPrepared,
  mayConflict,
  type PreparedWatch,
  prepareWatch,
} from '../../src/matching/decide.ts';
import { matchKeys } from '../../src/matching/normalize.ts';
import { createRegisterMirror } from '../../src/scan/sources/register-mirror.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';

// The candidate rule (src/matching/candidates.ts) has two executions: the SQL query over the
// indexes (full scans) and the in-memory index (incremental scans). Over the same records and
// watches they must return the same records, and every record the decision accepts.

const texts = readMarkTexts();

const BRANDS = [
  'Starbuck',
  'zeroflush',
  'Luma Netlock',
  'Pelikan',
  'North Face',
  'Nike',
  'Quillstone',
];

describe('the candidate rule: the SQL query and the in-memory index agree', () => {
  let database: TestDatabase;
  let db: Db;
  const watches = BRANDS.map((name) =>
    prepareWatch({ name, niceClasses: [25], designations: ['DE', 'US'] }),
  );
  // Each brand as a record whose source publishes no class (kept: text and territory decide), in
  // a longer mark in another class only (left out by the class filter), and as itself in that class
  // (kept: the same distinctive mark in any class, any-class.ts).
  const classless = BRANDS.map((name) => makeRecord({ markText: name, classes: [] }));
  const otherClass = BRANDS.map((name) =>
    makeRecord({ markText: `${name} Parfums`, classes: [3] }),
  );
  const itselfElsewhere = BRANDS.map((name) => makeRecord({ markText: name, classes: [3] }));
  // A beer brand taken whole into longer marks for cigarettes (34, related to beer since Carling
  // Brewing v. Philip Morris) and for firearms (13, related to nothing).
  const beer = prepareWatch({ name: 'Quillstone', niceClasses: [32], designations: ['DE'] });
  const tobacco = ['Quillstones Pils', 'Quillstonesky'].map((markText) =>
    makeRecord({ markText, classes: [34], jurisdiction: 'EM' }),
  );
  const firearms = makeRecord({ markText: 'Quillstones Pils', classes: [13], jurisdiction: 'EM' });
  // A related class is searched by the keys of the rules the decision raises there only: KANPELI,
  // PELIKAN's parts swapped (found by that rule's sound codes alone), is a candidate of a beer
  // watch in beer's class but not in wine's (33); one edit and the brand in a longer mark are.
  const pelikan = prepareWatch({ name: 'Pelikan', niceClasses: [32], designations: ['DE'] });
  const swappedInWine = makeRecord({ markText: 'KANPELI', classes: [33] });
  const swappedInBeer = makeRecord({ markText: 'KANPELI', classes: [32] });
  const nearInWine = [
    makeRecord({ markText: 'PELIKANO', classes: [33] }),
    makeRecord({ markText: 'PELIKAN BEER', classes: [34] }),
  ];

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    // Real marks, and every kind of variant of each brand (seeded), all in class 25.
    const rand = mulberry32(7);
    const random = {
      pick: <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T,
      int: (n: number) => Math.floor(rand() * n),
    };
    const { generators } = variantGenerators(random, vocabularyOf(texts.slice(0, 2000)));
    const variants = BRANDS.flatMap((brand) =>
      VARIANT_KINDS.flatMap((kind) =>
        Array.from({ length: 3 }, () => generators[kind](brand)).filter(
          (v): v is string => v !== null,
        ),
      ),
    );
    const marks = [...texts.slice(0, 1500), ...variants];
    await importRecords(db, [
      ...marks.map((markText, i) =>
        makeRecord({ markText, classes: [25], jurisdiction: i % 2 === 0 ? 'EM' : 'US' }),
      ),
      // The variants again in a class related to the watches' (35, retail of clothing), where
      // only the related-class keys are searched.
      ...variants.map((markText) => makeRecord({ markText, classes: [35], jurisdiction: 'EM' })),
    ]);
    await importRecords(db, [
      ...classless,
      ...otherClass,
      ...itselfElsewhere,
      ...tobacco,
      firearms,
      swappedInWine,
      swappedInBeer,
      ...nearInWine,
    ]);
  });
  after(() => database.drop());

  it('returns the same records by both paths, and every record the decision accepts', async () => {
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    const rows = await readChangedKeys(db, { fromSeq: 0, toSeq });
    const index = buildCandidateIndex(rows);
    const idOf = new Map(
      (
        await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM marks')
      ).map((r) => [r.external_id, Number(r.id)]),
    );
    let accepted = 0;
    let relatedKept = 0;
    let relatedLeft = 0;
    for (const watch of watches) {
      const bySql = await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq });
      const sqlIds = bySql.map((r) => idOf.get(r.externalId) as number).sort((a, b) => a - b);
      const memoryIds = matchCandidateIndex(index, watch)
        .map(Number)
        .sort((a, b) => a - b);
      assert.deepEqual(sqlIds, memoryIds, `${watch.name}: the two paths differ`);
      // Every accepted record is a candidate: decide over the whole mirror, not only candidates.
      const all = await db.query<{
        externalId: string;
        markText: string;
        classes: number[];
        jurisdiction: string;
        designations: string[];
      }>(
        'SELECT external_id AS "externalId", mark_text AS "markText", classes, jurisdiction, designations FROM marks',
      );
      const candidates = new Set(bySql.map((r) => r.externalId));
      const tokens = new Set(watchTokens(watch));
      for (const r of all) {
        // In the related class, some records the keys of the watch's own classes find are left out.
        if (r.classes.length === 1 && r.classes[0] === 35) {
          if (retrieves(watch, tokens, matchKeys(r.markText))) {
            if (candidates.has(r.externalId)) relatedKept++;
            else relatedLeft++;
          }
        }
        if (!decideConflictPrepared(watch, r).conflict) continue;
        accepted++;
        assert.ok(candidates.has(r.externalId), `${watch.name} / ${r.markText} is not retrieved`);
      }
    }
    assert.ok(accepted > 100, `${accepted} accepted pairs checked`);
    assert.ok(
      relatedKept > 0 && relatedLeft > 0,
      `related class: ${relatedKept} kept, ${relatedLeft} left out`,
    );
  });

  it('a record without classes is a candidate by both paths, and the brand itself in another class; a longer mark there is not', async () => {
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    const rows = await readChangedKeys(db, { fromSeq: 0, toSeq });
    const index = buildCandidateIndex(rows);
    const externalIdOf = new Map(
      (
        await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM marks')
      ).map((r) => [Number(r.id), r.external_id]),
    );
    for (const [i, watch] of watches.entries()) {
      const wanted = (classless[i] as { externalId: string }).externalId;
      const unwanted = (otherClass[i] as { externalId: string }).externalId;
      const itself = (itselfElsewhere[i] as { externalId: string }).externalId;
      const paths = {
        sql: (await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq })).map(
          (r) => r.externalId,
        ),
        memory: matchCandidateIndex(index, watch).map((id) => externalIdOf.get(Number(id))),
      };
      for (const [path, ids] of Object.entries(paths)) {
        assert.ok(ids.includes(wanted), `${watch.name}: ${path} drops the classless record`);
        assert.ok(!ids.includes(unwanted), `${watch.name}: ${path} keeps a class 3 record`);
        assert.equal(
          ids.includes(itself),
          anyClassForms(watch).length > 0,
          `${watch.name}: ${path} and the brand itself in class 3`,
        );
      }
    }
  });

  /** The external ids of `watch`'s candidates in the whole mirror, by SQL and from memory. */
  async function candidatesByBothPaths(
    watch: PreparedWatch,
  ): Promise<{ sql: string[]; memory: (string | undefined)[] }> {
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    const index = buildCandidateIndex(await readChangedKeys(db, { fromSeq: 0, toSeq }));
    const externalIdOf = new Map(
      (
        await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM marks')
      ).map((r) => [Number(r.id), r.external_id]),
    );
    return {
      sql: (await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq })).map((r) => r.externalId),
      memory: matchCandidateIndex(index, watch).map((id) => externalIdOf.get(Number(id))),
    };
  }

  it('a brand taken whole into a longer mark in a related class is a candidate by both paths and raised', async () => {
    const paths = await candidatesByBothPaths(beer);
    for (const [path, ids] of Object.entries(paths)) {
      for (const r of tobacco) assert.ok(ids.includes(r.externalId), `${path}: ${r.markText}`);
      assert.ok(!ids.includes(firearms.externalId), `${path} keeps the class 13 record`);
    }
    for (const r of tobacco)
      assert.equal(decideConflictPrepared(beer, r).conflict, true, r.markText);
  });

  it('a related class is searched by the keys of the rules raised there only, by both paths', async () => {
    const paths = await candidatesByBothPaths(pelikan);
    for (const [path, ids] of Object.entries(paths)) {
      assert.ok(ids.includes(swappedInBeer.externalId), `${path}: KANPELI in class 32`);
      assert.ok(!ids.includes(swappedInWine.externalId), `${path}: KANPELI in class 33`);
      for (const r of nearInWine) assert.ok(ids.includes(r.externalId), `${path}: ${r.markText}`);
    }
    assert.equal(decideConflictPrepared(pelikan, swappedInWine).conflict, false);
    assert.equal(decideConflictPrepared(pelikan, swappedInBeer).conflict, true);
  });

  it('a watch with related classes whose keys are all searched there too finds its identical mark (no branch of its own classes)', async () => {
    // Every key LE COQ sends is a related-class key, so the query has no branch limited to the
    // watch's own classes. An unused parameter for them made PostgreSQL refuse the statement
    // ("could not determine data type of parameter"), and the scan found nothing; PGlite
    // accepted it.
    const brand = 'Le Coq';
    const watch = prepareWatch({ name: brand, niceClasses: [9], designations: ['DE'] });
    assert.ok(watch.candidateClasses.length > 1, 'class 9 has related classes');
    const record = makeRecord({ markText: brand.toUpperCase(), classes: [9] });
    await importRecords(db, [record]);
    const toSeq = await highestChangeSeq(db);
    const found = await createRegisterMirror().findCandidates(db, watch, { fromSeq: 0, toSeq });
    assert.deepEqual(
      found.map((r) => r.externalId),
      [record.externalId],
    );
  });

  it('an incremental scan reads the in-memory index and finds the same candidates as SQL, less those no text rule finds', async () => {
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    let leftOut = 0;
    for (const watch of watches) {
      const full = await mirror.findCandidates(db, watch, { fromSeq: 0, toSeq });
      // fromSeq 1: the range (1, toSeq] goes through the in-memory index.
      const incremental = await mirror.findCandidates(db, watch, { fromSeq: 1, toSeq });
      const first = await db.query<{ external_id: string }>(
        'SELECT external_id FROM marks WHERE change_seq = 1',
      );
      const inRange = full.filter((r) => r.externalId !== first[0]?.external_id);
      // Only those that may be conflicts are read in full (conflictCandidates); every conflict is.
      const expected = inRange.filter((r) => mayConflict(watch, r.markText, r.live ?? null));
      leftOut += inRange.length - expected.length;
      for (const r of inRange) {
        if (r.live !== false && decideConflictPrepared(watch, r).conflict) {
          assert.ok(expected.includes(r), `${watch.name} / ${r.markText} is a conflict`);
        }
      }
      assert.deepEqual(
        incremental.map((r) => r.externalId).sort(),
        expected.map((r) => r.externalId).sort(),
        watch.name,
      );
    }
    assert.ok(leftOut > 0, 'some candidates are no conflict of any class');
  });
});

describe('the two-edit band: its own table, with the class and territory in its index', () => {
  let database: TestDatabase;
  let db: Db;
  // QUILSTONNE is two edits from QUILLSTONE: only the band (trigram similarity within 2 of the
  // brand's length) retrieves it, never the tokens.
  const watch = prepareWatch({ name: 'Quillstone', niceClasses: [25], designations: ['DE'] });
  const band = (externalId: string, overrides: Record<string, unknown>) =>
    makeRecord({ externalId, markText: 'QUILSTONNE', classes: [25], ...overrides });

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    await importRecords(db, [
      band('EM1', { jurisdiction: 'EM' }),
      band('WO-DE', { jurisdiction: 'WO', designations: ['DE', 'FR'] }),
      band('WO-JP', { jurisdiction: 'WO', designations: ['JP'] }),
      band('US1', { jurisdiction: 'US' }),
      band('EM-3', { jurisdiction: 'EM', classes: [3] }),
      band('EM-none', { jurisdiction: 'EM', classes: [] }),
    ]);
  });
  after(() => database.drop());

  const found = async () => {
    const toSeq = await highestChangeSeq(db);
    const rows = await createRegisterMirror().findCandidates(db, watch, { fromSeq: 0, toSeq });
    return rows.map((r) => r.externalId).sort();
  };

  it('retrieves a two-edit form in a watched class and territory, and no other', async () => {
    assert.equal(decideConflictPrepared(watch, band('x', { jurisdiction: 'EM' })).conflict, true);
    assert.deepEqual(await found(), ['EM-none', 'EM1', 'WO-DE']);
  });

  it('follows its marks: new text, classes, designations, a text too short for the band, a delete', async () => {
    const rowOf = async (externalId: string) =>
      (
        await db.query<{ compact: string; classes: number[]; coverage: string[] }>(
          `SELECT b.compact_text AS compact, b.class_keys AS classes, b.coverage_keys AS coverage
             FROM mark_band b JOIN marks m ON m.id = b.id WHERE m.external_id = $1`,
          [externalId],
        )
      )[0];
    assert.deepEqual(await rowOf('WO-DE'), {
      compact: 'QUILSTONNE',
      classes: [25],
      coverage: ['WO', 'WO:DE', 'WO:FR'],
    });
    assert.deepEqual((await rowOf('EM-none'))?.classes, [0]);

    await importRecords(db, [
      band('WO-JP', { jurisdiction: 'WO', designations: ['JP', 'DE'] }),
      band('EM-3', { jurisdiction: 'EM', classes: [3, 25] }),
      band('US1', { jurisdiction: 'US', markText: 'QUIL' }),
      band('EM1', { jurisdiction: 'EM', markText: 'HARBOR LIGHTS' }),
    ]);
    assert.deepEqual((await rowOf('WO-JP'))?.coverage, ['WO', 'WO:DE', 'WO:JP']);
    assert.deepEqual((await rowOf('EM-3'))?.classes, [3, 25]);
    assert.equal(await rowOf('US1'), undefined, 'a text of 4 characters leaves the band');
    assert.equal((await rowOf('EM1'))?.compact, 'HARBORLIGHTS');
    assert.deepEqual(await found(), ['EM-3', 'EM-none', 'WO-DE', 'WO-JP']);

    await db.query(`DELETE FROM marks WHERE external_id = 'WO-DE'`);
    const [{ n } = { n: -1 }] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM mark_band b WHERE NOT EXISTS (SELECT 1 FROM marks m WHERE m.id = b.id)',
    );
    assert.equal(n, 0, 'no band row outlives its mark');
  });
});
