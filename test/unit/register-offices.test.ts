import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { detectXmlFormat } from '../../src/register/detect.ts';
import { readEuipoXml } from '../../src/register/euipo-xml.ts';
import { RecordFileError, readRecordFile } from '../../src/register/read-records.ts';
import type { RecordItem, RegisterRecord } from '../../src/register/record.ts';
import { readWipoXml } from '../../src/register/wipo-xml.ts';
import {
  applicant,
  applicantFile,
  CIPO_DESIGN_FIXTURE,
  chunked,
  cipoDesignAsWord,
  collect,
  euipoBulkFixture,
  onlyRecord,
} from '../helpers/register-fixtures.ts';

// The EUIPO's and CIPO's real files (test/fixtures/euipo-bulk, test/fixtures/cipo: provenance and
// the offices' notices in their PROVENANCE.md), read field by field.

const EUIPO = euipoBulkFixture;
const CIPO_DESIGN = CIPO_DESIGN_FIXTURE;
const CIPO_WORD = 'test/fixtures/cipo/trademark-go_CA-ST96_1057614-00_2.xml';
const text = (path: string) => readFileSync(path, 'utf8');

/** What the tests compare of a record: every field but the goods texts and the raw payload. */
const facts = (r: RegisterRecord) => [
  r.externalId,
  r.markText,
  r.ownerName,
  r.ownerKey ?? null,
  r.filedAt.slice(0, 10),
  r.registeredAt?.slice(0, 10) ?? null,
  r.expiresAt?.slice(0, 10) ?? null,
  r.publishedAt?.slice(0, 10) ?? null,
  r.status,
  r.classes,
];

const only = async (path: string) => {
  const items = await collect(readRecordFile(path));
  assert.equal(items.length, 1, JSON.stringify(items));
  return items[0] as RecordItem;
};

describe('EUIPO bulk XML (EM-TM-TradeMark-V3-4): the real files', () => {
  it('are detected by their namespace, not the WIPO one nor the root element', () => {
    assert.equal(detectXmlFormat(text(EUIPO('018173186'))), 'euipo-xml');
  });

  it('each file gives its mark with text, dates, status, classes, owner key and office number', async () => {
    const expected: Record<string, unknown[]> = {
      '018173186': [
        'EM500000018173186',
        'Hongtoo',
        null,
        '1057089',
        '2020-01-02',
        '2020-05-22',
        '2030-01-02',
        '2020-01-24',
        'registered',
        [11],
      ],
      '018173409': [
        'EM500000018173409',
        'euroscrubby',
        null,
        null,
        '2020-01-03',
        null,
        null,
        '2020-01-20',
        'opposed',
        [21],
      ],
      '018173418': [
        'EM500000018173418',
        'GOLF AMATEURS OPEN',
        null,
        '833924',
        '2020-01-03',
        null,
        null,
        null,
        'abandoned',
        [41],
      ],
      '018173421': [
        'EM500000018173421',
        'Preflet',
        null,
        '1057491',
        '2020-01-04',
        '2020-05-22',
        '2030-01-04',
        '2020-02-06',
        'registered',
        [9],
      ],
      '018173424': [
        'EM500000018173424',
        'hotukdeals',
        null,
        '1057498',
        '2020-01-04',
        null,
        null,
        null,
        'abandoned',
        [35, 38],
      ],
    };
    for (const [number, fields] of Object.entries(expected)) {
      const item = await only(EUIPO(number));
      assert.ok('record' in item, JSON.stringify(item));
      assert.deepEqual(facts(item.record), fields, number);
      assert.equal(item.record.jurisdiction, 'EM');
      assert.equal(item.record.rawPayload.source, 'euipo-bulk-xml');
      assert.equal(item.record.rawPayload.applicationNumber, number);
    }
  });

  it("keeps EUIPO's status text with its milestone and status codes, and the document's day as as-of", async () => {
    const item = await only(EUIPO('018173409'));
    assert.ok('record' in item);
    const raw = item.record.rawPayload;
    assert.equal(raw.statusCode, 'Application opposed');
    assert.deepEqual(raw.statusAttributes, { milestone: '22', status: '5' });
    assert.equal(raw.statusDate, '2020-04-16');
    // The opposition filed, not the earlier mark it names (whose number and text are not this mark's).
    assert.deepEqual(raw.oppositions, [{ identifier: '003116195', date: '2020-04-16' }]);
    assert.equal(item.record.markText, 'euroscrubby');
    assert.equal(item.asOf, '2020-10-27');
  });

  it('the application publication (A.1) is publishedAt; the registration (B.1) stays in the raw payload', async () => {
    const item = await only(EUIPO('018173186'));
    assert.ok('record' in item);
    assert.equal(item.record.publishedAt, '2020-01-24T00:00:00.000Z');
    assert.deepEqual(item.record.rawPayload.publications, [
      { identifier: '2020/015', section: 'A.1', date: '2020-01-24' },
      { identifier: '2020/107', section: 'B.1', date: '2020-06-09' },
    ]);
    // A file whose only publication is B.1 gives no application publication: none is guessed.
    const onlyB = text(EUIPO('018173186')).replace(
      '<PublicationSection>A.1',
      '<PublicationSection>A.2',
    );
    const record = onlyRecord(await collect(readEuipoXml(chunked(onlyB, 4096), 'f.xml')));
    assert.equal(record.publishedAt, null);
  });

  it('goods: English where given, else the first language with its code; Vienna codes and keys kept', async () => {
    const hongtoo = await only(EUIPO('018173186'));
    assert.ok('record' in hongtoo);
    assert.deepEqual(
      hongtoo.record.goods.map((g) => [g.niceClass, g.language, g.text.slice(0, 40)]),
      [[11, 'en', 'Mixer taps for water pipes; Regulating a']],
    );
    assert.deepEqual(hongtoo.record.rawPayload.viennaCodes, ['27.05.01']);
    assert.deepEqual(hongtoo.record.rawPayload.representativeKeys, ['14987']);
    assert.equal(hongtoo.record.rawPayload.markFeature, 'Figurative');
    // DERIVED in memory: the English texts taken out, the first language given is Bulgarian.
    const noEnglish = text(EUIPO('018173186')).replace(
      /<GoodsServicesDescription languageCode="en">[^<]*<\/GoodsServicesDescription>/,
      '',
    );
    const record = onlyRecord(await collect(readEuipoXml(chunked(noEnglish, 4096), 'f.xml')));
    assert.deepEqual(
      record.goods.map((g) => [g.niceClass, g.language, g.text.slice(0, 14)]),
      [[11, 'bg', 'Смесителни кра']],
    );
    const two = await only(EUIPO('018173424'));
    assert.ok('record' in two);
    assert.deepEqual(
      two.record.goods.map((g) => [g.niceClass, g.language]),
      [
        [35, 'en'],
        [38, 'en'],
      ],
    );
  });

  it('operationCode="Delete" is a deletion of that mark, not a record', async () => {
    const deleted = text(EUIPO('018173421')).replace(
      'operationCode="Insert"',
      'operationCode="Delete"',
    );
    const items = await collect(readEuipoXml(chunked(deleted, 4096), 'f.xml'));
    assert.deepEqual(items, [
      { file: 'f.xml', line: 14, deleted: { externalId: 'EM500000018173421' }, asOf: '2020-06-08' },
    ]);
  });
});

