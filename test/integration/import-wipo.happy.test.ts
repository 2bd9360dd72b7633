import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importRecordFiles } from '../../src/mirror/import.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const WIPO = 'test/fixtures/wipo';

describe('marks import of WIPO ST.96 and ST.66 documents', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('imports both standards, and a case in two of them is one record of the mirror', async () => {
    const summary = await importRecordFiles(database.db, [
      `${WIPO}/plumage_tsdr_sn76044902.xml`,
      `${WIPO}/plumage_tsdr_rn2178784-ST-962.2.1.xml`,
      `${WIPO}/plumage_tsdr_rn2178784-ST-961_D3.xml`,
    ]);
    // The two JAVA documents are one case (serial 74631225): the later one wins, once.
    assert.deepEqual(summary, { imported: 2, updated: 0, skipped: 0, errors: [] });
    const rows = await database.db.query<{ external_id: string; mark_text: string }>(
      'SELECT external_id, mark_text, classes FROM marks ORDER BY external_id',
    );
    assert.deepEqual(rows, [
      { external_id: 'US500000074631225', mark_text: 'JAVA', classes: [9] },
      { external_id: 'US500000076044902', mark_text: 'PYTHON', classes: [9, 42] },
    ]);
  });

  it('imports an EUIPO bulk file (derived shape, real marks) with the fields it lacks left empty', async () => {
    const summary = await importRecordFiles(database.db, [
      `${WIPO}/DERIVED_euipo_eutm-download_2marks.xml`,
    ]);
    assert.deepEqual(summary, { imported: 2, updated: 0, skipped: 0, errors: [] });
    const rows = await database.db.query(
      `SELECT external_id, mark_text, owner_name, owner_country_code, status, classes
         FROM marks WHERE jurisdiction = 'EM' ORDER BY external_id`,
    );
    assert.deepEqual(rows, [
      {
        external_id: 'EM500000000003088',
        mark_text: 'BROMPTON',
        owner_name: null,
        owner_country_code: null,
        status: null,
        classes: [],
      },
      {
        external_id: 'EM500000000007849',
        mark_text: 'ABACUS',
        owner_name: null,
        owner_country_code: null,
        status: null,
        classes: [],
      },
    ]);
  });
});
