import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectXmlFormat } from '../../src/register/detect.ts';
import { readRecordFile } from '../../src/register/read-records.ts';
import { readWipoXml } from '../../src/register/wipo-xml.ts';
import { chunked, collect, onlyRecord } from '../helpers/register-fixtures.ts';

const WIPO_DIR = fileURLToPath(new URL('../fixtures/wipo/', import.meta.url));
const ST66 = `${WIPO_DIR}plumage_tsdr_sn76044902.xml`;
const ST96 = `${WIPO_DIR}plumage_tsdr_rn2178784-ST-962.2.1.xml`;
const ST96_DRAFT = `${WIPO_DIR}plumage_tsdr_rn2178784-ST-961_D3.xml`;
// DERIVED: EUIPO's bulk-file shape around two real EUTMs (PROVENANCE.md says what is derived).
const EUIPO = `${WIPO_DIR}DERIVED_euipo_eutm-download_2marks.xml`;

const text = (path: string) => readFileSync(path, 'utf8');

describe('WIPO ST.96 and ST.66 documents', () => {
  it('are told apart by their content, not their names', () => {
    assert.equal(detectXmlFormat(text(ST66)), 'wipo-st66');
    assert.equal(detectXmlFormat(text(ST96)), 'wipo-st96');
    assert.equal(detectXmlFormat(text(ST96_DRAFT)), 'wipo-st96');
    const usptoDaily = readFileSync(
      fileURLToPath(new URL('../fixtures/uspto/DERIVED_apc_wrapper_3records.xml', import.meta.url)),
      'utf8',
    );
    assert.equal(detectXmlFormat(usptoDaily), 'uspto-xml');
    assert.equal(detectXmlFormat('<?xml version="1.0"?>\n<!-- a comment'), undefined);
    // The USPTO's own prolog: an internal DTD of 14.7 KB before the root element.
    const prolog = readFileSync(
      fileURLToPath(
        new URL('../fixtures/uspto/tmterminal_prolog-application-v2-current.xml', import.meta.url),
      ),
      'utf8',
    );
    assert.equal(detectXmlFormat(prolog), undefined, 'no root yet: read on');
    assert.equal(detectXmlFormat(`${prolog}<trademark-applications-daily>`), 'uspto-xml');
  });

  it('an ST.66 TSDR document (PYTHON) maps text, classes, owner, office, dates and status', async () => {
    const record = onlyRecord(await collect(readRecordFile(ST66)));
    assert.deepEqual(
      { ...record, rawPayload: undefined },
      {
        externalId: 'US500000076044902',
        markText: 'PYTHON',
        ownerName: 'PYTHON SOFTWARE FOUNDATION',
        ownerCountryCode: 'US',
        jurisdiction: 'US',
        designations: [],
        filedAt: '2000-05-09T00:00:00.000Z',
        registeredAt: '2004-03-23T00:00:00.000Z',
        expiresAt: null,
        publishedAt: '2003-12-30T00:00:00.000Z',
        status: 'registered',
        live: true,
        classes: [9, 42],
        logoUrl: null,
        // TSDR gives no language: the USPTO takes identifications in English only.
        goods: [
          {
            niceClass: 9,
            text: 'Computer programs and downloadable computer programs that implement an object-oriented computer programming language',
            language: 'en',
          },
          {
            niceClass: 42,
            text: 'Providing information relating to an object-oriented computer programming language and its development environment',
            language: 'en',
          },
        ],
        rawPayload: undefined,
      },
    );
    assert.equal(record.rawPayload.source, 'wipo-st66');
    assert.equal(record.rawPayload.registrationNumber, '2824281');
    assert.deepEqual(record.rawPayload.publicationDates, ['2003-12-30']);
  });

  it('an ST.96 TSDR document (JAVA) takes the latest of its four owners', async () => {
    const record = onlyRecord(await collect(readRecordFile(ST96)));
    assert.equal(record.externalId, 'US500000074631225');
    assert.equal(record.markText, 'JAVA');
    assert.equal(record.ownerName, 'Oracle America, Inc.');
    assert.equal(record.ownerCountryCode, 'US');
    assert.deepEqual(record.classes, [9]);
    assert.equal(record.filedAt, '1995-02-07T00:00:00.000Z');
    assert.equal(record.registeredAt, '1998-08-04T00:00:00.000Z');
    assert.equal(record.status, 'registered');
    assert.equal(record.publishedAt, '1996-10-08T00:00:00.000Z');
    assert.equal(record.rawPayload.source, 'wipo-st96');
    assert.deepEqual(record.rawPayload.publicationDates, ['1996-10-08']);
  });

  it('the ST.96 1.0 draft reads the same as ST.96 2.2.1', async () => {
    const draft = onlyRecord(await collect(readRecordFile(ST96_DRAFT)));
    const current = onlyRecord(await collect(readRecordFile(ST96)));
    assert.deepEqual(draft, current);
  });

  it('reads the same whatever the chunks the stream is cut into', async () => {
    const whole = await collect(readWipoXml(chunked(text(ST66), 1 << 20), 'st66', 'f'));
    const cut = await collect(readWipoXml(chunked(text(ST66), 7), 'st66', 'f'));
    assert.deepEqual(cut, whole);
  });

  it('a document cut short is an error, not a record', async () => {
    const source = text(ST96);
    const half = source.slice(0, source.indexOf('</ns2:GoodsServicesBag>'));
    const items = await collect(readWipoXml(chunked(half, 4096), 'st96', 'cut.xml'));
    assert.equal(items.length, 1);
    assert.match(
      (items[0] as { error: string }).error,
      /the file ends inside this <Trademark>: truncated\?/,
    );
  });

  it('a mark without a word element is skipped (figurative), not imported with an invented text', async () => {
    const source = text(ST96).replace(
      /<ns2:MarkVerbalElementText>JAVA<\/ns2:MarkVerbalElementText>/,
      '',
    );
    const items = await collect(readWipoXml(chunked(source, 4096), 'st96', 'f.xml'));
    assert.deepEqual(
      items.map((item) => ('skipped' in item ? item.reason : item)),
      ['US 74631225: no MarkVerbalElementText (figurative mark)'],
    );
  });

  it('a mark without applicants, classes or status is imported with them absent, none invented', async () => {
    const source = text(ST96)
      .replace(/<ns2:ApplicantBag>[\s\S]*?<\/ns2:ApplicantBag>/, '')
      .replaceAll(/<ns2:ClassNumber>\d+<\/ns2:ClassNumber>/g, '')
      .replace(/<ns2:MarkCurrentStatusCode>\d+<\/ns2:MarkCurrentStatusCode>/, '');
    const record = onlyRecord(await collect(readWipoXml(chunked(source, 4096), 'st96', 'f.xml')));
    assert.equal(record.markText, 'JAVA');
    assert.deepEqual(
      [record.ownerName, record.ownerCountryCode, record.classes, record.status],
      [null, null, [], null],
    );
  });

  it('a USPTO status code is read with the USPTO table, in ST.66 and ST.96 alike', async () => {
    // The real TSDR documents: PYTHON 702 (registered, §8 accepted), JAVA 800 (renewed).
    assert.equal(onlyRecord(await collect(readRecordFile(ST66))).rawPayload.statusCode, '702');
    assert.equal(onlyRecord(await collect(readRecordFile(ST66))).status, 'registered');
    assert.equal(onlyRecord(await collect(readRecordFile(ST96))).rawPayload.statusCode, '800');
    assert.equal(onlyRecord(await collect(readRecordFile(ST96))).status, 'registered');
    // A code the USPTO table does not hold says nothing: null, the code kept.
    const unknown = text(ST96).replace(
      '<ns2:MarkCurrentStatusCode>800</ns2:MarkCurrentStatusCode>',
      '<ns2:MarkCurrentStatusCode>999</ns2:MarkCurrentStatusCode>',
    );
    const record = onlyRecord(await collect(readWipoXml(chunked(unknown, 4096), 'st96', 'f.xml')));
    assert.deepEqual([record.status, record.rawPayload.statusCode], [null, '999']);
  });

  it('an ST.66 status text gets a word only when the text says it without doubt; any other text is null', async () => {
    // DERIVED documents, made here in memory from the real TSDR ST.66 PYTHON document: its office
    // becomes EUIPO (EM) and its numeric status one of the texts below. Nothing derived is stored.
    const asEuipo = (status: string) =>
      text(ST66)
        .replace(
          '<RegistrationOfficeCode>US</RegistrationOfficeCode>',
          '<RegistrationOfficeCode>EM</RegistrationOfficeCode>',
        )
        .replace(
          '<ApplicationNumber>76044902</ApplicationNumber>',
          '<ApplicationNumber>018123456</ApplicationNumber>',
        )
        .replace(
          '<MarkCurrentStatusCode>702</MarkCurrentStatusCode>',
          `<MarkCurrentStatusCode>${status}</MarkCurrentStatusCode>`,
        );
    const cases: [string, string | null][] = [
      // ST.66's enumeration and EUIPO's own texts.
      ['Application filed', 'filed'],
      ['Filing date accorded', 'filed'],
      ['Application under examination', 'pending'],
      ['Registration pending', 'pending'], // awaiting registration: not registered yet
      ['Application published', 'published'],
      ['Application opposed', 'opposed'],
      ['Opposition pending', 'opposed'],
      ['Registered', 'registered'],
      ['Registration cancellation pending', 'registered'], // the registration stands until then
      ['Revocation proceeding pending', 'registered'],
      ['Registration cancelled', 'cancelled'],
      ['Registration surrendered', 'cancelled'],
      ['Application refused', 'abandoned'],
      ['Application withdrawn', 'abandoned'],
      ['Registration expired', 'expired'],
      ['Expired', 'expired'],
      ['  REGISTERED ', 'registered'],
      // Texts that could concern an application or a registration: no word.
      ['Appeal pending', null],
      ['Interruption of proceeding', null],
      ['Conversion requested', null],
      ['Action before Court of Justice pending', null],
      // Not ST.66 texts: an office's own vocabulary, or words that merely look alike.
      ['Cancellation pending', null],
      ['Under Examination', null],
      ['Renewal due', null],
      ['Marque enregistrée', null],
      ['42', null],
    ];
    for (const [status, word] of cases) {
      const items = await collect(readWipoXml(chunked(asEuipo(status), 4096), 'st66', 'f.xml'));
      const record = onlyRecord(items);
      assert.equal(record.externalId, 'EM500000018123456');
      assert.equal(record.status, word, status);
      assert.equal(record.rawPayload.statusCode, status.trim(), `${status}: the text is kept`);
    }
  });

  it('a date that is not a date is an error naming the element', async () => {
    const source = text(ST66).replace('2000-05-09-04:00', '2000-13-09');
    const items = await collect(readWipoXml(chunked(source, 4096), 'st66', 'f.xml'));
    assert.deepEqual(
      items.map((item) => ('error' in item ? item.error : item)),
      ['ApplicationDate: "2000-13-09" is not a date'],
    );
  });
});