describe('EUIPO applicant and representative files', () => {
  it('give one party per Applicant or Representative, by key; a key without a name has a null name', async () => {
    const doc = applicantFile(
      `${applicant('1057491', 'Test Holder One GmbH', 'DE')}${applicant('833924', null, 'IT')}
<RepresentativeDetails><Representative operationCode="Insert"><RepresentativeIdentifier>14987</RepresentativeIdentifier>
<RepresentativeAddressBook><FormattedNameAddress><Name><FreeFormatName><FreeFormatNameDetails><FreeFormatNameLine>Test Agents</FreeFormatNameLine><FreeFormatNameLine>LLP</FreeFormatNameLine></FreeFormatNameDetails></FreeFormatName></Name></FormattedNameAddress></RepresentativeAddressBook></Representative></RepresentativeDetails>
${applicant('1057089', 'Gone Ltd', 'GB', 'Delete')}`,
    );
    const items = await collect(readEuipoXml(chunked(doc, 512), 'APPLICANTS_test.xml'));
    const parties = items.map((item) => {
      assert.ok('party' in item, JSON.stringify(item));
      assert.equal(item.asOf, '2020-07-01');
      const { office, role, key, name, countryCode, deleted } = item.party;
      return [office, role, key, name, countryCode, deleted];
    });
    assert.deepEqual(parties, [
      ['EM', 'applicant', '1057491', 'Test Holder One GmbH', 'DE', false],
      ['EM', 'applicant', '833924', null, 'IT', false],
      ['EM', 'representative', '14987', 'Test Agents LLP', null, false],
      ['EM', 'applicant', '1057089', 'Gone Ltd', 'GB', true],
    ]);
  });

  it('a name that would break a line is an error of that party, the others are read', async () => {
    const doc = applicantFile(
      `${applicant('1', 'Evil&#x202E;Corp', 'DE')}${applicant('2', 'Fine Ltd', 'DE')}`,
    );
    const items = await collect(readEuipoXml(chunked(doc, 512), 'f.xml'));
    assert.match(
      (items[0] as { error: string }).error,
      /^applicant 1: name must not contain bidirectional/,
    );
    assert.ok('party' in (items[1] as RecordItem));
  });
});

