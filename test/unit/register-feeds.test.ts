// The feeds' file names, the order and window of a sync, and the euipo-api feed's mapping of the
// API's items into records.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { RegisterFileRecord } from '../../src/data/repositories/register-files.ts';
import { apiWindow } from '../../src/mirror/euipo-api.ts';
import { filesToConsider } from '../../src/mirror/sync.ts';
import { euipoApiRecord, parseApiPage } from '../../src/register/euipo-api.ts';
import { cipoWeekly, euipoBulk, usptoDaily } from '../../src/register/feeds.ts';
import { parseHtmlListing } from '../../src/register/listing.ts';

const PAGE = 'https://mirror.example/files/';
const links = (...names: string[]) => names.map((n) => `<a href="${n}">${n}</a>`).join('\n');

describe('cipo-weekly file names', () => {
  const NAMES: [string, string | null, boolean][] = [
    ['WEEKLY_2025-06-17_00-07-58.zip', '2025-06-17', false],
    ['WEEKLY_2020-11-17_00-07-58.zip', '2020-11-17', false],
    ['CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip', '2025-06-14', true],
    ['CA-TMK-GLOBAL_2025-06-14_2354012_2371234_145.zip', '2025-06-14', true],
    ['WEEKLY_2025-02-30_00-07-58.zip', null, false],
    ['WEEKLY_2025-06-17.zip', null, false],
    ['CA-TMK-UPDATE_2025-06-01-2025-06-07_001.zip', null, false],
    ['TM_event_2025-01-28.zip', null, false],
  ];
  for (const [name, date, backfill] of NAMES) {
    it(`${name}: ${date ?? 'not a file of the feed'}${backfill ? ' (a full release)' : ''}`, () => {
      assert.equal(cipoWeekly.fileDate(name), date);
      if (date !== null) assert.equal(cipoWeekly.isBackfill?.(name), backfill);
    });
  }

  it("the page's links are resolved wherever they point, a query string kept for the download", () => {
    const html = links(
      'https://opic-cipo.ca/cipo/client_downloads/Trademarks_Weekly/WEEKLY_2025-06-24_00-05-12.zip?v=2',
      '/cipo/client_downloads/CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
    );
    assert.deepEqual(
      parseHtmlListing(html, 'https://ised-isde.canada.ca/site/x/en/page', cipoWeekly).map((f) => [
        f.name,
        f.url,
        f.backfill,
      ]),
      [
        [
          'CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
          'https://ised-isde.canada.ca/cipo/client_downloads/CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
          true,
        ],
        [
          'WEEKLY_2025-06-24_00-05-12.zip',
          'https://opic-cipo.ca/cipo/client_downloads/Trademarks_Weekly/WEEKLY_2025-06-24_00-05-12.zip?v=2',
          false,
        ],
      ],
    );
  });
});

describe('euipo-bulk file names and their order', () => {
  it('knows the full and differential files of marks and applicants, and nothing else', () => {
    assert.equal(euipoBulk.fileDate('EUTMS_20201118_0001.zip'), '2020-11-18');
    assert.equal(euipoBulk.fileDate('DIFF_EUTMS_20201119_0001.zip'), '2020-11-19');
    assert.equal(euipoBulk.fileDate('APPLICANTS_20191022_0003.zip'), '2019-10-22');
    assert.equal(euipoBulk.fileDate('DIFF_APPLICANTS_20201119.zip'), '2020-11-19');
    for (const other of [
      'IRS_20191026_0001.zip',
      'DIFF_REPS_20201119_0001.zip',
      'EUTMS_20201131_0001.zip',
      'EUTMS_20201118_0001.xml',
    ]) {
      assert.equal(euipoBulk.fileDate(other), null, other);
    }
    assert.equal(euipoBulk.isBackfill?.('EUTMS_20201118_0001.zip'), true);
    assert.equal(euipoBulk.isBackfill?.('APPLICANTS_20191022_0003.zip'), true);
    assert.equal(euipoBulk.isBackfill?.('DIFF_EUTMS_20201119_0001.zip'), false);
  });

  it('on one day the applicants load before the marks that name them, a full release before the day’s changes', () => {
    const html = links(
      'DIFF_EUTMS_20201119_0001.zip',
      'EUTMS_20201119_0002.zip',
      'EUTMS_20201119_0001.zip',
      'DIFF_APPLICANTS_20201119_0001.zip',
      'APPLICANTS_20201119_0001.zip',
      'DIFF_APPLICANTS_20201118_0001.zip',
    );
    assert.deepEqual(
      parseHtmlListing(html, PAGE, euipoBulk).map((f) => f.name),
      [
        'DIFF_APPLICANTS_20201118_0001.zip',
        'APPLICANTS_20201119_0001.zip',
        'DIFF_APPLICANTS_20201119_0001.zip',
        'EUTMS_20201119_0001.zip',
        'EUTMS_20201119_0002.zip',
        'DIFF_EUTMS_20201119_0001.zip',
      ],
    );
  });
});