describe("EUIPO bulk files in the older vocabulary (EUIPO's EUTM_Download namespace)", () => {
  it('are detected as EUIPO bulk XML by their namespace, whatever the root element', () => {
    assert.equal(detectXmlFormat(text(EUIPO)), 'euipo-xml');
    const ns = 'xmlns:em="http://www.euipo.europa.eu/EUTM/EUTM_Download"';
    assert.equal(detectXmlFormat(`<em:Transaction ${ns}>`), 'euipo-xml');
    assert.equal(detectXmlFormat(`<?xml version="1.0"?><em:Marks ${ns}>`), 'euipo-xml');
  });

  it('read each mark with only what the file gives: no owner, class or status is made up', async () => {
    const items = await collect(readRecordFile(EUIPO));
    assert.equal(items.length, 2);
    const records = items.map((item) => {
      assert.ok('record' in item, JSON.stringify(item));
      return item.record;
    });
    assert.deepEqual(
      records.map((r) => [r.externalId, r.markText, r.filedAt, r.jurisdiction]),
      [
        ['EM500000000003088', 'BROMPTON', '1996-04-01T00:00:00.000Z', 'EM'],
        ['EM500000000007849', 'ABACUS', '1996-04-01T00:00:00.000Z', 'EM'],
      ],
    );
    for (const r of records) {
      assert.deepEqual(
        [r.ownerName, r.ownerCountryCode, r.status, r.classes, r.registeredAt, r.expiresAt],
        [null, null, null, [], null, null],
      );
      assert.equal(r.rawPayload.source, 'euipo-bulk-xml');
    }
  });

  it('a mark naming its applicant by key keeps the key and a null owner; a deleted mark is a deletion', async () => {
    // DERIVED in memory from the fixture: the applicant key and the Delete are shapes EUIPO's files
    // are documented to have; the key value is a test value, not an EUIPO identifier.
    const source = text(EUIPO)
      .replace(
        '</WordMarkSpecification>',
        '</WordMarkSpecification><ApplicantDetails><ApplicantKey><Identifier>test-key-1</Identifier></ApplicantKey></ApplicantDetails>',
      )
      .replace(
        /<TradeMark>(\s*<RegistrationOfficeCode>EM<\/RegistrationOfficeCode>\s*<ApplicationNumber>000007849)/,
        '<TradeMark operationCode="Delete">$1',
      );
    const items = await collect(readWipoXml(chunked(source, 4096), 'st66', 'f.xml'));
    assert.equal(items.length, 2);
    const [first, second] = items;
    assert.ok(first && 'record' in first);
    assert.deepEqual(first.record.rawPayload.applicantKeys, ['test-key-1']);
    assert.equal(first.record.ownerKey, 'test-key-1');
    assert.equal(first.record.ownerName, null);
    assert.deepEqual(second, {
      file: 'f.xml',
      line: (second as { line: number }).line,
      deleted: { externalId: 'EM500000000007849' },
    });
  });

  it('applicants beside several marks in one TransactionData are given to none of them', async () => {
    // DERIVED in memory: TSDR places its applicants beside its one mark; here they sit beside two,
    // so whose they are is not said.
    const source = text(EUIPO).replace(
      '</TradeMarkDetails>',
      '</TradeMarkDetails><ApplicantDetails><Applicant><ApplicantAddressBook><FormattedNameAddress><Name><FreeFormatName><FreeFormatNameDetails><FreeFormatNameLine>SOMEONE</FreeFormatNameLine></FreeFormatNameDetails></FreeFormatName></Name></FormattedNameAddress></ApplicantAddressBook></Applicant></ApplicantDetails>',
    );
    const records = (await collect(readWipoXml(chunked(source, 4096), 'st66', 'f.xml'))).map(
      (item) => ('record' in item ? item.record.ownerName : item),
    );
    assert.deepEqual(records, [null, null]);
  });

  it('a mark is handed on while the file is still being read, not held until its TransactionData ends', async () => {
    const marks = Array.from(
      { length: 50 },
      (_, i) =>
        `<TradeMark><RegistrationOfficeCode>EM</RegistrationOfficeCode><ApplicationNumber>${String(i + 1).padStart(9, '0')}</ApplicationNumber><ApplicationDate>1996-04-01</ApplicationDate><WordMarkSpecification><MarkVerbalElementText>MARK ${i}</MarkVerbalElementText></WordMarkSpecification></TradeMark>`,
    ).join('');
    const source = `<Transaction xmlns="http://www.euipo.europa.eu/EUTM/EUTM_Download"><TradeMarkTransactionBody><TransactionContentDetails><TransactionData><TradeMarkDetails>${marks}</TradeMarkDetails></TransactionData></TransactionContentDetails></TradeMarkTransactionBody></Transaction>`;
    let read = 0;
    async function* counted() {
      for await (const chunk of chunked(source, 512)) {
        read += 1;
        yield chunk;
      }
    }
    const total = Math.ceil(source.length / 512);
    let readAtFirst = -1;
    let count = 0;
    for await (const item of readWipoXml(counted(), 'st66', 'big.xml')) {
      if (readAtFirst === -1) readAtFirst = read;
      assert.ok('record' in item);
      count += 1;
    }
    assert.equal(count, 50);
    assert.ok(readAtFirst < total / 2, `first record after ${readAtFirst} of ${total} chunks`);
  });
});
