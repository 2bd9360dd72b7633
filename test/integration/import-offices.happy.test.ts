import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { importRecordFiles } from '../../src/mirror/import.ts';
import { freshInstallation, printedObject, tmwatch } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import {
  bandMismatches,
  keyMismatches,
  recountedWordCounts,
  storedWordCounts,
} from '../helpers/register.ts';
import {
  applicant,
  applicantFile,
  EUIPO_BULK_NUMBERS,
  euipoBulkFixture,
} from '../helpers/register-fixtures.ts';
import { testScanner } from '../helpers/scan.ts';

// The EUIPO's and CIPO's real files (copies in test/fixtures, provenance there) through the real
// importer, the mirror and a scan.

const EUIPO = EUIPO_BULK_NUMBERS.map(euipoBulkFixture);
const CIPO = [
  'test/fixtures/cipo/trademark-go_CA-ST96_1057613-00_1.xml',
  'test/fixtures/cipo/trademark-go_CA-ST96_1057614-00_2.xml',
];

describe('tmwatch marks import of the real EUIPO and CIPO files', () => {
  it('reads all seven: six marks imported, the design-only one skipped, no error', async () => {
    const install = await freshInstallation();
    try {
      const result = await tmwatch(['marks', 'import', ...EUIPO, ...CIPO], install.env);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(printedObject(result), { imported: 6, updated: 0, skipped: 1, errors: [] });
    } finally {
      await install.cleanup();
    }
  });
});

