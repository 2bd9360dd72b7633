import { mapCipoMark } from './cipo-xml.ts';
import { mapEuipoMark } from './euipo-xml.ts';
import { parseRegisterRecord, type RecordItem } from './record.ts';
import { collectMarks, type WipoMark } from './wipo-collect.ts';
import {
  checkMark,
  currentApplicant,
  goodsOf,
  niceClasses,
  partyCountry,
  partyName,
  rawParty,
  sortedDates,
  statusLive,
  statusWord,
} from './wipo-common.ts';
import { readXml } from './xml-driver.ts';

/**
 * WIPO trademark XML: ST.96 (`TrademarkTransaction`/`Transaction` … `TrademarkBag/Trademark`, as
 * CIPO's bulk files and USPTO TSDR serve it) and ST.66 TM-XML (`Transaction` …
 * `TradeMarkDetails/TradeMark`, as TSDR serves it). Elements are read by their local name,
 * whatever the namespace prefix, so ST.96 versions (1.0 drafts, 2.x, 3.x/4.x) read alike. A mark
 * of the EUIPO (`EM`) or CIPO (`CA`) is mapped as that office's own files are (euipo-xml.ts,
 * cipo-xml.ts); any other office's as below. The mapping is documented in
 * docs/register-formats.md.
 */
export type WipoStandard = 'st96' | 'st66';

/** `rawPayload.source` of the records of each standard. */
export const WIPO_SOURCES: Readonly<Record<WipoStandard, string>> = {
  st96: 'wipo-st96',
  st66: 'wipo-st66',
};

/** A mark of any office but the EUIPO and CIPO, mapped as the standards define its fields. */
function mapWipoMark(mark: WipoMark, standard: WipoStandard, file: string): RecordItem {
  const check = checkMark(mark, file, { number: mark.applicationNumber });
  if ('item' in check) return check.item;
  const { office, number, externalId, markText, filed, registered, expires } = check.checked;
  // A mark without a named applicant is still a mark that can conflict: its owner stays null.
  const owner = currentApplicant(mark.applicants);
  const publications = sortedDates(mark.publications.map((p) => p.date));
  const classes = niceClasses(mark.classes);
  const designations = office === 'WO' ? mark.designations.map((d) => d.trim().toUpperCase()) : [];
  // USPTO identifications are in English only (37 CFR 2.32(a)(6)); other offices' say their own.
  const { goods, unclassified } = goodsOf(mark, classes, office === 'US' ? 'en' : null);
  const rawPayload = {
    source: WIPO_SOURCES[standard],
    office,
    applicationNumber: number,
    registrationNumber: mark.registrationNumber?.trim() || null,
    statusCode: mark.statusCode?.trim() || null,
    statusDate: sortedDates([mark.statusDate])[0] ?? mark.statusDate,
    publicationDates: publications,
    classes,
    applicantKeys: mark.applicantKeys,
    applicants: mark.applicants.map(rawParty),
    ...(unclassified.length > 0 ? { unclassifiedGoods: unclassified } : {}),
  };
  const result = parseRegisterRecord(
    {
      externalId,
      markText,
      ownerName: owner === null ? null : partyName(owner),
      ownerCountryCode: owner === null ? null : partyCountry(owner),
      jurisdiction: office,
      designations,
      filedAt: filed,
      registeredAt: registered,
      expiresAt: expires,
      // The first publication is the one for opposition (USPTO Official Gazette); later ones
      // (registration) are kept in the raw payload.
      publishedAt: publications[0] ?? null,
      status: statusWord(office, mark.statusCode),
      live: statusLive(office, mark.statusCode),
      classes,
      logoUrl: null,
      goods,
    },
    rawPayload,
  );
  return result.ok
    ? { file, line: mark.line, record: result.record }
    : { file, line: mark.line, error: result.error };
}

/** Which office's mapping a mark gets: its own office's where this service knows its files. */
function mapMark(mark: WipoMark, standard: WipoStandard, file: string): RecordItem {
  const office = mark.office?.trim().toUpperCase();
  if (office === 'EM') return mapEuipoMark(mark, file);
  if (office === 'CA') return mapCipoMark(mark, file);
  return mapWipoMark(mark, standard, file);
}

/**
 * Streams register records out of a WIPO ST.96 or ST.66 document: one item per trademark element
 * (`Trademark` / `TradeMark`), numbered by the line of its start tag. Memory holds one mark's few
 * captured fields at a time. Applicants are read inside the mark (ST.96, ST.66) or, as TSDR's
 * ST.66 places them, next to it in the same `TransactionData`: a mark without applicants inside
 * is held until its `TransactionData` ends, and gets those applicants only if it is that
 * `TransactionData`'s one mark (with several, whose they are is not said). A mark the office
 * deletes (`operationCode`/`operationCategory` Delete) is a deletion item; one without a word
 * element or an application date is skipped; one without a named applicant has a null owner; bad
 * data is an error item and reading goes on.
 */
export function readWipoXml(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  standard: WipoStandard,
  fileName = 'input',
): AsyncGenerator<RecordItem> {
  const element = standard === 'st96' ? 'Trademark' : 'TradeMark';
  return readXml(stream, fileName, (ctx) =>
    collectMarks(ctx, { mark: (mark) => ctx.out.push(mapMark(mark, standard, ctx.file)) }, element),
  );
}
