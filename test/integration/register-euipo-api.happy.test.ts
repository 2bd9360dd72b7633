// The euipo-api feed against a local double of EUIPO's token endpoint and Trademark Search API
// (test/helpers/euipo-api-double.ts; what it answers and why: test/fixtures/euipo-api/PROVENANCE.md).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { runDueSyncs } from '../../src/mirror/schedule.ts';
import { freshInstallation } from '../helpers/cli.ts';
import { type EuipoDouble, SOUND_MARK } from '../helpers/euipo-api-double.ts';
import { apiSync, euipoTestContext, TODAY, TOMORROW } from '../helpers/euipo-api-sync.ts';
import { FAST_HTTP, quietLogger } from '../helpers/register-sync.ts';

const mark = (db: Db, externalId: string) =>
  db
    .query<Record<string, unknown>>(
      `SELECT external_id, mark_text, owner_name, jurisdiction, designations, classes, status,
              to_char(filed_at, 'YYYY-MM-DD') AS filed, to_char(registered_at, 'YYYY-MM-DD') AS registered,
              to_char(expires_at, 'YYYY-MM-DD') AS expires, to_char(published_at, 'YYYY-MM-DD') AS published,
              to_char(as_of, 'YYYY-MM-DD') AS as_of, raw_payload->'euipo'->>'status' AS api_status
         FROM marks WHERE external_id = $1`,
      [externalId],
    )
    .then((rows) => rows[0]);

