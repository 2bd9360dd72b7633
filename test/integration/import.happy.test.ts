import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { importRecordFiles } from '../../src/register/import.ts';
import { SAMPLE_MARKS_PATH } from '../../src/register/sample-marks.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';

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
      await db.query<Record<string, unknown>>('SELECT * FROM marks WHERE external_id = $1', [
        externalId,
      ])
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
    assert.ok(summary.imported > 200);
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
});
