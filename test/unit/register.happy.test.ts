import assert from 'node:assert/strict';
import {
  createReadStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { detectFormat } from '../../src/register/detect.ts';
import { readJsonLines } from '../../src/register/jsonl.ts';
import { readRecordFile } from '../../src/register/read-records.ts';
import { parseRegisterRecord, type RecordItem, toIsoInstant } from '../../src/register/record.ts';
import { SAMPLE_MARKS_PATH } from '../../src/register/sample-marks.ts';
import { usptoStatus } from '../../src/register/uspto-status.ts';
import { readUsptoXml, USPTO_XML_SOURCE, usptoSt13 } from '../../src/register/uspto-xml.ts';
import {
  chunked,
  collect,
  fields,
  makeCaseFile,
  makeDailyFile,
  onlyRecord,
  readFixtureText,
  records,
  recordsFixture,
  USPTO_DIR,
  usptoFixture,
} from '../helpers/register-fixtures.ts';

const readUspto = (name: string) => collect(readRecordFile(usptoFixture(name)));
const xmlFromText = (text: string, size = 64 * 1024) => collect(readUsptoXml(chunked(text, size)));

describe('USPTO XML: real case-files are mapped field by field', () => {
  test('SUVENEER (daily NA, new application) becomes a US record with its ST.13 id', async () => {
    const record = onlyRecord(await readUspto('tmterminal_daily-na-98763166.xml'));
    assert.deepEqual(fields(record), {
      externalId: 'US500000098763166',
      markText: 'SUVENEER',
      ownerName: 'Nguyen Quang Huy',
      ownerCountryCode: 'VN',
      jurisdiction: 'US',
      designations: [],
      filedAt: '2024-09-24T00:00:00.000Z',
      registeredAt: null,
      expiresAt: null,
      publishedAt: null,
      status: 'filed',
      live: true,
      classes: [16],
      logoUrl: null,
      goods: [
        {
          niceClass: 16,
          text: 'Stickers; Stick markers; Sticker albums; Sticker books',
          language: 'en',
        },
      ],
    });
  });

  test('the raw payload is a compact summary of the case-file, not the XML', async () => {
    const record = onlyRecord(await readUspto('tmterminal_daily-na-98763166.xml'));
    assert.deepEqual(record.rawPayload, {
      source: USPTO_XML_SOURCE,
      serialNumber: '98763166',
      registrationNumber: null,
      internationalRegistrationNumber: null,
      actionKey: null,
      transactionDate: '2024-09-25',
      statusCode: '630',
      statusDescription: 'NEW APPLICATION - RECORD INITIALIZED NOT ASSIGNED TO EXAMINER',
      statusLiveDead: 'Live/Pending',
      statusDate: '2024-09-25',
      markDrawingCode: '0',
      internationalCodes: ['016'],
      classes: [16],
      // Its only statement is a description of the mark (DM), not a disclaimer (D0, D1).
      disclaimers: [],
      disclaimedWords: [],
      owners: [
        {
          partyType: 10,
          entryNumber: 1,
          name: 'Nguyen Quang Huy',
          nationalityCountry: 'VN',
          nationalityState: null,
          country: 'VN',
          state: null,
          city: 'Hanoi',
        },
      ],
    });
  });

  test('MACHINE-PISTOL (annual backfile, 1921 registration) keeps its registration date and number', async () => {
    const record = onlyRecord(await readUspto('tmterminal_annual-2025-full-tx-60146682.xml'));
    assert.deepEqual(fields(record), {
      externalId: 'US500000060146682',
      markText: 'MACHINE-PISTOL',
      ownerName: 'AUTO ORDNANCE CORPORATION',
      ownerCountryCode: 'US',
      jurisdiction: 'US',
      designations: [],
      filedAt: '1920-09-25T00:00:00.000Z',
      registeredAt: '1921-09-20T00:00:00.000Z',
      expiresAt: null,
      publishedAt: null,
      status: 'cancelled',
      live: false,
      classes: [9],
      logoUrl: null,
      goods: [{ niceClass: 9, text: 'pistols', language: 'en' }],
    });
    assert.equal(record.rawPayload.registrationNumber, '0146682');
    assert.equal(record.rawPayload.markDrawingCode, '3');
  });

  test('two international codes in one classification both become classes (71060608: 6 and 20)', async () => {
    const record = onlyRecord(
      await readUspto('tmterminal_annual-2025-repeated-international-codes-tx-71060608.xml'),
    );
    assert.deepEqual(record.classes, [6, 20]);
    assert.deepEqual(record.rawPayload.internationalCodes, ['006', '020']);
  });

  test('a goods text of a US prime class with two Nice classes is tied to neither (71060608)', async () => {
    // GS0251 (LOCKS, LATCHES…) is of US class 025, whose classification lists Nice 6 and 20.
    const record = onlyRecord(
      await readUspto('tmterminal_annual-2025-repeated-international-codes-tx-71060608.xml'),
    );
    assert.deepEqual(record.goods, []);
  });

  test('the owner is the party with the highest party type (71060608: 43 over the 30 registrant)', async () => {
    const record = onlyRecord(
      await readUspto('tmterminal_annual-2025-repeated-international-codes-tx-71060608.xml'),
    );
    assert.equal(record.ownerName, 'SARGENT MANUFACTURING COMPANY');
    // <nationality> holds state DE (Delaware) and country US: the country wins.
    assert.equal(record.ownerCountryCode, 'US');
    assert.equal(record.status, 'registered');
    assert.equal(record.registeredAt, '1914-07-28T00:00:00.000Z');
  });

  test('of a chain of 7 owners the latest one is taken (72269147: party type 45)', async () => {
    const record = onlyRecord(await readUspto('tmterminal_daily-ib-72269147.xml'));
    assert.equal(record.markText, 'MADISON SQUARE GARDEN');
    assert.equal(record.ownerName, 'MSG ENTERTAINMENT HOLDINGS, LLC');
    assert.equal((record.rawPayload.owners as unknown[]).length, 7);
  });

  test('a nationality state is a US state, never a country (72269147: state DE → US, not Germany)', async () => {
    const record = onlyRecord(await readUspto('tmterminal_daily-ib-72269147.xml'));
    assert.equal(record.ownerCountryCode, 'US');
  });

  test('the US filing date is the header one, not the foreign application one (74800000)', async () => {
    const record = onlyRecord(
      await readUspto('tmterminal_annual-2025-malformed-class-date-tx-74800000.xml'),
    );
    assert.equal(record.markText, 'GRIGIOPERLA');
    assert.equal(record.filedAt, '1987-02-10T00:00:00.000Z');
    assert.equal(record.registeredAt, null);
    assert.equal(record.ownerName, 'GRUPPO LA PERLA S.P.A.');
    assert.equal(record.ownerCountryCode, 'IT');
    assert.equal(record.status, 'abandoned');
    assert.deepEqual(record.classes, [25]);
  });

  test('79366581 before/after publication: class 25 leaves, status goes opposed → published', async () => {
    const before = onlyRecord(await readUspto('tmterminal_publication-before-79366581.xml'));
    const after = onlyRecord(await readUspto('tmterminal_publication-after-79366581.xml'));
    assert.deepEqual(
      [before.classes, before.status, after.classes, after.status],
      [[3, 18, 25, 32, 35], 'opposed', [3, 18, 32, 35], 'published'],
    );
    assert.equal(before.externalId, 'US500000079366581');
    assert.equal(after.externalId, before.externalId);
  });

  test('the Official Gazette date becomes publishedAt (published-for-opposition-date)', async () => {
    const record = onlyRecord(await readUspto('tmterminal_publication-after-79366581.xml'));
    assert.equal(record.publishedAt, '2024-02-20T00:00:00.000Z');
  });

  test('a Madrid §66(a) case keeps its IR number and the owner nationality (GE, address TR)', async () => {
    const record = onlyRecord(await readUspto('tmterminal_publication-after-79366581.xml'));
    assert.equal(record.markText, 'NITRO GLISSERIN');
    assert.equal(record.ownerName, 'GIORGI TVILDIANI');
    assert.equal(record.ownerCountryCode, 'GE');
    assert.equal(record.rawPayload.internationalRegistrationNumber, '1722108');
  });

  test('98186103 revival: abandoned with classes 25, 41, 42 → pending with 41, 42', async () => {
    const before = onlyRecord(await readUspto('tmterminal_revival-before-98186103.xml'));
    const after = onlyRecord(await readUspto('tmterminal_revival-after-98186103.xml'));
    assert.deepEqual(
      [before.status, before.classes, after.status, after.classes],
      ['abandoned', [25, 41, 42], 'pending', [41, 42]],
    );
  });

  test('75932504 goods replacement: same normalized record, newer transaction date', async () => {
    const before = onlyRecord(await readUspto('tmterminal_goods-before-replacement-75932504.xml'));
    const after = onlyRecord(await readUspto('tmterminal_goods-after-replacement-75932504.xml'));
    const { goods: goodsBefore, ...restBefore } = fields(before);
    const { goods: goodsAfter, ...restAfter } = fields(after);
    assert.deepEqual(restAfter, restBefore);
    // The replacement is in the goods texts, kept as the USPTO marks them up ([…] deleted,
    // ((…)) less goods, *…* added).
    assert.deepEqual(
      goodsBefore.map((g) => [g.niceClass, g.text.slice(0, 60)]),
      [
        [41, 'ENTERTAINMENT SERVICES, NAMELY PROVIDING ONLINE INTERACTIVE '],
        [9, '[ VIDEO CASSETTES AND DVDS CONTAINING DRAMATIC ADVENTURE PRO'],
      ],
    );
    assert.match(
      goodsAfter[1]?.text ?? '',
      /\(\( ELECTRONIC GAME \[ CARTRIDGES, \] \* DISCS FOR USE/,
    );
    assert.equal(before.markText, 'Q*BERT');
    assert.deepEqual(before.classes, [9, 41]);
    assert.deepEqual(
      [before.rawPayload.transactionDate, after.rawPayload.transactionDate],
      ['2024-09-14', '2024-09-25'],
    );
  });

  test('registered and cancelled marks get their words (98423838, 85017257)', async () => {
    const registered = onlyRecord(await readUspto('tmterminal_registration-evidence-98423838.xml'));
    const cancelled = onlyRecord(await readUspto('tmterminal_cancellation-evidence-85017257.xml'));
    assert.deepEqual(
      [registered.markText, registered.status, registered.registeredAt, registered.classes],
      ['THE ELLINGTON AT OVIEDO PARK', 'registered', '2024-07-30T00:00:00.000Z', [36]],
    );
    assert.deepEqual(
      [cancelled.markText, cancelled.status, cancelled.ownerName, cancelled.classes],
      ['BLONDE SUMMER', 'cancelled', 'Pope, Christopher', [41]],
    );
  });

  for (const [name, serial] of [
    ['tmterminal_annual-status-only-tx-60172053.xml', '60172053'],
    ['tmterminal_annual-2025-status-only-tx-60000001.xml', '60000001'],
    ['tmterminal_annual-2025-post-metadata-to-date-tx-67341029.xml', '67341029'],
    ['tmterminal_annual-2025-sparse-tx-70165419.xml', '70165419'],
    ['tmterminal_daily-ib-sparse-85127660.xml', '85127660'],
  ] as const) {
    test(`a case-file without a word mark is skipped with a reason (${serial})`, async () => {
      const items = await readUspto(name);
      assert.deepEqual(items, [
        {
          file: usptoFixture(name),
          line: 1,
          skipped: true,
          reason: `serial ${serial}: no mark-identification (no word element)`,
        },
      ]);
    });
  }

  test('the 3-record daily wrapper gives 2 records and 1 skip, with lines and action keys', async () => {
    const items = await readUspto('DERIVED_apc_wrapper_3records.xml');
    assert.deepEqual(
      items.map((item) =>
        'record' in item
          ? [item.line, item.record.markText, item.record.rawPayload.actionKey]
          : [item.line, 'skipped' in item ? 'skipped' : 'error'],
      ),
      [
        [10, 'MACHINE-PISTOL', 'TX'],
        [122, 'skipped'],
        [184, 'SUVENEER', 'NA'],
      ],
    );
  });

  test('every real case-file fixture reads without a single error', async () => {
    const names = readdirSync(USPTO_DIR).filter(
      (name) => name.endsWith('.xml') && !name.includes('prolog'),
    );
    assert.equal(names.length, 19);
    const items = (await Promise.all(names.map(readUspto))).flat();
    assert.deepEqual(
      items.filter((item) => 'error' in item),
      [],
    );
    // 13 single case-files with a word mark, plus 2 in the wrapper; the other 6 are skips.
    assert.deepEqual([records(items).length, items.length], [15, 21]);
  });

  test('the output does not depend on where the stream cuts the text (5-byte chunks)', async () => {
    for (const name of ['DERIVED_apc_wrapper_3records.xml', 'tmterminal_daily-ib-72269147.xml']) {
      const text = readFixtureText(usptoFixture(name));
      assert.deepEqual(await xmlFromText(text, 5), await xmlFromText(text));
    }
  });

  test('multi-byte characters cut between chunks come out whole', async () => {
    const xml = makeCaseFile({ mark: 'GRÜNFELD ÇAY 茶' });
    const items = await xmlFromText(xml, 1);
    assert.equal(onlyRecord(items).markText, 'GRÜNFELD ÇAY 茶');
  });

  test('the real prolog with its internal DTD subset is read past', async () => {
    const prolog = readFixtureText(usptoFixture('tmterminal_prolog-application-v2-current.xml'));
    const caseFile = readFixtureText(usptoFixture('tmterminal_daily-na-98763166.xml'));
    const items = await xmlFromText(makeDailyFile([caseFile], prolog.trimEnd()));
    assert.equal(onlyRecord(items).externalId, 'US500000098763166');
  });

  test('entities declared in the internal DTD subset are expanded', async () => {
    const prolog = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE trademark-applications-daily [
<!-- <!ENTITY commented "no"> -->
<!ENTITY reg "&#174;">
<!ENTITY brand 'ACME'>
<!ELEMENT trademark-applications-daily ANY>
]>`;
    const xml = makeDailyFile([makeCaseFile({ mark: '&brand; ROCKETS&reg; &amp; CO' })], prolog);
    assert.equal(onlyRecord(await xmlFromText(xml)).markText, 'ACME ROCKETS® & CO');
  });

  test('non-Nice class codes (A, B, 200) are ignored and the others kept', async () => {
    const xml = makeCaseFile({ codes: ['A', '200', '009', 'B', '045', '009'] });
    assert.deepEqual(onlyRecord(await xmlFromText(xml)).classes, [9, 45]);
  });

  test('joint owners of the same party type: the first entry is the owner', async () => {
    const owner = (entry: number, name: string) =>
      `<case-file-owner><entry-number>${entry}</entry-number><party-type>20</party-type>
        <party-name>${name}</party-name><country>FR</country></case-file-owner>`;
    const owners = `${owner(2, 'Second SARL')}${owner(1, 'First SAS')}
      <case-file-owner><entry-number>1</entry-number><party-type>10</party-type>
      <party-name>Applicant SA</party-name></case-file-owner>`;
    const record = onlyRecord(await xmlFromText(makeCaseFile({ owners })));
    assert.deepEqual([record.ownerName, record.ownerCountryCode], ['First SAS', 'FR']);
  });

  test('an owner with no country or state has no country, not the placeholder XX', async () => {
    const owners =
      '<case-file-owner><party-type>10</party-type><party-name>Nowhere Ltd</party-name></case-file-owner>';
    const record = onlyRecord(await xmlFromText(makeCaseFile({ owners })));
    assert.deepEqual([record.ownerName, record.ownerCountryCode], ['Nowhere Ltd', null]);
  });

  test('a case-file without an owner is imported with no owner and no country', async () => {
    const record = onlyRecord(await xmlFromText(makeCaseFile({ owners: '' })));
    assert.deepEqual(
      [record.markText, record.ownerName, record.ownerCountryCode],
      ['ACME ROCKETS', null, null],
    );
  });

  test('a case-file without a Nice class has no classes, none computed', async () => {
    const record = onlyRecord(await xmlFromText(makeCaseFile({ codes: [] })));
    assert.deepEqual(record.classes, []);
  });

  test('a case-file without a status code has no status, not the table\'s 000 "unknown"', async () => {
    const record = onlyRecord(await xmlFromText(makeCaseFile({ statusCode: '' })));
    assert.equal(record.status, null);
  });

  test('ST.13 of a US serial is US + 50 + 0000 + the serial on 9 digits', () => {
    assert.equal(usptoSt13('98763166'), 'US500000098763166');
    assert.equal(usptoSt13('72024748'), 'US500000072024748');
  });
});

describe('USPTO status codes map to status words', () => {
  const cases: Array<[string, string]> = [
    ['630', 'filed'],
    ['638', 'filed'],
    ['641', 'pending'],
    ['616', 'pending'],
    ['686', 'published'],
    ['688', 'published'],
    ['819', 'published'],
    ['774', 'opposed'],
    ['700', 'registered'],
    ['800', 'registered'],
    ['717', 'registered'],
    ['602', 'abandoned'],
    ['632', 'abandoned'],
    ['626', 'cancelled'],
    ['710', 'cancelled'],
    ['900', 'expired'],
    ['715', 'pending'],
    ['000', 'pending'],
  ];
  for (const [code, word] of cases) {
    test(`status ${code} is ${word}`, () => {
      assert.equal(usptoStatus(code).word, word);
    });
  }

  test('a code missing from the table gives no status word rather than a guess', () => {
    assert.deepEqual(usptoStatus('999'), {
      word: null,
      description: null,
      liveDead: null,
      live: null,
    });
  });
});

describe('JSON Lines: the sample file', () => {
  const path = recordsFixture('sample.jsonl');

  test('all 12 lines are records, numbered from 1', async () => {
    const items = await collect(readJsonLines(createReadStream(path), path));
    assert.deepEqual(
      items.map((item) => ['record' in item, item.line]),
      Array.from({ length: 12 }, (_, i) => [true, i + 1]),
    );
  });

  test('WO designations are upper-cased, deduplicated and sorted; other offices have none', async () => {
    const all = records(await collect(readJsonLines(createReadStream(path), path)));
    const wo = all.filter((r) => r.jurisdiction === 'WO');
    assert.deepEqual(
      wo.map((r) => r.designations),
      [
        ['CN', 'EM', 'JP', 'US'],
        ['EM', 'GB', 'NO'],
        ['DE', 'FR', 'KR'],
      ],
    );
    assert.ok(all.filter((r) => r.jurisdiction !== 'WO').every((r) => r.designations.length === 0));
    assert.deepEqual([...new Set(all.map((r) => r.jurisdiction))].sort(), ['BX', 'EM', 'US', 'WO']);
  });

  test('classes are sorted and deduplicated, a date-time becomes UTC, absent fields null', async () => {
    const all = records(await collect(readJsonLines(createReadStream(path), path)));
    const quill = all.find((r) => r.markText === 'QUILLSTONE');
    assert.ok(quill);
    assert.deepEqual(fields(quill), {
      externalId: 'US500000098555001',
      markText: 'QUILLSTONE',
      ownerName: 'Quillstone Software Corp.',
      ownerCountryCode: 'CA',
      jurisdiction: 'US',
      designations: [],
      filedAt: '2024-06-01T18:30:00.000Z',
      registeredAt: null,
      expiresAt: null,
      publishedAt: null,
      status: 'filed',
      live: true,
      classes: [9, 42],
      logoUrl: 'https://example.org/marks/quillstone.png',
      goods: [],
    });
  });

  test('goods: the optional texts per class are read, and an old line without them has none', () => {
    const base = {
      externalId: 'EM500000018000001',
      markText: 'ACME',
      jurisdiction: 'EM',
      filedAt: '2026-01-05',
      status: null,
      classes: [9, 42],
    };
    const given = parseRegisterRecord({
      ...base,
      goods: [
        { class: 9, text: 'Computer software', language: 'en' },
        { class: 42, text: ' Hébergement de logiciels ', language: 'FR' },
        { class: 42, text: 'Software as a service' },
      ],
    });
    assert.ok(given.ok);
    assert.deepEqual(given.record.goods, [
      { niceClass: 9, text: 'Computer software', language: 'en' },
      { niceClass: 42, text: 'Hébergement de logiciels', language: 'fr' },
      { niceClass: 42, text: 'Software as a service', language: null },
    ]);
    for (const old of [base, { ...base, goods: null }, { ...base, goods: [] }]) {
      const result = parseRegisterRecord(old);
      assert.ok(result.ok);
      assert.deepEqual(result.record.goods, []);
    }
    const bad = (goods: unknown) => {
      const result = parseRegisterRecord({ ...base, goods });
      return result.ok ? 'accepted' : result.error;
    };
    assert.equal(
      bad({ class: 9 }),
      'goods: must be an array of goods texts ({ "class", "text", "language" })',
    );
    assert.equal(bad([{ class: 46, text: 'x' }]), 'goods.0.class: must be an integer 1..45');
    assert.equal(bad([{ class: 9, text: '' }]), 'goods.0.text: must not be empty');
    assert.equal(
      bad([{ class: 9, text: 'a\nb' }]),
      'goods.0.text: must be one line of text without control characters',
    );
    assert.equal(
      bad([{ class: 9, text: 'x', language: 'english' }]),
      'goods.0.language: must be a two- or three-letter ISO 639 language code',
    );
  });

  test('publishedAt, the publication for opposition, is read when given and refused when not a date', () => {
    const base = {
      externalId: 'EM500000018000001',
      markText: 'ACME',
      ownerName: 'Acme GmbH',
      ownerCountryCode: 'DE',
      jurisdiction: 'EM',
      filedAt: '2026-01-05',
      status: 'published',
      classes: [9],
    };
    const given = parseRegisterRecord({ ...base, publishedAt: '2026-03-02' });
    assert.ok(given.ok);
    assert.equal(given.record.publishedAt, '2026-03-02T00:00:00.000Z');
    const absent = parseRegisterRecord(base);
    assert.ok(absent.ok);
    assert.equal(absent.record.publishedAt, null);
    assert.deepEqual(parseRegisterRecord({ ...base, publishedAt: '2026-02-30' }), {
      ok: false,
      error: 'publishedAt: must be an ISO 8601 date (YYYY-MM-DD) or date-time',
    });
  });

  test('the raw payload is the line as written, unknown keys included', async () => {
    const lines = readFixtureText(path).trim().split('\n');
    const all = records(await collect(readJsonLines(createReadStream(path), path)));
    assert.deepEqual(
      all.map((r) => r.rawPayload),
      lines.map((line) => JSON.parse(line)),
    );
  });

  test('a BOM, CRLF line ends, blank lines and a last line without newline are accepted', async () => {
    const [a, b] = readFixtureText(path).split('\n');
    const text = `\uFEFF${a}\r\n\r\n   \r\n${b}`;
    const items = await collect(readJsonLines(chunked(text, 7), 'crlf.jsonl'));
    assert.deepEqual(
      items.map((item) => ['record' in item, item.line, item.file]),
      [
        [true, 1, 'crlf.jsonl'],
        [true, 4, 'crlf.jsonl'],
      ],
    );
  });
});

describe('record schema', () => {
  test('ISO dates and date-times normalize to UTC instants with milliseconds', () => {
    assert.deepEqual(
      [
        '2024-09-24',
        '2024-09-24T10:00+02:00',
        '2024-09-24T10:00:00.123456Z',
        '2024-09-24 07:05',
      ].map(toIsoInstant),
      [
        '2024-09-24T00:00:00.000Z',
        '2024-09-24T08:00:00.000Z',
        '2024-09-24T10:00:00.123Z',
        '2024-09-24T07:05:00.000Z',
      ],
    );
  });

  test('a plain date reads the same calendar as a date-time at midnight (leap years, month ends)', () => {
    // Plain dates take a fast path without Date objects; the date-time form takes the general one.
    for (const year of ['0099', '0100', '1900', '1996', '2000', '2023', '2024', '2100', '9999']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          assert.equal(toIsoInstant(date), toIsoInstant(`${date}T00:00`), date);
        }
      }
    }
    assert.equal(toIsoInstant('2024-02-29'), '2024-02-29T00:00:00.000Z');
    assert.equal(toIsoInstant('2023-02-29'), null);
  });

  test('codes are accepted in any case and stored upper-case', () => {
    const result = parseRegisterRecord({
      externalId: 'WO500000001701234',
      markText: 'SOLENNE',
      ownerName: 'Solenne SA',
      ownerCountryCode: 'ch',
      jurisdiction: 'wo',
      designations: ['em', 'us', 'EM'],
      filedAt: '2022-12-27',
      status: 'registered',
      classes: [14],
    });
    assert.ok(result.ok);
    assert.deepEqual(
      [result.record.ownerCountryCode, result.record.jurisdiction, result.record.designations],
      ['CH', 'WO', ['EM', 'US']],
    );
  });
});

describe('reading a file whatever its format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'register-happy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('detectFormat sniffs past a BOM and whitespace', () => {
    const cases: Array<[string, string | null]> = [
      ['{"a":1}', 'jsonl'],
      ['\uFEFF\r\n  {"a":1}', 'jsonl'],
      ['<?xml version="1.0"?>', 'uspto-xml'],
      ['\n\t<case-file>', 'uspto-xml'],
      ['[{"a":1}]', null],
      ['   ', null],
      ['', null],
    ];
    for (const [text, format] of cases) {
      assert.equal(detectFormat(Buffer.from(text)), format, JSON.stringify(text));
    }
  });

  test('a gzip-compressed XML file gives the same items as the plain one', async () => {
    const name = 'DERIVED_apc_wrapper_3records.xml';
    const gz = join(dir, `${name}.gz`);
    writeFileSync(gz, gzipSync(readFileSync(usptoFixture(name))));
    const strip = (items: RecordItem[]) => items.map(({ file: _file, ...rest }) => rest);
    assert.deepEqual(strip(await collect(readRecordFile(gz))), strip(await readUspto(name)));
  });

  test('a gzip-compressed JSON Lines file is recognized by its magic bytes, not its name', async () => {
    const path = join(dir, 'sample.data');
    writeFileSync(path, gzipSync(readFileSync(recordsFixture('sample.jsonl'))));
    assert.equal(records(await collect(readRecordFile(path))).length, 12);
  });

  test('the progress callback reports bytes read up to the file size', async () => {
    const path = recordsFixture('sample.jsonl');
    const seen: Array<[number, number]> = [];
    await collect(
      readRecordFile(path, { onProgress: (p) => seen.push([p.bytesRead, p.totalBytes]) }),
    );
    const size = readFileSync(path).length;
    assert.ok(seen.length >= 1);
    assert.deepEqual(seen.at(-1), [size, size]);
  });

  test('an empty file yields nothing', async () => {
    const path = join(dir, 'empty.jsonl');
    writeFileSync(path, '\n  \n');
    assert.deepEqual(await collect(readRecordFile(path)), []);
  });
});

describe('record schema: what the source does not give stays absent', () => {
  const base = {
    externalId: 'EM500000018127518',
    markText: 'YAYBYC',
    jurisdiction: 'EM',
    filedAt: '2019-09-23',
    status: 'filed',
    classes: [],
  };

  test('a line without an owner has a null owner and country', () => {
    const result = parseRegisterRecord(base);
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.deepEqual([result.record.ownerName, result.record.ownerCountryCode], [null, null]);
  });

  test('the ST.3 code XX ("unknown") is stored as no country, not as a country', () => {
    const result = parseRegisterRecord({ ...base, ownerName: 'Someone', ownerCountryCode: 'xx' });
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.deepEqual([result.record.ownerName, result.record.ownerCountryCode], ['Someone', null]);
  });

  test('a null status is kept null; a missing one is still an error (the record format: required)', () => {
    const nullStatus = parseRegisterRecord({ ...base, status: null });
    assert.ok(nullStatus.ok, nullStatus.ok ? '' : nullStatus.error);
    assert.equal(nullStatus.record.status, null);
    const { status: _omitted, ...withoutStatus } = base;
    assert.deepEqual(parseRegisterRecord(withoutStatus), { ok: false, error: 'status: required' });
  });

  test('an empty class list stays empty', () => {
    const result = parseRegisterRecord(base);
    assert.ok(result.ok);
    assert.deepEqual(result.record.classes, []);
  });
});

describe('the bundled sample of real marks', () => {
  test('every line is a valid record: the 21 real USPTO case-files of the fixtures', async () => {
    const items = await collect(readRecordFile(SAMPLE_MARKS_PATH));
    assert.deepEqual(
      items.filter((item) => !('record' in item)),
      [],
    );
    const all = records(items);
    assert.equal(all.length, 21);
    assert.equal(new Set(all.map((r) => r.externalId)).size, all.length);
    assert.ok(all.every((r) => r.jurisdiction === 'US' && /^US500000\d{9}$/.test(r.externalId)));
  });

  test('nothing in it is invented: each record is what the USPTO reader gives for its case-file', async () => {
    const all = records(await collect(readRecordFile(SAMPLE_MARKS_PATH)));
    for (const r of all) {
      const provenance = r.rawPayload.provenance as Record<string, unknown>;
      assert.equal(provenance.source, USPTO_XML_SOURCE);
      assert.equal(r.externalId, usptoSt13(String(provenance.serialNumber)));
      assert.deepEqual(r.classes, provenance.classes);
      assert.equal(r.status, usptoStatus(String(provenance.statusCode)).word);
      const owners = provenance.owners as { name: string }[];
      assert.ok(
        owners.some((o) => o.name === r.ownerName),
        `${r.externalId} owner`,
      );
      assert.notEqual(r.ownerCountryCode, 'XX');
    }
  });
});