describe('the euipo-api feed', () => {
  const context = euipoTestContext();
  let db: Db;
  let double: EuipoDouble;
  before(() => {
    db = context.db;
    double = context.double;
  });

  it('a first sync asks for the marks changed in the last 7 days, page by page, and maps them into the mirror', async () => {
    double.register.push({ updateDate: '2026-03-06', item: SOUND_MARK });
    double.maxPageSize = 2;
    const report = await apiSync(double, db);
    assert.deepEqual(report.files, [
      {
        name: 'changes_2026-03-03_2026-03-10',
        status: 'loaded',
        bytes: report.files[0]?.bytes,
        imported: 5,
        updated: 0,
        skipped: 1,
        errors: 0,
      },
    ]);
    const asked = double.requests.api.map((r) => [
      r.query.get('query'),
      r.query.get('sort'),
      r.query.get('size'),
      r.query.get('page'),
    ]);
    assert.deepEqual(asked, [
      ['updateDate>=2026-03-03', 'applicationNumber:asc', '100', '0'],
      ['updateDate>=2026-03-03', 'applicationNumber:asc', '100', '1'],
      ['updateDate>=2026-03-03', 'applicationNumber:asc', '100', '2'],
    ]);
    assert.equal(double.requests.token.length, 1, 'one token for the whole sync');
    assert.deepEqual(await mark(db, 'EM500000018173421'), {
      external_id: 'EM500000018173421',
      mark_text: 'Preflet',
      owner_name: null,
      jurisdiction: 'EM',
      designations: [],
      classes: [9],
      status: 'registered',
      filed: '2020-01-04',
      registered: '2020-05-22',
      expires: '2030-01-04',
      published: '2020-02-06',
      as_of: '2026-03-10',
      api_status: 'REGISTERED',
    });
    const opposed = await mark(db, 'EM500000018173409');
    assert.deepEqual([opposed?.status, opposed?.published], ['opposed', '2020-01-20']);
    assert.equal(await mark(db, 'EM500000000984401'), undefined, 'changed before the window');
    const [row] = await listRegisterFiles(db, 'euipo-api');
    assert.deepEqual([row?.status, row?.fileDate, row?.sha256], ['loaded', '2026-03-03', null]);
    assert.match(
      row?.url ?? '',
      /\/trademark-search\/trademarks\?query=updateDate%3E%3D2026-03-03/,
    );
  });

  it('each sync asks from the day of the last one: the same day again, then the next day', async () => {
    await apiSync(double, db);
    const again = await apiSync(double, db);
    assert.deepEqual(
      again.files.map((f) => [f.name, f.status, f.imported, f.updated]),
      [['changes_2026-03-10_2026-03-10', 'loaded', 0, 0]],
    );
    assert.equal(double.requests.api.at(-1)?.query.get('query'), 'updateDate>=2026-03-10');

    // Overnight a mark is registered and another filed.
    const scrubby = double.register.find((e) => e.item.applicationNumber === '018173409');
    assert.ok(scrubby);
    scrubby.updateDate = '2026-03-10';
    scrubby.item = { ...scrubby.item, status: 'REGISTERED', registrationDate: '2026-03-10' };
    double.register.push({
      updateDate: '2026-03-11',
      item: {
        ...SOUND_MARK,
        applicationNumber: '019000001',
        markFeature: 'WORD',
        wordMarkSpecification: { verbalElement: 'Kestrel Harbor' },
      },
    });
    const next = await apiSync(double, db, { clock: { now: () => TOMORROW.getTime() } });
    assert.deepEqual(
      next.files.map((f) => [f.name, f.status, f.imported, f.updated]),
      [['changes_2026-03-10_2026-03-11', 'loaded', 1, 1]],
    );
    assert.equal(double.requests.api.at(-1)?.query.get('query'), 'updateDate>=2026-03-10');
    const registered = await mark(db, 'EM500000018173409');
    assert.deepEqual([registered?.status, registered?.as_of], ['registered', '2026-03-11']);
    assert.equal((await mark(db, 'EM500000019000001'))?.mark_text, 'Kestrel Harbor');
  });

  it('--since asks from that day (a backfill)', async () => {
    const report = await apiSync(double, db, { since: '2026-01-01' });
    assert.deepEqual(
      report.files.map((f) => [f.name, f.imported]),
      [['changes_2026-01-01_2026-03-10', 6]],
    );
    assert.equal((await mark(db, 'EM500000000984401'))?.mark_text, 'White wine');
  });

  it('tmwatch registers sync --feed euipo-api reads the credentials and the token endpoint from the environment', async () => {
    const install = await freshInstallation();
    try {
      let stdout = '';
      let stderr = '';
      const status = await main(
        [
          'registers',
          'sync',
          '--feed',
          'euipo-api',
          '--url',
          double.apiUrl,
          '--since',
          '2026-03-01',
        ],
        {
          ...install.env,
          LOG_LEVEL: 'silent',
          EUIPO_CLIENT_ID: double.clientId,
          EUIPO_CLIENT_SECRET: double.clientSecret,
          EUIPO_TOKEN_URL: double.tokenUrl,
        },
        {
          stdout: async (text) => {
            stdout += text;
          },
          stderr: async (text) => {
            stderr += text;
          },
        },
      );
      assert.equal(status, 0, stderr);
      const report = JSON.parse(stdout);
      assert.equal(report.feed, 'euipo-api');
      assert.equal(report.url, double.apiUrl);
      assert.equal(report.files[0].status, 'loaded');
      assert.equal(report.files[0].imported, 5);
      assert.ok(report.files[0].name.startsWith('changes_2026-03-01_'));
    } finally {
      await install.cleanup();
    }
  });

  it('the daily schedule syncs it with the credentials and token endpoint of the configuration', async () => {
    const config = loadConfig({
      REGISTER_FEEDS: `euipo-api=${double.apiUrl}`,
      EUIPO_CLIENT_ID: double.clientId,
      EUIPO_CLIENT_SECRET: double.clientSecret,
      EUIPO_TOKEN_URL: double.tokenUrl,
    });
    const reports = await runDueSyncs({
      config,
      db,
      logger: quietLogger,
      signal: new AbortController().signal,
      clock: { now: () => TODAY.getTime() },
      http: FAST_HTTP,
    });
    assert.deepEqual(
      reports.map((r) => [r.feed, r.files.map((f) => [f.name, f.status, f.imported])]),
      [['euipo-api', [['changes_2026-03-03_2026-03-10', 'loaded', 5]]]],
    );
  });
});
