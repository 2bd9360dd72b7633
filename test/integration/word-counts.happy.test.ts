// The register's word counts (mark_words): kept current by every import, without a recount, and
// used by scans to tell a distinctive word from a common one (shared_word) and to say so in the
// rationale. On PGlite, and on PostgreSQL with DATABASE_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db, Queryable } from '../../src/data/db.ts';
import { MarkBatch, mergeStagedMarks, stageMarks } from '../../src/data/repositories/marks.ts';
import { wordCountDeltas, wordStatsFor } from '../../src/data/repositories/word-counts.ts';
import { PLANS } from '../../src/domain/plans.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { createWatchService } from '../../src/domain/watches.ts';
import { importRecordFiles, toMarkUpsert } from '../../src/mirror/import.ts';
import { parseRegisterRecord, type RegisterRecord } from '../../src/register/record.ts';
import { createWordStatsCache } from '../../src/scan/word-stats.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import {
  bandMismatches,
  importRecords,
  keyMismatches,
  makeRecord,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';

/** A record as the importer's reader gives it. */
function parseRecord(input: unknown): RegisterRecord {
  const parsed = parseRegisterRecord(input);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.record;
}

describe('word counts of the register', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());
  beforeEach(async () => {
    await db.query('DELETE FROM alerts');
    await db.query('DELETE FROM hits');
    await db.query('DELETE FROM email_outbox');
    await db.query('DELETE FROM scan_runs');
    await db.query('DELETE FROM watches');
    await db.query('DELETE FROM marks');
  });

  const kept = () => storedWordCounts(db);
  const recount = () => recountedWordCounts(db);

  it('changes wait between folds, and a stopped import’s are folded when a process starts', async () => {
    // Small batches: with more than 25 of them, the import folds on its way, then at its end.
    await importRecords(
      db,
      Array.from({ length: 60 }, (_, i) => makeRecord({ markText: `KESTREL ${i % 7} ROBOTICS` })),
      { batchSize: 2 },
    );
    const pending = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM mark_word_deltas'))[0]?.n;
    assert.equal(await pending(), 0, 'an import ends with its changes folded');
    assert.deepEqual(await kept(), await recount());
    // A batch merged and committed as the importer does, but no fold after it: the process
    // stopped there.
    const batch = new MarkBatch();
    batch.add(toMarkUpsert(parseRecord(makeRecord({ markText: 'KESTREL HARBOR' }))));
    batch.add(toMarkUpsert(parseRecord(makeRecord({ markText: 'KESTREL 3 ROBOTICS' }))));
    await db.transaction(async (tx) => {
      await stageMarks(tx, batch);
      await mergeStagedMarks(tx);
    });
    assert.ok(((await pending()) ?? 0) > 0, 'the batch left its changes waiting');
    assert.notDeepEqual(await kept(), await recount());
    assert.deepEqual(await migrateDatabase(db), []);
    assert.equal(await pending(), 0);
    assert.deepEqual(await kept(), await recount(), 'folded at the start');
  });

  it('counts each word once per mark, per office, and the marks of each office under ""', async () => {
    await importRecords(db, [
      makeRecord({ markText: 'KESTREL KESTREL ROBOTICS', jurisdiction: 'EM' }),
      makeRecord({ markText: 'Kestrel Analytics', jurisdiction: 'US' }),
      makeRecord({ markText: 'ANALYTICS PLUS', jurisdiction: 'US' }),
    ]);
    const counts = await kept();
    assert.equal(counts.get('EM:KESTREL'), 1);
    assert.equal(counts.get('US:KESTREL'), 1);
    assert.equal(counts.get('US:ANALYTICS'), 2);
    assert.equal(counts.get('US:'), 2);
    assert.equal(counts.get('EM:'), 1);
    assert.deepEqual(counts, await recount());
    const stats = await wordStatsFor(db, ['KESTREL', 'ANALYTICS', 'NOWHERE']);
    assert.equal(stats.total, 3);
    assert.equal(stats.counts.get('KESTREL'), 2);
    assert.equal(stats.counts.get('ANALYTICS'), 2);
    assert.equal(stats.counts.has('NOWHERE'), false);
  });

  it('a re-import changes nothing; an update moves the counts; a deletion forgets the words', async () => {
    const first = makeRecord({ markText: 'HARBOR LANE BAKERY', jurisdiction: 'EM' });
    const other = makeRecord({ markText: 'HARBOR LIGHTS' });
    await importRecords(db, [first, other]);
    const once = await kept();
    await importRecords(db, [first, other]);
    assert.deepEqual(await kept(), once);
    await importRecords(db, [{ ...first, markText: 'HARBOR LANE FOODS', jurisdiction: 'US' }]);
    const moved = await kept();
    assert.equal(moved.get('EM:BAKERY'), undefined);
    assert.equal(moved.get('US:FOODS'), 1);
    assert.equal(moved.get('EM:HARBOR'), 1);
    assert.equal(moved.get('US:HARBOR'), 1);
    assert.deepEqual(moved, await recount());
    await db.query('DELETE FROM marks WHERE external_id = $1', [other.externalId]);
    assert.deepEqual(await kept(), await recount());
    await db.query('DELETE FROM marks');
    assert.deepEqual(await kept(), new Map());
  });

  it('an older version loaded after a newer one moves no count: the newer one stays', async () => {
    const newer = makeRecord({ markText: 'HARBOR LANE FOODS', classes: [29] });
    const older = { ...newer, markText: 'HARBOR LANE BAKERY', classes: [30] };
    const onlyInOlder = makeRecord({ markText: 'KESTREL HARBOR' });
    // The files of 1 and 2 November, loaded newest first: the older one had failed.
    await importRecords(db, [newer], { asOf: '2026-11-02' });
    const summary = await importRecords(db, [older, onlyInOlder], { asOf: '2026-11-01' });
    assert.deepEqual(summary, { imported: 1, updated: 0, skipped: 1, errors: [] });
    const [stored] = await db.query<{ text: string; classes: number[]; asOf: string }>(
      `SELECT mark_text AS text, classes, to_char(as_of, 'YYYY-MM-DD') AS "asOf"
         FROM marks WHERE external_id = $1`,
      [newer.externalId],
    );
    assert.deepEqual(stored, { text: 'HARBOR LANE FOODS', classes: [29], asOf: '2026-11-02' });
    const counts = await kept();
    assert.equal(counts.get('EM:BAKERY'), undefined);
    assert.equal(counts.get('EM:FOODS'), 1);
    assert.equal(counts.get('EM:HARBOR'), 2);
    assert.deepEqual(counts, await recount());
    assert.deepEqual(await bandMismatches(db), [], 'the two-edit band holds the newer version');
    assert.deepEqual(await keyMismatches(db), [], 'the candidate keys hold the newer version');
  });

  /** A team owner's watch, scanned once; its alerts' JSON by record id. */
  async function watchAndScan(
    name: string,
    attributes: { niceClasses: number[]; designations: string[]; relatedClasses?: boolean },
  ) {
    const user = await factories(db).makeUser({ tier: 'team' });
    const principal: Principal = {
      userId: user.id,
      email: user.email,
      organization: null,
      plan: PLANS.team,
      ownerId: user.id,
      key: null,
    };
    const watch = JSON.parse(
      await createWatchService(db).create(principal, {
        watchType: 'trademark',
        name,
        attributes: { relatedClasses: true, ...attributes },
        scanCadence: 'daily',
      }),
    ) as { id: string };
    const scanner = testScanner(db);
    await scanner.scan({});
    const rows = await db.query<{ externalId: string; json: string }>(
      `SELECT h.external_id AS "externalId", a.api_json AS json
         FROM alerts a JOIN hits h ON h.id = a.hit_id WHERE a.watch_id = $1`,
      [watch.id],
    );
    return new Map(rows.map((r) => [r.externalId, JSON.parse(r.json)]));
  }

  it('a USPTO disclaimer of the shared word is read, lowers the severity and is said', async () => {
    // The real case file of serial 98763166, with a word added to its mark and a disclaimer of it
    // (statement type D1, statement_types.csv): a derived file, built here.
    const real = readFileSync('test/fixtures/uspto/tmterminal_daily-na-98763166.xml', 'utf8');
    const derived = real
      .replace(
        '<mark-identification>SUVENEER</mark-identification>',
        '<mark-identification>HARBOR SUVENEER</mark-identification>',
      )
      .replace(
        '<case-file-statements>',
        '<case-file-statements><case-file-statement><type-code>D10000</type-code><text>No claim is made to the exclusive right to use "HARBOR" apart from the mark as shown.</text></case-file-statement>',
      );
    assert.notEqual(derived, real);
    const dir = mkdtempSync(join(tmpdir(), 'tmw-disclaimer-'));
    try {
      const file = join(dir, 'disclaimer.xml');
      writeFileSync(file, derived);
      const summary = await importRecordFiles(db, [file]);
      assert.equal(summary.imported, 1, JSON.stringify(summary.errors));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const raw = await db.query<{ words: string[] }>(
      `SELECT ARRAY(SELECT jsonb_array_elements_text(raw_payload->'disclaimedWords')) AS words
         FROM marks WHERE external_id = 'US500000098763166'`,
    );
    assert.deepEqual(raw[0]?.words, ['HARBOR']);
    const alerts = await watchAndScan('Harbor Lights', { niceClasses: [16], designations: ['US'] });
    const alert = alerts.get('US500000098763166');
    assert.ok(alert, 'the shared first word raises the alert');
    assert.equal(alert.severity, 'low');
    assert.match(
      alert.rationale,
      /The record disclaims `HARBOR` \(no claim to it apart from the mark as shown\)/,
    );
  });

  it('a scan weighs the brand’s words by the register and says so in the rationale', async () => {
    // ANALYTICS and ROBOTICS are in 31 of 33 marks: common here. KESTREL is in one.
    const filler = Array.from({ length: 30 }, (_, i) =>
      makeRecord({
        markText: `ANALYTICS ROBOTICS ${String.fromCharCode(65 + (i % 26))}${i}`,
        classes: [42],
      }),
    );
    const kestrel = makeRecord({ markText: 'KESTREL ROBOTICS', classes: [9] });
    const analytics = makeRecord({ markText: 'ANALYTICS PLUS', classes: [9] });
    await importRecords(db, [...filler, kestrel, analytics, makeRecord({ classes: [9] })]);
    const alerts = await watchAndScan('Kestrel Analytics', {
      niceClasses: [9],
      designations: ['DE'],
    });
    assert.deepEqual([...alerts.keys()], [kestrel.externalId]);
    const alert = alerts.get(kestrel.externalId);
    // The level is the scoring model's (calibrated on decided outcomes), not the rule's own `high`.
    assert.notEqual(alert.severity, 'low');
    assert.match(
      alert.rationale,
      /shares the distinctive word `KESTREL` of the watched brand, the first word of both marks \(in 1 of 33 marks in the register\)\. `ANALYTICS` and `ROBOTICS` are common \(31 and 31 marks\)\./,
    );
  });
});