const row = (
  name: string,
  fileDate: string,
  status: RegisterFileRecord['status'] = 'loaded',
): RegisterFileRecord => ({
  feed: 'f',
  name,
  url: `${PAGE}${name}`,
  status,
  fileDate,
  bytes: null,
  sha256: null,
  imported: null,
  updated: null,
  skipped: null,
  errors: null,
  reason: null,
  attempts: 1,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
});

describe('which listed files a sync considers', () => {
  const weeks = [
    '2025-05-06',
    '2025-05-13',
    '2025-05-20',
    '2025-05-27',
    '2025-06-03',
    '2025-06-10',
    '2025-06-17',
    '2025-06-24',
  ];
  const listing = parseHtmlListing(
    links(
      ...weeks.map((day) => `WEEKLY_${day}_00-07-58.zip`),
      'CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
      'CA-TMK-GLOBAL_2025-06-14_168015_300000_002.zip',
    ),
    PAGE,
    cipoWeekly,
  );
  const names = (files: { name: string }[]) => files.map((f) => f.name);

  it('a first sync: the files of the 7 newest days, without the full release', () => {
    assert.deepEqual(
      names(filesToConsider(listing, [], undefined)),
      weeks.slice(1).map((d) => `WEEKLY_${d}_00-07-58.zip`),
    );
  });

  it('a first sync of a feed with several files a day takes all of each of its 7 days', () => {
    const days = [
      '20201112',
      '20201113',
      '20201116',
      '20201117',
      '20201118',
      '20201119',
      '20201120',
      '20201123',
    ];
    const bulk = parseHtmlListing(
      links(
        ...days.flatMap((d) => [`DIFF_APPLICANTS_${d}_0001.zip`, `DIFF_EUTMS_${d}_0001.zip`]),
        'EUTMS_20201118_0001.zip',
      ),
      PAGE,
      euipoBulk,
    );
    const considered = filesToConsider(bulk, [], undefined);
    assert.equal(considered.length, 14);
    assert.equal(considered[0]?.name, 'DIFF_APPLICANTS_20201113_0001.zip');
  });

  it('--since: from that day on, the full release included (a backfill)', () => {
    assert.deepEqual(names(filesToConsider(listing, [], '2025-06-14')), [
      'CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
      'CA-TMK-GLOBAL_2025-06-14_168015_300000_002.zip',
      'WEEKLY_2025-06-17_00-07-58.zip',
      'WEEKLY_2025-06-24_00-07-58.zip',
    ]);
  });

  it('later syncs: from the oldest day recorded; a full-release file recorded (failed) is loaded again, the others not', () => {
    const known = [
      row('CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip', '2025-06-14', 'failed'),
      row('WEEKLY_2025-06-17_00-07-58.zip', '2025-06-17'),
    ];
    assert.deepEqual(names(filesToConsider(listing, known, undefined)), [
      'CA-TMK-GLOBAL_2025-06-14_111_168014_001.zip',
      'WEEKLY_2025-06-17_00-07-58.zip',
      'WEEKLY_2025-06-24_00-07-58.zip',
    ]);
  });

  it('uspto-daily keeps its rule: the 7 newest daily files', () => {
    const daily = parseHtmlListing(
      links(
        ...['260101', '260102', '260103', '260104', '260105', '260106', '260107', '260108'].map(
          (d) => `apc${d}.zip`,
        ),
      ),
      PAGE,
      usptoDaily,
    );
    assert.deepEqual(names(filesToConsider(daily, [], undefined)).at(0), 'apc260102.zip');
  });
});

