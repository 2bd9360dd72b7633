// A record's number as its office writes it, and the office's public page for it, derived from
// the mirror's key (an ST.13 application number). Pure functions. Only the shapes below are
// known; any other key gives no office number and no link rather than a guess.

export type OfficeReference = {
  /** The office's own name for the number: "US serial", "EUTM", "IR". */
  label: string;
  /** The number as the office writes it (79366581, 018123456, 1234567). */
  number: string;
  /** The record's public page at the office. */
  url: string;
  /** The page's name, for a link text. */
  site: string;
};

/**
 * ST.13 trademark application numbers: office (ST.3), IP type 50 (trademark application), four
 * digits for a year or 0000, then the office's number left-padded to 9 digits.
 */
const ST13 = /^([A-Z]{2})50\d{4}(\d{9})$/;

/** The office number and public page of the record with this mirror key, if its shape is known. */
export function officeReference(externalId: string): OfficeReference | null {
  const m = ST13.exec(externalId);
  if (m === null) return null;
  const [, office, padded] = m as unknown as [string, string, string];
  if (office === 'US' && padded.startsWith('0')) {
    // USPTO serial numbers have 8 digits (usptoSt13 pads them to 9).
    const serial = padded.slice(1);
    return {
      label: 'US serial',
      number: serial,
      url: `https://tsdr.uspto.gov/#caseNumber=${serial}&caseSearchType=US_APPLICATION&caseType=DEFAULT&searchType=statusSearch`,
      site: 'USPTO TSDR',
    };
  }
  if (office === 'EM') {
    // EU trade mark numbers are written with 9 digits, leading zeros included (018123456).
    return {
      label: 'EUTM',
      number: padded,
      url: `https://euipo.europa.eu/eSearch/#details/trademarks/${padded}`,
      site: 'EUIPO eSearch',
    };
  }
  if (office === 'WO') {
    const irn = padded.replace(/^0+/, '');
    return {
      label: 'IR',
      number: irn,
      url: `https://www3.wipo.int/madrid/monitor/en/showData.jsp?ID=ROM.${irn}`,
      site: 'WIPO Madrid Monitor',
    };
  }
  return null;
}
