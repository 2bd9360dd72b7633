// Shared helpers of the register reader tests (not a test file itself).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordItem, RegisterRecord } from '../../src/register/record.ts';
import { readWipoXml } from '../../src/register/wipo-xml.ts';

export const USPTO_DIR = fileURLToPath(new URL('../fixtures/uspto/', import.meta.url));
export const RECORDS_DIR = fileURLToPath(new URL('../fixtures/records/', import.meta.url));

/** The EUIPO's real bulk XML files (test/fixtures/euipo-bulk, provenance there), by application number. */
export const EUIPO_BULK_NUMBERS = ['018173186', '018173409', '018173418', '018173421', '018173424'];
export const euipoBulkFixture = (number: string) =>
  `test/fixtures/euipo-bulk/bekone97_EM-TM-V3-4_${number}.xml`;
/** CIPO's real ST.96 record of a design-only mark (test/fixtures/cipo, provenance there). */
export const CIPO_DESIGN_FIXTURE = 'test/fixtures/cipo/trademark-go_CA-ST96_1057613-00_1.xml';

/**
 * DERIVED in memory: CIPO's real design-mark record given a word element (FANCIFUL), so that it is
 * read rather than skipped; every other field, its advertisement and the office's opposition period
 * among them, is the office's.
 */
export async function cipoDesignAsWord(): Promise<RegisterRecord> {
  const asWord = readFileSync(CIPO_DESIGN_FIXTURE, 'utf8').replace(
    '<tmk:MarkReproduction>',
    '<tmk:MarkReproduction><tmk:WordMarkSpecification><tmk:MarkVerbalElementText>FANCIFUL</tmk:MarkVerbalElementText></tmk:WordMarkSpecification>',
  );
  return onlyRecord(await collect(readWipoXml(chunked(asWord, 4096), 'st96', 'f.xml')));
}

export const usptoFixture = (name: string) => `${USPTO_DIR}${name}`;
export const recordsFixture = (name: string) => `${RECORDS_DIR}${name}`;
export const readFixtureText = (path: string) => readFileSync(path, 'utf8');

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Feeds a text in slices of `size` bytes, so tags, entities and UTF-8 sequences get cut. */
export async function* chunked(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export function records(items: readonly RecordItem[]): RegisterRecord[] {
  return items.flatMap((item) => ('record' in item ? [item.record] : []));
}

/** The only record of a list of items, failing the test on anything else. */
export function onlyRecord(items: readonly RecordItem[]): RegisterRecord {
  const [first, ...rest] = items;
  if (!first || rest.length > 0 || !('record' in first)) {
    throw new Error(`expected exactly one record, got ${JSON.stringify(items)}`);
  }
  return first.record;
}

/** A record without its rawPayload, for exact comparisons of the normalized fields. */
export function fields(record: RegisterRecord): Omit<RegisterRecord, 'rawPayload'> {
  const { rawPayload: _raw, ...rest } = record;
  return rest;
}

type CaseFileParts = {
  serial?: string;
  mark?: string | null;
  filingDate?: string;
  registrationDate?: string;
  statusCode?: string;
  /** YYYYMMDD: the day of this version of the case-file. */
  transactionDate?: string;
  codes?: string[];
  owners?: string;
  extra?: string;
};

/** A minimal `<case-file>` in the shape of the DTD, for cases no real fixture shows. */
export function makeCaseFile(parts: CaseFileParts = {}): string {
  const mark = parts.mark === undefined ? 'ACME ROCKETS' : parts.mark;
  const codes = (parts.codes ?? ['012'])
    .map((code) => `<international-code>${code}</international-code>`)
    .join('');
  const owners =
    parts.owners ??
    `<case-file-owner><entry-number>1</entry-number><party-type>10</party-type>
      <nationality><country>DE</country></nationality><party-name>Acme GmbH</party-name>
    </case-file-owner>`;
  return `<case-file>
  <serial-number>${parts.serial ?? '97000001'}</serial-number>
  <registration-number>0000000</registration-number>
  <transaction-date>${parts.transactionDate ?? '20240925'}</transaction-date>
  <case-file-header>
    <filing-date>${parts.filingDate ?? '20240101'}</filing-date>
    ${parts.registrationDate ? `<registration-date>${parts.registrationDate}</registration-date>` : ''}
    <status-code>${parts.statusCode ?? '630'}</status-code>
    ${mark === null ? '' : `<mark-identification>${mark}</mark-identification>`}
  </case-file-header>
  ${parts.extra ?? ''}
  <classifications><classification>${codes}</classification></classifications>
  <case-file-owners>${owners}</case-file-owners>
</case-file>
`;
}

/** A daily-file wrapper around case-files, as in apc240925.xml; `prolog` replaces the XML declaration. */
export function makeDailyFile(
  caseFiles: readonly string[],
  prolog = '<?xml version="1.0" encoding="utf-8"?>',
): string {
  return `${prolog}
<trademark-applications-daily>
<version><version-no>2.0</version-no><version-date>20041108</version-date></version>
<application-information><file-segments><file-segment>TRMK</file-segment>
<action-keys><action-key>NA</action-key>
${caseFiles.join('')}</action-keys>
</file-segments></application-information>
</trademark-applications-daily>
`;
}

/**
 * An applicant file in EUIPO's namespace. DERIVED: no real applicant file was found; the elements
 * are ST.66's Applicant (the vocabulary of the mark files), the keys those of the real marks, the
 * names and countries test values, not EUIPO's.
 */
export const applicantFile = (body: string, produced = '2020-07-01T10:00:00') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<Transaction xmlns="http://euipo.europa.eu/trademark/data">
<TransactionHeader><SenderDetails><RequestProducerDateTime>${produced}</RequestProducerDateTime></SenderDetails></TransactionHeader>
<TradeMarkTransactionBody><TransactionContentDetails><TransactionData>
${body}
</TransactionData></TransactionContentDetails></TradeMarkTransactionBody>
</Transaction>
`;

export const applicant = (key: string, name: string | null, country: string, op = 'Insert') =>
  `<ApplicantDetails><Applicant operationCode="${op}"><ApplicantIdentifier>${key}</ApplicantIdentifier>
<ApplicantAddressBook><FormattedNameAddress>${name === null ? '' : `<Name><FormattedName><OrganizationName>${name}</OrganizationName></FormattedName></Name>`}
<Address><FormattedAddress><FormattedAddressCountryCode>${country}</FormattedAddressCountryCode></FormattedAddress></Address>
</FormattedNameAddress></ApplicantAddressBook></Applicant></ApplicantDetails>`;
