import { lineTextReason } from '../text.ts';
import type { RecordItem } from './record.ts';
import { collectMarks, type WipoMark, type WipoParty } from './wipo-collect.ts';
import {
  checkMark,
  officeMarkRecord,
  partyCountry,
  partyName,
  rawParty,
  sortedDates,
  st3,
  wipoDate,
} from './wipo-common.ts';
import { readXml } from './xml-driver.ts';

// EUIPO's bulk XML, in both of its vocabularies: the `EM-TM-TradeMark-V3-4` documents of its
// open-data files (namespace `http://euipo.europa.eu/trademark/data`, root `Transaction`, one
// TradeMark per file of an EUTMS / DIFF_EUTMS zip) and the older EUTM_Download documents
// (`http://www.euipo.europa.eu/EUTM/EUTM_Download`, many TradeMarks). Both use ST.66's element
// names, read by local name. Its applicant and representative files (APPLICANTS_*,
// DIFF_APPLICANTS_*, REPS_*, DIFF_REPS_*) hold Applicant and Representative elements outside any
// mark, by the key the marks name them with. docs/register-formats.md, "EUIPO".

/** `rawPayload.source` of the records and parties read from EUIPO's bulk XML. */
export const EUIPO_SOURCE = 'euipo-bulk-xml';

/**
 * The date of the publication opposition runs from: EUIPO Bulletin section A.1, the application's
 * publication (three months, EUTMR Art. 46(1)); B.1 is the registration's. A document that gives
 * publications without sections (the older vocabulary) gives its earliest; one whose sections
 * hold no A.1 gives none.
 */
function applicationPublished(mark: WipoMark): string | null {
  const sectioned = mark.publications.some((p) => p.section !== null);
  const candidates = sectioned
    ? mark.publications.filter((p) => p.section?.trim().toUpperCase() === 'A.1')
    : mark.publications;
  return sortedDates(candidates.map((p) => p.date))[0] ?? null;
}

/** What the record keeps of the office's own words and codes (status, kind, publications…). */
function euipoPayload(mark: WipoMark, number: string, classes: number[]) {
  return {
    source: EUIPO_SOURCE,
    office: 'EM',
    applicationNumber: number,
    registrationNumber: mark.registrationNumber?.trim() || null,
    // The status as EUIPO writes it: its text, and its milestone and status codes.
    statusCode: mark.statusCode?.trim() || null,
    statusAttributes: mark.statusAttributes,
    statusDate: wipoDate(mark.statusDate) ?? mark.statusDate,
    markFeature: mark.markFeature,
    markKind: mark.markKind,
    viennaCodes: mark.vienna,
    publications: mark.publications.map((p) => ({
      identifier: p.identifier,
      section: p.section,
      date: wipoDate(p.date) ?? p.date,
    })),
    oppositions: mark.oppositions.map((o) => ({
      identifier: o.identifier,
      date: wipoDate(o.date) ?? o.date,
    })),
    classes,
    applicantKeys: mark.applicantKeys,
    representativeKeys: mark.representativeKeys,
    applicants: mark.applicants.map(rawParty),
  };
}

/**
 * One EUTM as a record. Its owner: an applicant named inside the mark, else the applicant its key
 * names (`ApplicantKey/Identifier`), filled in by the mirror from EUIPO's applicant files
 * (`ownerKey`); until those are loaded, and for a mark without a key, the owner is null.
 */
export function mapEuipoMark(mark: WipoMark, file: string): RecordItem {
  const check = checkMark(mark, file, { number: mark.applicationNumber });
  if ('item' in check) return check.item;
  const { owner, result } = officeMarkRecord(mark, check.checked, {
    jurisdiction: 'EM',
    payload: (classes) => euipoPayload(mark, check.checked.number, classes),
    publishedAt: applicationPublished(mark),
  });
  const { line } = mark;
  if (!result.ok) return { file, line, error: result.error };
  const ownerKey = owner === null ? mark.applicantKeys[0]?.trim() : undefined;
  const record = ownerKey ? { ...result.record, ownerKey } : result.record;
  return { file, line, record };
}

/** An applicant or representative record of EUIPO's own files, by its key. */
function mapEuipoParty(
  party: WipoParty,
  role: 'applicant' | 'representative',
  file: string,
): RecordItem {
  const { line } = party;
  const key = party.key?.trim() ?? '';
  if (key === '') return { file, line, error: `${role}: no identifier` };
  const name = partyName(party);
  const reason = name === null ? null : lineTextReason(name);
  if (reason !== null) return { file, line, error: `${role} ${key}: name ${reason}` };
  const deleted = party.operation?.trim().toLowerCase() === 'delete';
  const countryCode = partyCountry(party);
  const rawPayload = {
    source: EUIPO_SOURCE,
    role,
    key,
    ...rawParty(party),
    ...(party.operation === null ? {} : { operationCode: party.operation }),
  };
  return {
    file,
    line,
    party: { office: 'EM', role, key, name, countryCode: st3(countryCode), deleted, rawPayload },
  };
}

/**
 * Streams the items of an EUIPO bulk XML document: a record (or a deletion, for
 * `operationCode="Delete"`) per TradeMark, and an applicant or representative record per such
 * element outside a mark. Every item is as of the day EUIPO produced the document
 * (`TransactionHeader/SenderDetails/RequestProducerDateTime`), where it says, so that the mirror
 * keeps the newer of two versions (docs/register-formats.md, the as-of date).
 */
export function readEuipoXml(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  fileName = 'input',
): AsyncGenerator<RecordItem> {
  return readXml(stream, fileName, (ctx) => {
    let produced: string | null = null;
    const dated = (item: RecordItem): RecordItem =>
      produced !== null && !('error' in item) && !('skipped' in item)
        ? { ...item, asOf: produced }
        : item;
    return collectMarks(
      ctx,
      {
        mark: (mark) => ctx.out.push(dated(mapEuipoMark(mark, ctx.file))),
        party: (party, role) => ctx.out.push(dated(mapEuipoParty(party, role, ctx.file))),
        produced: (value) => {
          produced = wipoDate(value) ?? null;
        },
      },
      'TradeMark',
    );
  });
}
