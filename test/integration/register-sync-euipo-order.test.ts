// The order of EUIPO's files in a sync of euipo-bulk: the applicant files that name the owners
// before the marks that give them by key, a full release before the same day's changes, and an
// applicant file that fails and loads later still naming the marks loaded before it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { euipoBulk } from '../../src/register/feeds.ts';
import { type FeedServer, zipOfBuffers } from '../helpers/feed-server.ts';
import { applicant, applicantFile } from '../helpers/register-fixtures.ts';
import { sync, syncTestContext } from '../helpers/register-sync.ts';

const PREFLET = 'test/fixtures/euipo-bulk/bekone97_EM-TM-V3-4_018173421.xml';

/** The mark the Preflet record names by its applicant key 1057491. */
const owner = (db: Db) =>
  db
    .query<{ owner: string | null; status: string | null }>(
      `SELECT owner_name AS owner, status FROM marks WHERE external_id = 'EM500000018173421'`,
    )
    .then((rows) => rows[0]);

describe('register sync of euipo-bulk: which file first', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let marks: Buffer;
  let applicants: Buffer;
  before(async () => {
    db = context.db;
    server = context.server;
    marks = await zipOfBuffers({ '018173421.xml': readFileSync(PREFLET) });
    // DERIVED applicant file (test/helpers/register-fixtures.ts): the key of the real mark, a test name.
    applicants = await zipOfBuffers({
      'applicants.xml': Buffer.from(
        applicantFile(applicant('1057491', 'Test Holder One GmbH', 'DE')),
      ),
    });
  });
  const run = (options: Parameters<typeof sync>[2] = {}) =>
    sync(db, server, { feed: euipoBulk, ...options });

  it("a day's applicant file loads before its mark file, and the mark has its owner's name", async () => {
    server.files.set('DIFF_EUTMS_20260106_0001.zip', { kind: 'file', body: marks });
    server.files.set('DIFF_APPLICANTS_20260106_0001.zip', { kind: 'file', body: applicants });
    const report = await run();
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status]),
      [
        ['DIFF_APPLICANTS_20260106_0001.zip', 'loaded'],
        ['DIFF_EUTMS_20260106_0001.zip', 'loaded'],
      ],
    );
    assert.equal((await owner(db))?.owner, 'Test Holder One GmbH');
  });

  it('an applicant file that failed is loaded by the next sync, and names the marks loaded before it', async () => {
    server.files.set('DIFF_EUTMS_20260106_0001.zip', { kind: 'file', body: marks });
    server.files.set('DIFF_APPLICANTS_20260106_0001.zip', { kind: 'status', status: 503 });
    const first = await run();
    assert.deepEqual(
      first.files.map((f) => f.status),
      ['failed', 'loaded'],
    );
    assert.equal((await owner(db))?.owner, null, 'a key without a name is no name');
    server.files.set('DIFF_APPLICANTS_20260106_0001.zip', { kind: 'file', body: applicants });
    const next = await run();
    assert.deepEqual(
      next.files.map((f) => [f.name, f.status]),
      [
        ['DIFF_APPLICANTS_20260106_0001.zip', 'loaded'],
        ['DIFF_EUTMS_20260106_0001.zip', 'skipped'],
      ],
    );
    assert.equal((await owner(db))?.owner, 'Test Holder One GmbH');
  });

  it("a full release is a backfill, and loads before the same day's changes, which win", async () => {
    // The day's change: the registration is cancelled (DERIVED from the real record).
    const changed = readFileSync(PREFLET, 'utf8').replace(
      '<MarkCurrentStatusCode milestone="23" status="1">Registered</MarkCurrentStatusCode>',
      '<MarkCurrentStatusCode milestone="23" status="1">Registration cancelled</MarkCurrentStatusCode>',
    );
    assert.match(changed, /Registration cancelled/);
    server.files.set('EUTMS_20260106_0001.zip', { kind: 'file', body: marks });
    server.files.set('DIFF_EUTMS_20260106_0001.zip', {
      kind: 'file',
      body: await zipOfBuffers({ '018173421.xml': Buffer.from(changed) }),
    });
    const regular = await run();
    assert.deepEqual(
      regular.files.map((f) => f.name),
      ['DIFF_EUTMS_20260106_0001.zip'],
      'without --since the full release is not loaded',
    );
    assert.equal(server.requests('/feed/EUTMS_20260106_0001.zip'), 0);

    await db.query('DELETE FROM marks');
    await db.query('DELETE FROM register_files');
    const backfill = await run({ since: '2026-01-06' });
    assert.deepEqual(
      backfill.files.map((f) => [f.name, f.status]),
      [
        ['EUTMS_20260106_0001.zip', 'loaded'],
        ['DIFF_EUTMS_20260106_0001.zip', 'loaded'],
      ],
    );
    assert.equal((await owner(db))?.status, 'cancelled', "the day's change is what stays");
  });

  it('a later day that deletes a mark deletes it, and its report says how many', async () => {
    const deletion = readFileSync(PREFLET, 'utf8').replace(
      'operationCode="Insert"',
      'operationCode="Delete"',
    );
    server.files.set('DIFF_EUTMS_20260106_0001.zip', { kind: 'file', body: marks });
    server.files.set('DIFF_EUTMS_20260107_0001.zip', {
      kind: 'file',
      body: await zipOfBuffers({ '018173421.xml': Buffer.from(deletion) }),
    });
    const report = await run();
    assert.deepEqual(
      report.files.map((f) => [f.name, f.imported, f.deleted]),
      [
        ['DIFF_EUTMS_20260106_0001.zip', 1, undefined],
        ['DIFF_EUTMS_20260107_0001.zip', 0, 1],
      ],
    );
    assert.equal(await owner(db), undefined, 'the mark is gone');
  });
});