describe('the word-count changes of a batch, planned on an empty mirror', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  // A first load plans its statements once, while marks is empty and never analyzed, and keeps
  // the plan: one that scans marks would read the whole growing mirror at every batch (the rate
  // of a 1M-record load fell from 6,000 to 750 records/s). A plan's shape, not a timing.
  it('looks each staged record up by its key, never by scanning marks', async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.query('CREATE TEMP TABLE staged_for_plan (LIKE marks) ON COMMIT DROP');
      const rows = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${wordCountDeltas('staged_for_plan')}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    assert.doesNotMatch(plan, /Seq Scan on marks\b/, plan);
    assert.match(plan, /Index (Only )?Scan using marks_source_external_key on marks/, plan);
  });
});

describe('the scans’ word counts, read once per mirror state', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());

  it('asks the database only for words it has not read since the mirror last changed', async () => {
    await importRecords(db, [
      makeRecord({ markText: 'KESTREL ROBOTICS' }),
      makeRecord({ markText: 'KESTREL ANALYTICS' }),
    ]);
    const statements: string[] = [];
    const counted: Queryable = {
      ...db,
      query: (text, params) => {
        statements.push(text);
        return db.query(text, params);
      },
    };
    const cache = createWordStatsCache();
    const first = await cache.statsFor(counted, 'mirror:2', ['KESTREL', 'ROBOTICS']);
    assert.deepEqual(first, await wordStatsFor(db, ['KESTREL', 'ROBOTICS']));
    assert.equal(first.counts.get('KESTREL'), 2);
    assert.equal(statements.length, 1);
    const again = await cache.statsFor(counted, 'mirror:2', ['ROBOTICS', 'KESTREL']);
    assert.deepEqual(again, first);
    assert.equal(statements.length, 1, 'nothing new to read');
    await cache.statsFor(counted, 'mirror:2', ['KESTREL', 'ANALYTICS']);
    assert.equal(statements.length, 2, 'one read, for ANALYTICS only');

    await importRecords(db, [makeRecord({ markText: 'KESTREL GROUP' })]);
    const moved = await cache.statsFor(counted, 'mirror:3', ['KESTREL']);
    assert.equal(statements.length, 3, 'a new mirror state reads again');
    assert.equal(moved.counts.get('KESTREL'), 3);
    assert.equal(moved.total, 3);
  });
});

describe('a batch of scans reads its brands’ word counts at once', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('one look-up for the brands of every watch the scanner claimed together', async () => {
    const { db } = database;
    await importRecords(db, [makeRecord({ markText: 'ZYXWV QUORT' })]);
    const make = factories(db);
    const { principal } = await make.makeOwner();
    for (const name of ['Kestrel Analytics', 'Quillstone', 'Harbor Lane Bakery']) {
      await make.makeWatch(principal, { name });
    }
    const lookups: string[] = [];
    const note = (text: string) => {
      if (text.includes('FROM mark_words')) lookups.push(text);
    };
    const counted: Db = {
      ...db,
      query: (text, params) => {
        note(text);
        return db.query(text, params);
      },
      transaction: (fn) =>
        db.transaction((tx) =>
          fn({
            ...tx,
            query: (text, params) => {
              note(text);
              return tx.query(text, params);
            },
          }),
        ),
    };
    const scanner = testScanner(counted);
    const totals = await scanner.scan({});
    assert.equal(totals.watchesScanned, 3);
    assert.equal(lookups.length, 1, 'the three scans found their brands’ counts in the cache');
  });
});
