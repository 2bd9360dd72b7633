// A record's number as its office writes it, and the office's public page for it, derived from
// the mirror's key. Pure functions. The keys come in two shapes (docs/register-formats.md,
// `externalId`): an ST.13 application number for the offices whose numbering is known (US, EM,
// WO), and `OFFICE-number` for any other office a WIPO ST.96/ST.66 file names, where the number
// is already the office's own. A key of neither shape gives no office number rather than a guess.

/** The office's public page of one record. */
export type OfficePage = {
  url: string;
  /** The page's name, for a link text. */
  site: string;
};

export type OfficeReference = {
  /** The office's own name for the number: "US serial", "EUTM", "IR", "CA application". */
  label: string;
  /** The number as the office writes it (79366581, 018123456, 1234567). */
  number: string;
  /** The record's public page at the office; null where no per-record page is known. */
  page: OfficePage | null;
};

/**
 * ST.13 trademark application numbers: office (ST.3), IP type 50 (trademark application), four
 * digits for a year or 0000, then the office's number left-padded to 9 digits.
 */
const ST13 = /^([A-Z]{2})50\d{4}(\d{9})$/;

/** The WIPO readers' key for an office without a known ST.13 numbering: `CA-1234567`. */
const OFFICE_NUMBER = /^([A-Z]{2})-(\S(?:.*\S)?)$/;

const tsdr = (serial: string): OfficePage => ({
  url: `https://tsdr.uspto.gov/#caseNumber=${serial}&caseSearchType=US_APPLICATION&caseType=DEFAULT&searchType=statusSearch`,
  site: 'USPTO TSDR',
});

const eSearch = (eutm: string): OfficePage => ({
  url: `https://euipo.europa.eu/eSearch/#details/trademarks/${eutm}`,
  site: 'EUIPO eSearch',
});

const madridMonitor = (irn: string): OfficePage => ({
  url: `https://www3.wipo.int/madrid/monitor/en/showData.jsp?ID=ROM.${irn}`,
  site: 'WIPO Madrid Monitor',
});

/** CIPO's Canadian Trademarks Database: one page per application number. */
const canadianTrademarksDatabase = (number: string): OfficePage => ({
  url: `https://ised-isde.canada.ca/cipo/trademark-search/${number}`,
  site: 'Canadian Trademarks Database',
});

function fromSt13(office: string, padded: string): OfficeReference | null {
  if (office === 'US' && padded.startsWith('0')) {
    // USPTO serial numbers have 8 digits (usptoSt13 pads them to 9).
    const serial = padded.slice(1);
    return { label: 'US serial', number: serial, page: tsdr(serial) };
  }
  if (office === 'EM') {
    // EU trade mark numbers are written with 9 digits, leading zeros included (018123456).
    return { label: 'EUTM', number: padded, page: eSearch(padded) };
  }
  if (office === 'WO') {
    const irn = padded.replace(/^0+/, '');
    return { label: 'IR', number: irn, page: madridMonitor(irn) };
  }
  return null;
}

/**
 * An `OFFICE-number` key: the number is shown as the office wrote it, and linked only where the
 * office has a per-record page whose address is known to take that number.
 */
function fromOfficeNumber(office: string, number: string): OfficeReference {
  if (office === 'CA') {
    // CIPO's application numbers are digits (1829192); anything else is not a page address.
    const page = /^\d{1,7}$/.test(number) ? canadianTrademarksDatabase(number) : null;
    return { label: 'CA application', number, page };
  }
  if (office === 'WO') {
    const page = /^\d{1,9}$/.test(number) ? madridMonitor(number.replace(/^0+/, '')) : null;
    return { label: 'IR', number, page };
  }
  // EM and US numbers of the known shapes get an ST.13 key; one that reaches here has another
  // shape, and no page address is known to take it.
  const label = office === 'EM' ? 'EUTM' : office === 'US' ? 'US serial' : `${office} application`;
  return { label, number, page: null };
}

/** The office number and public page of the record with this mirror key, if its shape is known. */
export function officeReference(externalId: string): OfficeReference | null {
  const st13 = ST13.exec(externalId);
  if (st13 !== null) {
    const [, office, padded] = st13 as unknown as [string, string, string];
    return fromSt13(office, padded);
  }
  const keyed = OFFICE_NUMBER.exec(externalId);
  if (keyed !== null) {
    const [, office, number] = keyed as unknown as [string, string, string];
    return fromOfficeNumber(office, number);
  }
  return null;
}
