import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { settleMarkIndexes } from '../../src/data/repositories/marks.ts';
import { findRecordByExternalId } from '../../src/data/repositories/mirror-candidates.ts';
import { importRecordFiles } from '../../src/mirror/import.ts';
import { SAMPLE_MARKS_PATH } from '../../src/register/sample-marks.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { makeCaseFile, makeDailyFile } from '../helpers/register-fixtures.ts';

const USPTO = 'test/fixtures/uspto';

describe('marks import into the mirror', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  after(() => database.drop());
  beforeEach(async () => {
    await db.query('DELETE FROM marks');
  });

  const mark = async (externalId: string) =>
    (
      await db.query<Record<string, unknown>>(
        `SELECT m.*, k.tokens, k.sound_codes
           FROM marks m LEFT JOIN mark_keys k ON k.id = m.id WHERE m.external_id = $1`,
        [externalId],
      )
    )[0];

  it('real USPTO case files land with their fields, match keys and the US jurisdiction', async () => {
    const summary = await importRecordFiles(db, [
      `${USPTO}/tmterminal_daily-na-98763166.xml`,
      `${USPTO}/tmterminal_annual-2025-repeated-international-codes-tx-71060608.xml`,
    ]);
    assert.deepEqual(summary, { imported: 2, updated: 0, skipped: 0, errors: [] });
    const suveneer = await mark('US500000098763166');
    assert.equal(suveneer?.mark_text, 'SUVENEER');
    assert.equal(suveneer?.owner_name, 'Nguyen Quang Huy');
    assert.equal(suveneer?.owner_country_code, 'VN');
    assert.equal(suveneer?.jurisdiction, 'US');
    assert.deepEqual(suveneer?.classes, [16]);
    assert.equal(suveneer?.compact_text, 'SUVENEER');
    assert.ok(((suveneer?.tokens ?? []) as string[]).includes('SUVENEER'));
    assert.ok(((suveneer?.sound_codes ?? []) as string[]).length > 0);
    assert.deepEqual((await mark('US500000071060608'))?.classes, [6, 20]);
  });

  it('what the source does not give is stored as null or no classes, never as a placeholder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmw-absent-'));
    try {
      // A real-format case-file with no owner, no Nice class and no status code.
      const xml = join(dir, 'absent.xml');
      writeFileSync(
        xml,
        makeCaseFile({ serial: '97000002', owners: '', codes: [], statusCode: '' }),
      );
      const countryless = join(dir, 'countryless.xml');
      writeFileSync(
        countryless,
        makeCaseFile({
          serial: '97000003',
          owners:
            '<case-file-owner><party-type>10</party-type><party-name>Nowhere Ltd</party-name></case-file-owner>',
        }),
      );
      const summary = await importRecordFiles(db, [xml, countryless]);
      assert.deepEqual(summary, { imported: 2, updated: 0, skipped: 0, errors: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await importRecords(db, [
      makeRecord({ externalId: 'EM500000018127518', ownerName: undefined, ownerCountryCode: 'XX' }),
    ]);
    const stored = async (externalId: string) => {
      const m = await mark(externalId);
      return [m?.owner_name, m?.owner_country_code, m?.status, m?.classes];
    };
    assert.deepEqual(await stored('US500000097000002'), [null, null, null, []]);
    assert.deepEqual(await stored('US500000097000003'), ['Nowhere Ltd', null, 'filed', [12]]);
    assert.deepEqual(await stored('EM500000018127518'), [null, null, 'filed', [9]]);
  });

  it('goods texts are stored with each mark, read back as the record gives them, and [] without', async () => {
    const withGoods = makeRecord({
      classes: [9, 42],
      goods: [
        { class: 9, text: 'Computer software', language: 'en' },
        { class: 42, text: 'Logiciels en ligne', language: 'fr' },
      ],
    });
    const without = makeRecord();
    await importRecords(db, [withGoods, without]);
    await importRecordFiles(db, [`${USPTO}/tmterminal_daily-na-98763166.xml`]);
    assert.deepEqual((await mark(withGoods.externalId))?.goods, [
      { niceClass: 9, text: 'Computer software', language: 'en' },
      { niceClass: 42, text: 'Logiciels en ligne', language: 'fr' },
    ]);
    assert.deepEqual((await mark(without.externalId))?.goods, []);
    assert.deepEqual((await mark('US500000098763166'))?.goods, [
      {
        niceClass: 16,
        text: 'Stickers; Stick markers; Sticker albums; Sticker books',
        language: 'en',
      },
    ]);
    // What a scan reads: the candidate record carries them.
    const found = await findRecordByExternalId(db, withGoods.externalId);
    assert.deepEqual(
      found?.goods.map((g) => g.niceClass),
      [9, 42],
    );
  });

  it('sparse USPTO records are skipped and counted', async () => {
    const summary = await importRecordFiles(db, [`${USPTO}/DERIVED_apc_wrapper_3records.xml`]);
    assert.equal(summary.imported, 2);
    assert.equal(summary.skipped, 1);
  });

  it('bad lines are reported with file and line and the good ones are imported', async () => {
    const file = 'test/fixtures/records/broken.jsonl';
    const summary = await importRecordFiles(db, [file]);
    assert.equal(summary.imported, 4);
    assert.deepEqual(
      summary.errors.map((e) => e.line),
      [2, 4, 6, 8, 9],
    );
    assert.ok(summary.errors.every((e) => e.file === file && e.message.length > 0));
    assert.ok(await mark('EM500000019000010'), 'the line after the errors is imported');
  });

  it('a missing file is an error of its own and the other files are still imported', async () => {
    const summary = await importRecordFiles(db, ['no/such/file.jsonl', SAMPLE_MARKS_PATH]);
    assert.equal(summary.errors.length, 1);
    assert.equal(summary.errors[0]?.file, 'no/such/file.jsonl');
    assert.equal(summary.errors[0]?.line, null);
    assert.equal(summary.imported, 21);
  });

  it('importing the same externalId again updates the record and gives it a higher change sequence', async () => {
    const record = makeRecord({ markText: 'FIRST TEXT' });
    await importRecords(db, [record]);
    const before = await mark(record.externalId);
    const summary = await importRecords(db, [{ ...record, markText: 'SECOND TEXT' }]);
    assert.deepEqual(summary, { imported: 0, updated: 1, skipped: 0, errors: [] });
    const afterUpdate = await mark(record.externalId);
    assert.equal(afterUpdate?.mark_text, 'SECOND TEXT');
    assert.ok(Number(afterUpdate?.change_seq) > Number(before?.change_seq));
    assert.equal((await db.query('SELECT 1 FROM marks')).length, 1);
  });

  it('a USPTO case-file older than the stored version (transaction-date) is skipped and counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmw-as-of-'));
    const file = (name: string, transactionDate: string, mark: string) => {
      const path = join(dir, name);
      writeFileSync(path, makeCaseFile({ serial: '97000004', transactionDate, mark }));
      return path;
    };
    try {
      const newer = file('apc240925.xml', '20240925', 'ACME ROCKETS NEW');
      const older = file('apc240914.xml', '20240914', 'ACME ROCKETS OLD');
      await importRecordFiles(db, [newer]);
      const seq = (await mark('US500000097000004'))?.change_seq;
      const late = await importRecordFiles(db, [older]);
      assert.deepEqual(late, { imported: 0, updated: 0, skipped: 1, errors: [] });
      const stored = await mark('US500000097000004');
      assert.equal(stored?.mark_text, 'ACME ROCKETS NEW');
      assert.equal(stored?.change_seq, seq, 'not written at all: no scan sees it again');
      // The same day's version again is written as the first load wrote it.
      const again = await importRecordFiles(db, [newer]);
      assert.deepEqual(again, { imported: 0, updated: 1, skipped: 0, errors: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an older case-file later in the same file is skipped too, whatever the batch size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tmw-as-of-'));
    try {
      const path = join(dir, 'daily.xml');
      writeFileSync(
        path,
        makeDailyFile([
          makeCaseFile({ serial: '97000005', transactionDate: '20240925', mark: 'NEWER' }),
          makeCaseFile({ serial: '97000005', transactionDate: '20240914', mark: 'OLDER' }),
        ]),
      );
      // One batch (the batch keeps the newer line), then a batch each (the merge keeps it).
      for (const batchSize of [2000, 1]) {
        await db.query('DELETE FROM marks');
        const summary = await importRecordFiles(db, [path], { batchSize });
        assert.equal((await mark('US500000097000005'))?.mark_text, 'NEWER', `batch ${batchSize}`);
        assert.deepEqual([summary.imported, summary.skipped], [1, 1], `batch ${batchSize}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a JSON Lines record, which gives no date, replaces whatever is stored: the last import wins', async () => {
    const record = makeRecord({ markText: 'DATED TEXT' });
    await importRecords(db, [record], { asOf: '2026-11-02' });
    const summary = await importRecords(db, [{ ...record, markText: 'UNDATED TEXT' }]);
    assert.deepEqual(summary, { imported: 0, updated: 1, skipped: 0, errors: [] });
    const stored = await mark(record.externalId);
    assert.equal(stored?.mark_text, 'UNDATED TEXT');
    assert.equal(stored?.as_of, null, 'its date is unknown, so any later version replaces it');
  });

  it('the whole line is kept verbatim as the raw payload', async () => {
    const record = makeRecord({ vendorField: { nested: [1, 2] } });
    await importRecords(db, [record]);
    assert.deepEqual((await mark(record.externalId))?.raw_payload, record);
  });

  it('change sequences follow the order of the file', async () => {
    const records = Array.from({ length: 25 }, () => makeRecord());
    const summary = await importRecords(db, records);
    assert.equal(summary.imported, 25);
    const rows = await db.query<{ external_id: string; change_seq: number }>(
      'SELECT external_id, change_seq FROM marks ORDER BY change_seq',
    );
    assert.deepEqual(
      rows.map((r) => r.external_id),
      records.map((r) => r.externalId),
    );
  });

  it('in small batches written two at a time, the later line wins and sequences follow the file', async () => {
    // Each batch is staged while the one before it merges (import.ts); merges stay in file order.
    const ids = Array.from({ length: 7 }, () => makeRecord().externalId);
    const lines = Array.from({ length: 40 }, (_, n) =>
      makeRecord({ externalId: ids[(n * 5) % ids.length], markText: `VERSION ${n}` }),
    );
    const summary = await importRecords(db, lines, { batchSize: 3 });
    assert.equal(summary.imported + summary.updated, 40);
    assert.equal(summary.imported, ids.length);
    const rows = await db.query<{ external_id: string; mark_text: string }>(
      'SELECT external_id, mark_text FROM marks ORDER BY change_seq',
    );
    const lastLine = new Map(lines.map((line, n) => [line.externalId, n]));
    const expected = [...lastLine].sort((a, b) => a[1] - b[1]);
    assert.deepEqual(
      rows.map((r) => [r.external_id, r.mark_text]),
      expected.map(([id, n]) => [id, `VERSION ${n}`]),
    );
  });

  it('a batch the database refuses stops the import: earlier batches stay, later ones are not written', async () => {
    await db.exec(`
      CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.mark_text = 'BOOM' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_boom BEFORE INSERT ON marks FOR EACH ROW EXECUTE FUNCTION refuse_boom();`);
    try {
      const lines = Array.from({ length: 12 }, (_, n) =>
        makeRecord({ markText: n === 6 ? 'BOOM' : `LINE ${n}` }),
      );
      await assert.rejects(importRecords(db, lines, { batchSize: 2 }), /refused by the test/);
      const rows = await db.query<{ mark_text: string }>(
        'SELECT mark_text FROM marks ORDER BY change_seq',
      );
      assert.deepEqual(
        rows.map((r) => r.mark_text),
        ['LINE 0', 'LINE 1', 'LINE 2', 'LINE 3', 'LINE 4', 'LINE 5'],
      );
    } finally {
      await db.exec('DROP TRIGGER refuse_boom ON marks; DROP FUNCTION refuse_boom();');
    }
  });
});

describe('after an import, the mirror is ready to search', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('leaves no GIN index of marks or mark_band with entries still in its pending list', async () => {
    const { db } = database;
    await importRecords(
      db,
      Array.from({ length: 300 }, (_, i) =>
        makeRecord({ markText: `QUILLSTONE HARBOR ${i} NORTHWIND TRADING` }),
      ),
    );
    // gin_clean_pending_list returns how many pending pages it merged: none may be left.
    const left = await db.query<{ index: string; pages: number }>(
      `SELECT c.relname AS index, gin_clean_pending_list(i.indexrelid)::int AS pages
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid IN ('marks'::regclass, 'mark_band'::regclass) AND am.amname = 'gin'`,
    );
    assert.ok(
      left.some((r) => r.index.startsWith('mark_band_')),
      'mark_band has GIN indexes',
    );
    assert.deepEqual(
      left.filter((r) => r.pages > 0),
      [],
    );
  });

  it('an import large enough leaves the planner the size of the word counts, not a guess', async () => {
    const { db } = database;
    await importRecords(db, [
      makeRecord({ markText: 'QUILLSTONE HARBOR' }),
      makeRecord({ markText: 'NORTHWIND TRADING' }),
    ]);
    // An import of 10,000 rows or more settles with fresh statistics. Without those of mark_words
    // the planner guessed its size, and read 3.75M rows of it by a scan at 10M records.
    await settleMarkIndexes(db, 10_000);
    const [words] = await db.query<{ tuples: number; rows: number }>(
      `SELECT c.reltuples::float8 AS tuples, (SELECT count(*)::int FROM mark_words) AS rows
         FROM pg_class c WHERE c.oid = 'mark_words'::regclass`,
    );
    assert.ok((words?.rows ?? 0) > 0);
    assert.equal(words?.tuples, words?.rows);
  });
});