describe('CIPO ST.96 (V3_0 with catmk/cacom): the real files', () => {
  it('the word mark: ST.13 number, status text, goods with their one class, owner, events', async () => {
    const item = await only(CIPO_WORD);
    assert.ok('record' in item, JSON.stringify(item));
    const r = item.record;
    assert.deepEqual(facts(r), [
      'CA-1057614',
      'CERIDIAN',
      'AQUA GLASS CORPORATION,',
      null,
      '2000-05-03',
      null,
      null,
      null,
      'abandoned',
      [17],
    ]);
    assert.equal(r.jurisdiction, 'CA');
    assert.equal(r.ownerCountryCode, 'US');
    assert.deepEqual(r.goods, [
      {
        niceClass: 17,
        text: 'Nonmetallic material for manufacturing bathing fixtures.',
        language: 'en',
      },
    ]);
    const raw = r.rawPayload;
    assert.equal(raw.source, 'cipo-st96');
    assert.equal(raw.applicationNumber, '1057614-00');
    assert.equal(raw.st13ApplicationNumber, '300000105761400');
    assert.equal(raw.statusCode, 'Application withdrawn');
    assert.equal(raw.statusInternal, 'Withdrawn by Owner');
    assert.deepEqual(raw.representative, { name: 'SMART & BIGGAR LLP', country: 'CA' });
    assert.equal((raw.events as unknown[]).length, 6);
    assert.deepEqual((raw.events as unknown[])[5], {
      date: '2001-10-19',
      category: 'Application withdrawn',
      code: '5',
      description: 'Withdrawn by Owner',
    });
    assert.match(
      String(raw.officeDisclaimer),
      /^The Canadian Intellectual Property Office does not warrant/,
    );
    assert.equal(raw.oppositionPeriod, null);
  });

  it('the design-only mark is skipped with the reason, never an error', async () => {
    assert.deepEqual(await only(CIPO_DESIGN), {
      file: CIPO_DESIGN,
      line: 9,
      skipped: true,
      reason: 'CA 1057613-00: design-only mark (Figurative, no word element)',
    });
  });

  it("the design mark's other fields: advertisement, the office's opposition window, Vienna codes, registration", async () => {
    // DERIVED in memory: the real record given a word element, to read what only it holds.
    const r = await cipoDesignAsWord();
    assert.deepEqual(facts(r), [
      'CA-1057613',
      'FANCIFUL',
      'ALEKS CORPORATION,',
      null,
      '2000-05-03',
      '2003-05-06',
      '2033-05-06',
      '2002-03-27',
      'registered',
      [9, 35, 41],
    ]);
    const raw = r.rawPayload;
    assert.deepEqual(raw.oppositionPeriod, { startsAt: '2002-03-27', endsAt: '2002-05-27' });
    assert.equal(raw.advertisedAt, '2002-03-27');
    assert.equal(raw.registrationNumber, 'TMA580662');
    assert.deepEqual(raw.viennaCodes, ['04.05.15', '16.03.13']);
    assert.equal(raw.featureDescription, 'FANCIFUL DOG DESIGN');
    assert.deepEqual(raw.representative, { name: 'MOFFAT & CO.', country: 'CA' });
    assert.equal((raw.events as unknown[]).length, 12);
    // Two texts (Goods1, Services1) for three classes: which class each is of is not said, so none
    // is tied to one; they are kept apart.
    assert.deepEqual(r.goods, []);
    assert.deepEqual(
      (raw.unclassifiedGoods as { text: string }[]).map((g) => g.text.slice(0, 30)),
      ['Computer programs for use in t', 'Performing online interactive '],
    );
  });

  it('an extension application keeps its extension in the key; Delete is a deletion', async () => {
    const extension = text(CIPO_WORD).replace('300000105761400', '300000105761401');
    const record = onlyRecord(
      await collect(readWipoXml(chunked(extension, 4096), 'st96', 'f.xml')),
    );
    assert.equal(record.externalId, 'CA-1057614-01');
    const deleted = text(CIPO_WORD).replace(
      'com:operationCategory="Update"',
      'com:operationCategory="Delete"',
    );
    assert.deepEqual(await collect(readWipoXml(chunked(deleted, 4096), 'st96', 'f.xml')), [
      { file: 'f.xml', line: 9, deleted: { externalId: 'CA-1057614' } },
    ]);
  });
});

describe('a file of no known format', () => {
  it('names the formats this service reads, for XML of another vocabulary and for anything else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'register-offices-'));
    try {
      const cases: [string, string, RegExp][] = [
        [
          'other.xml',
          '<?xml version="1.0"?>\n<Invoice xmlns="urn:example:invoice"><Total>1</Total></Invoice>',
          /^unknown format: XML \(root element <Invoice>\) of none of normalized JSON Lines .*USPTO trademark-applications-daily XML, WIPO ST\.96 \(CIPO bulk files, USPTO TSDR\), WIPO ST\.66 \(USPTO TSDR\) or EUIPO bulk XML/,
        ],
        [
          'notes.txt',
          'hello\n',
          /^unknown format: expected normalized JSON Lines .* or EUIPO bulk XML/,
        ],
      ];
      for (const [name, content, reason] of cases) {
        const path = join(dir, name);
        writeFileSync(path, content);
        await assert.rejects(collect(readRecordFile(path)), (err: unknown) => {
          assert.ok(err instanceof RecordFileError);
          assert.match(err.reason, reason);
          return true;
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