describe('the EUIPO and CIPO records in the mirror', () => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    dir = mkdtempSync(join(tmpdir(), 'import-offices-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });
  beforeEach(async () => {
    for (const table of ['email_outbox', 'alerts', 'hits', 'scan_runs', 'watches', 'marks']) {
      await db.query(`DELETE FROM ${table}`);
    }
    await db.query('DELETE FROM register_parties');
  });

  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const marks = () =>
    db.query<Record<string, unknown>>(
      `SELECT external_id, mark_text, owner_name, owner_country_code, jurisdiction, status, classes,
              to_char(filed_at, 'YYYY-MM-DD') AS filed, to_char(published_at, 'YYYY-MM-DD') AS published,
              to_char(registered_at, 'YYYY-MM-DD') AS registered, owner_key,
              jsonb_array_length(goods) AS goods, to_char(as_of, 'YYYY-MM-DD') AS as_of
         FROM marks ORDER BY external_id`,
    );

  it('every field the offices give lands: text, classes, dates, status, owner, office number', async () => {
    const summary = await importRecordFiles(db, [...EUIPO, ...CIPO]);
    assert.deepEqual(summary, { imported: 6, updated: 0, skipped: 1, errors: [] });
    const row = (
      id: string,
      text: string,
      owner: string | null,
      country: string | null,
      office: string,
      status: string,
      classes: number[],
      filed: string,
      published: string | null,
      registered: string | null,
      key: string | null,
      goods: number,
      asOf: string | null,
    ) => ({
      external_id: id,
      mark_text: text,
      owner_name: owner,
      owner_country_code: country,
      jurisdiction: office,
      status,
      classes,
      filed,
      published,
      registered,
      owner_key: key,
      goods,
      as_of: asOf,
    });
    assert.deepEqual(await marks(), [
      row(
        'CA-1057614',
        'CERIDIAN',
        'AQUA GLASS CORPORATION,',
        'US',
        'CA',
        'abandoned',
        [17],
        '2000-05-03',
        null,
        null,
        null,
        1,
        null,
      ),
      row(
        'EM500000018173186',
        'Hongtoo',
        null,
        null,
        'EM',
        'registered',
        [11],
        '2020-01-02',
        '2020-01-24',
        '2020-05-22',
        '1057089',
        1,
        '2020-06-09',
      ),
      row(
        'EM500000018173409',
        'euroscrubby',
        null,
        null,
        'EM',
        'opposed',
        [21],
        '2020-01-03',
        '2020-01-20',
        null,
        null,
        1,
        '2020-10-27',
      ),
      row(
        'EM500000018173418',
        'GOLF AMATEURS OPEN',
        null,
        null,
        'EM',
        'abandoned',
        [41],
        '2020-01-03',
        null,
        null,
        '833924',
        1,
        '2020-09-03',
      ),
      row(
        'EM500000018173421',
        'Preflet',
        null,
        null,
        'EM',
        'registered',
        [9],
        '2020-01-04',
        '2020-02-06',
        '2020-05-22',
        '1057491',
        1,
        '2020-06-08',
      ),
      row(
        'EM500000018173424',
        'hotukdeals',
        null,
        null,
        'EM',
        'abandoned',
        [35, 38],
        '2020-01-04',
        null,
        null,
        '1057498',
        2,
        '2020-05-18',
      ),
    ]);
  });

  it("EUIPO's applicant file names the owners its marks name by key, whichever is loaded first", async () => {
    const applicants = file(
      'APPLICANTS_1.xml',
      applicantFile(
        `${applicant('1057491', 'Test Holder One GmbH', 'DE')}${applicant('833924', null, 'IT')}`,
      ),
    );
    // Marks first, then the applicants: the marks get their owners, with a new change sequence.
    await importRecordFiles(db, [EUIPO[3] as string, EUIPO[2] as string]);
    const [{ seq: before } = { seq: '0' }] = await db.query<{ seq: string }>(
      `SELECT change_seq::text AS seq FROM marks WHERE external_id = 'EM500000018173421'`,
    );
    const summary = await importRecordFiles(db, [applicants]);
    assert.deepEqual(summary, { imported: 2, updated: 0, skipped: 0, errors: [] });
    const owners = async () =>
      (await marks()).map((m) => [m.external_id, m.owner_name, m.owner_country_code]);
    assert.deepEqual(await owners(), [
      // A key whose record gives no name: the name is null, the country as given.
      ['EM500000018173418', null, 'IT'],
      ['EM500000018173421', 'Test Holder One GmbH', 'DE'],
    ]);
    const [{ seq: after } = { seq: '0' }] = await db.query<{ seq: string }>(
      `SELECT change_seq::text AS seq FROM marks WHERE external_id = 'EM500000018173421'`,
    );
    assert.ok(BigInt(after) > BigInt(before), 'a changed owner is a change scans see');
    // Applicants first, then a mark naming one: it is stored with the name at once.
    await db.query('DELETE FROM marks');
    await importRecordFiles(db, [EUIPO[3] as string]);
    assert.deepEqual(await owners(), [['EM500000018173421', 'Test Holder One GmbH', 'DE']]);
    // The office deletes the applicant's record: the mark no longer has a name for its owner.
    const gone = file(
      'DIFF_APPLICANTS_2.xml',
      applicantFile(
        applicant('1057491', 'Test Holder One GmbH', 'DE', 'Delete'),
        '2020-08-01T00:00:00',
      ),
    );
    assert.deepEqual(await importRecordFiles(db, [gone]), {
      imported: 0,
      updated: 0,
      skipped: 0,
      errors: [],
      deleted: 1,
    });
    assert.deepEqual(await owners(), [['EM500000018173421', null, null]]);
    assert.deepEqual(await db.query('SELECT party_key FROM register_parties ORDER BY 1'), [
      { party_key: '833924' },
    ]);
  });

  it('operationCode="Delete" deletes the mark, and the word counts and band follow', async () => {
    await importRecordFiles(db, EUIPO);
    const deletion = file(
      'DIFF_EUTMS_1.xml',
      readFileSync(EUIPO[4] as string, 'utf8')
        .replace('operationCode="Insert"', 'operationCode="Delete"')
        .replace('2020-05-18T', '2020-12-01T'),
    );
    const summary = await importRecordFiles(db, [deletion]);
    assert.deepEqual(summary, { imported: 0, updated: 0, skipped: 0, errors: [], deleted: 1 });
    const ids = (await marks()).map((m) => m.external_id);
    assert.ok(!ids.includes('EM500000018173424'), 'hotukdeals is deleted');
    assert.equal(ids.length, 4);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
    assert.deepEqual(await bandMismatches(db), []);
    assert.deepEqual(await keyMismatches(db), []);
    // A deleted mark leaves no as-of date behind: an older file loaded again (a failed one
    // retried) brings its version back (docs/register-formats.md says so).
    const older = await importRecordFiles(db, [EUIPO[4] as string]);
    assert.equal(older.imported, 1);
    // A deletion older than the version stored deletes nothing.
    const stale = file(
      'DIFF_EUTMS_0.xml',
      readFileSync(EUIPO[4] as string, 'utf8')
        .replace('operationCode="Insert"', 'operationCode="Delete"')
        .replace('2020-05-18T', '2020-01-01T'),
    );
    assert.deepEqual(await importRecordFiles(db, [stale]), {
      imported: 0,
      updated: 0,
      skipped: 0,
      errors: [],
    });
    assert.equal((await marks()).length, 5);
    // Added and deleted by the same import, in batches of one: the delete trigger subtracts the
    // words the first batch's counts (not folded yet) add. DERIVED: a word the register never held.
    await db.query('DELETE FROM marks');
    const fresh = (path: string) =>
      readFileSync(path, 'utf8').replaceAll('hotukdeals', 'quorvantixle');
    await importRecordFiles(
      db,
      [file('EUTMS_fresh.xml', fresh(EUIPO[4] as string)), file('DIFF_fresh.xml', fresh(deletion))],
      { batchSize: 1 },
    );
    assert.equal((await marks()).length, 0);
    assert.deepEqual(await storedWordCounts(db), await recountedWordCounts(db));
  });

  it('a watch designating DE or EU in a live record\u2019s classes raises it, with its fields; a withdrawn CIPO record raises nothing', async () => {
    const applicants = file(
      'APPLICANTS_3.xml',
      applicantFile(applicant('1057491', 'Test Holder One GmbH', 'DE')),
    );
    await importRecordFiles(db, [...EUIPO, ...CIPO, applicants]);
    const { principal } = await factories(db).makeOwner({ tier: 'team' });
    const make = (name: string, niceClasses: number[], designations: string[]) =>
      factories(db).makeWatch(principal, { name, niceClasses, designations });
    const onDe = await make('Preflet', [9], ['DE']);
    const onEu = await make('Preflet', [9], ['EU']);
    const onUs = await make('Preflet', [9], ['US']);
    const onCa = await make('Ceridian', [17], ['CA']);
    const scanner = testScanner(db);
    await scanner.scan({});
    const alerts = await db.query<{ watch_id: string; json: string }>(
      'SELECT watch_id, api_json AS json FROM alerts',
    );
    const of = (watchId: string) =>
      alerts.filter((a) => a.watch_id === watchId).map((a) => JSON.parse(a.json));
    assert.equal(of(onUs.id).length, 0, 'an EUTM does not cover the US');
    for (const [watch, covered] of [
      [onDe, 'DE'],
      [onEu, 'EU'],
    ] as const) {
      const [alert, ...rest] = of(watch.id);
      assert.equal(rest.length, 0);
      assert.equal(alert.hit.externalId, 'EM500000018173421');
      assert.equal(alert.hit.displayName, 'Preflet');
      assert.equal(alert.hit.jurisdiction, 'EM');
      assert.equal(alert.hit.ownerName, 'Test Holder One GmbH');
      assert.deepEqual(alert.hit.classes, [9]);
      assert.equal(alert.hit.status, 'registered');
      assert.equal(alert.hit.publishedAt, '2020-02-06T00:00:00.000Z');
      assert.equal(alert.hit.opposition.closesAt, '2020-05-06');
      assert.match(alert.rationale, new RegExp(`EU trade mark, covers ${covered}`));
      assert.match(alert.rationale, /EUTM 018173421/);
      assert.match(alert.rationale, /EUIPO eSearch/);
    }
    // CERIDIAN was withdrawn by its owner (ST.96 "Application withdrawn"): dead, so it raises
    // nothing; the record is in the mirror all the same, marked dead.
    assert.deepEqual(of(onCa.id), []);
    const [ceridian] = await db.query<{ live: boolean | null; owner: string }>(
      `SELECT live, owner_name AS owner FROM marks WHERE external_id = 'CA-1057614'`,
    );
    assert.deepEqual(ceridian, { live: false, owner: 'AQUA GLASS CORPORATION,' });
  });
});