describe('the euipo-api window of days', () => {
  const now = new Date('2026-03-10T08:00:00Z');
  it('a first sync asks for the last 7 days', () => {
    assert.deepEqual(apiWindow([], undefined, now), {
      from: '2026-03-03',
      to: '2026-03-10',
      name: 'changes_2026-03-03_2026-03-10',
    });
  });
  it('then from the day the last loaded window was asked on', () => {
    const known = [
      row('changes_2026-02-20_2026-03-01', '2026-02-20'),
      row('changes_2026-03-01_2026-03-08', '2026-03-01'),
      row('changes_2026-03-08_2026-03-09', '2026-03-08', 'failed'),
    ];
    assert.equal(apiWindow(known, undefined, now).from, '2026-03-08');
  });
  it('after windows that all failed, from the oldest of them', () => {
    const known = [
      row('changes_2026-03-01_2026-03-08', '2026-03-01', 'failed'),
      row('changes_2026-03-01_2026-03-09', '2026-03-01', 'failed'),
    ];
    assert.equal(apiWindow(known, undefined, now).from, '2026-03-01');
  });
  it('--since wins', () => {
    assert.equal(
      apiWindow([row('changes_2026-03-01_2026-03-08', '2026-03-01')], '2025-01-01', now).from,
      '2025-01-01',
    );
  });
});

describe('the euipo-api items as records', () => {
  const example = JSON.parse(
    readFileSync('test/fixtures/euipo-api/openapi-example-item.json', 'utf8'),
  );

  it("the published example: the EUTM's key, text, classes, dates, A.1 publication and status word", () => {
    const result = euipoApiRecord(example);
    assert.ok('record' in result);
    const { euipo, ...fields } = result.record;
    assert.deepEqual(fields, {
      externalId: 'EM500000000984401',
      markText: 'White wine',
      ownerName: null,
      ownerCountryCode: null,
      jurisdiction: 'EM',
      designations: [],
      filedAt: '1997-02-10',
      registeredAt: '1998-10-28',
      expiresAt: '2027-02-10',
      publishedAt: '1998-07-20',
      status: 'registered',
      classes: [33],
      logoUrl: null,
    });
    assert.deepEqual(euipo, example, 'the item is kept whole');
  });

  it('an international registration designating the EU is a WIPO record designating EM, dated by its designation', () => {
    const result = euipoApiRecord({
      applicationNumber: 'W00843427A',
      markFeature: 'WORD',
      wordMarkSpecification: { verbalElement: 'SAMPLE' },
      niceClasses: [25],
      designationDate: '2005-04-01',
      status: 'ACCEPTED',
    });
    assert.ok('record' in result);
    assert.deepEqual(
      [
        result.record.externalId,
        result.record.jurisdiction,
        result.record.designations,
        result.record.filedAt,
        result.record.status,
      ],
      ['WO-843427A', 'WO', ['EM'], '2005-04-01', 'registered'],
    );
  });

  it('a name the API gives is the owner; a status under appeal has no word', () => {
    const result = euipoApiRecord({
      ...example,
      applicants: [
        { office: 'EM', identifier: '1516' },
        { office: 'EM', identifier: '9', name: 'Bodega Example SL' },
      ],
      status: 'APPEALED',
    });
    assert.ok('record' in result);
    assert.deepEqual([result.record.ownerName, result.record.status], ['Bodega Example SL', null]);
  });

  const NOT_RECORDS: [string, unknown, string][] = [
    [
      'a mark without a verbal element',
      {
        applicationNumber: '000000001',
        markFeature: 'SOUND',
        niceClasses: [9],
        status: 'REGISTERED',
      },
      'skipped',
    ],
    ['an item that is not an object', 'x', 'error'],
    ['an item without a number', { markFeature: 'WORD' }, 'error'],
    ['a number of neither shape', { applicationNumber: '12-34' }, 'error'],
  ];
  for (const [what, item, kind] of NOT_RECORDS) {
    it(`${what}: ${kind}`, () => {
      assert.ok(kind in euipoApiRecord(item));
    });
  }

  it('a page must be a search result, not any JSON', () => {
    assert.deepEqual(
      parseApiPage('{"trademarks":[],"page":0,"size":100,"totalPages":0,"totalElements":0}'),
      { items: [], page: 0, totalPages: 0, totalElements: 0 },
    );
    assert.throws(() => parseApiPage('<html>'), /not JSON/);
    assert.throws(() => parseApiPage('{"trademarks":[]}'), /page, totalPages and totalElements/);
    assert.throws(() => parseApiPage('{"items":[]}'), /without a "trademarks" list/);
  });
});
