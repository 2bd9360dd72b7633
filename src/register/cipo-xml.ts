import type { RecordItem } from './record.ts';
import type { WipoMark } from './wipo-collect.ts';
import {
  checkMark,
  officeMarkRecord,
  partyCountry,
  partyName,
  rawParty,
  sortedDates,
  wipoDate,
} from './wipo-common.ts';

// CIPO's trademark XML: WIPO ST.96 (V3_0) with CIPO's `catmk`/`cacom` extensions, one
// `TrademarkApplication` per file of its weekly and full releases. Read by the ST.96 reader
// (wipo-xml.ts), which hands every mark of office CA here. docs/register-formats.md, "CIPO".

/** `rawPayload.source` of the records read from CIPO's ST.96 files. */
export const CIPO_SOURCE = 'cipo-st96';

/**
 * CIPO's application number and its extension (`1057613`, `00`): from the ST.13 number CIPO writes
 * (`com:ApplicationNumber/com:ST13ApplicationNumber`, `300000105761300`: the last nine digits are
 * the seven-digit number and the two-digit extension), else from `ApplicationNumberText`
 * (`1057613` or `1057613-00`). Null when neither has that shape.
 */
export function cipoNumber(mark: WipoMark): { number: string; extension: string } | null {
  const st13 = mark.st13?.trim() ?? '';
  const fromSt13 = /^\d{6}(\d{7})(\d{2})$/.exec(st13);
  const text = mark.applicationNumber?.trim() ?? '';
  const fromText = /^(\d{1,7})(?:-(\d{2}))?$/.exec(text);
  const m = fromSt13 ?? fromText;
  if (m === null) return null;
  return { number: (m[1] as string).replace(/^0+(?=\d)/, ''), extension: m[2] ?? '00' };
}

/**
 * The mirror's key: `CA-` and the application number, with `-` and the extension when it is not
 * `00` (an extension application is a record of its own: `CA-1057613-01`).
 */
const cipoExternalId = (n: { number: string; extension: string }) =>
  n.extension === '00' ? `CA-${n.number}` : `CA-${n.number}-${n.extension}`;

/**
 * The advertisement: CIPO's `NationalPublication` whose category is `Advertised` (the date
 * opposition runs from, Trademarks Act s.38(1)), else the first publication date given, else the
 * start of the opposition period the office gives.
 */
function advertised(mark: WipoMark): string | null {
  const ads = mark.publications.filter((p) => p.category?.trim().toLowerCase() === 'advertised');
  return (
    sortedDates(ads.map((p) => p.date))[0] ??
    sortedDates(mark.publications.map((p) => p.date))[0] ??
    sortedDates([mark.oppositionStart])[0] ??
    null
  );
}

/** The office's own opposition window, used as given (both dates, or none). */
function oppositionPeriod(mark: WipoMark) {
  const startsAt = wipoDate(mark.oppositionStart);
  const endsAt = wipoDate(mark.oppositionEnd);
  return typeof startsAt === 'string' && typeof endsAt === 'string' ? { startsAt, endsAt } : null;
}

/** What the record keeps of CIPO's own words: status, events, parties, its notice… */
function cipoPayload(mark: WipoMark, applicationNumber: string, classes: number[]) {
  const representative = mark.representatives[0];
  return {
    source: CIPO_SOURCE,
    office: 'CA',
    applicationNumber,
    st13ApplicationNumber: mark.st13?.trim() || null,
    registrationNumber: mark.registrationNumber?.trim() || null,
    // The status as CIPO writes it: the ST.96 status text and CIPO's own description.
    statusCode: mark.statusCode?.trim() || null,
    statusInternal: mark.statusInternal,
    statusDate: wipoDate(mark.statusDate) ?? mark.statusDate,
    markFeature: mark.markFeature,
    markKind: mark.markKind,
    featureDescription: mark.featureDescription,
    viennaCodes: mark.vienna,
    advertisedAt: advertised(mark),
    oppositionPeriod: oppositionPeriod(mark),
    events: mark.events.map((e) => ({ ...e, date: wipoDate(e.date) ?? e.date })),
    classes,
    applicants: mark.applicants.map(rawParty),
    representative:
      representative === undefined
        ? null
        : { name: partyName(representative), country: partyCountry(representative) },
    disclaimers: mark.disclaimers,
    // CIPO's notice on every record: it does not warrant the accuracy of the data.
    officeDisclaimer: mark.comments.join(' ') || null,
  };
}

/**
 * One CIPO application as a record: the number from its ST.13 form, the advertisement as the
 * publication for opposition, the office's own opposition window in the raw payload
 * (`oppositionPeriod`, used as given by the alert's opposition window). A design-only mark (no
 * word element) is skipped with the reason, never an error.
 */
export function mapCipoMark(mark: WipoMark, file: string): RecordItem {
  const parsed = cipoNumber(mark);
  const number = parsed === null ? null : `${parsed.number}-${parsed.extension}`;
  const check = checkMark(mark, file, {
    number: number ?? mark.applicationNumber ?? mark.st13,
    externalId: (office, n) => (parsed === null ? `${office}-${n}` : cipoExternalId(parsed)),
    noText: (label) =>
      `${label}: design-only mark (${mark.markFeature ?? 'no feature category'}, no word element)`,
  });
  if ('item' in check) return check.item;
  const { result } = officeMarkRecord(mark, check.checked, {
    jurisdiction: 'CA',
    payload: (classes) => cipoPayload(mark, check.checked.number, classes),
    publishedAt: advertised(mark),
  });
  const { line } = mark;
  return result.ok ? { file, line, record: result.record } : { file, line, error: result.error };
}
