// Territory coverage of a register record (docs/register-formats.md): a record covers
// country C when its jurisdiction is C, or a regional office that includes C, or `WO` (an
// international registration) with C, or a regional office including C, among its designations.
// A watch designation `EU` is covered by `EM` records and by `WO` records designating `EM`.

/** The 27 member states of the European Union (since 1 February 2020), covered by `EM`. */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** Benelux Office for Intellectual Property (`BX`): Belgium, the Netherlands, Luxembourg. */
export const BENELUX_MEMBER_STATES: ReadonlySet<string> = new Set(['BE', 'NL', 'LU']);

/**
 * OAPI (`OA`, Organisation Africaine de la Propriété Intellectuelle, Bangui Agreement): its 17
 * member states, where one registration has effect in all of them.
 * Source: https://oapi.int (Etats membres); Comoros (KM) joined in 2013.
 */
export const OAPI_MEMBER_STATES: ReadonlySet<string> = new Set([
  'BJ',
  'BF',
  'CM',
  'CF',
  'TD',
  'KM',
  'CG',
  'CI',
  'GQ',
  'GA',
  'GN',
  'GW',
  'ML',
  'MR',
  'NE',
  'SN',
  'TG',
]);

/**
 * ARIPO (`AP`, African Regional Intellectual Property Organization): its 22 member states as of
 * the accession of Cabo Verde on 14 July 2022 (after Mauritius and Seychelles).
 * Sources: https://www.aripo.org/member-states and Adams & Adams, "Republic of Cape Verde becomes
 * 22nd ARIPO member state" (2022), which lists Botswana, Eswatini, Gambia, Ghana, Kenya, Lesotho,
 * Liberia, Malawi, Mauritius, Mozambique, Namibia, Rwanda, Sao Tome and Principe, Seychelles,
 * Sierra Leone, Somalia, Sudan, Uganda, Tanzania, Zambia, Zimbabwe, plus Cabo Verde.
 * An ARIPO trade mark (Banjul Protocol) only has effect in the states it designates, and not every
 * member has joined that protocol: when an `AP` record carries `designations`, only those count.
 */
export const ARIPO_MEMBER_STATES: ReadonlySet<string> = new Set([
  'BW',
  'CV',
  'SZ',
  'GM',
  'GH',
  'KE',
  'LS',
  'LR',
  'MW',
  'MU',
  'MZ',
  'NA',
  'RW',
  'ST',
  'SC',
  'SL',
  'SO',
  'SD',
  'TZ',
  'UG',
  'ZM',
  'ZW',
]);

/** Regional offices (ST.3 codes) and the countries a registration there covers. */
export const REGIONAL_OFFICES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['EM', EU_MEMBER_STATES],
  ['BX', BENELUX_MEMBER_STATES],
  ['OA', OAPI_MEMBER_STATES],
  ['AP', ARIPO_MEMBER_STATES],
]);

export interface CoverageRecord {
  jurisdiction: string;
  designations?: readonly string[] | null;
}

/** ST.3 `EM` is the EUIPO; some feeds write `EU` for it. Both are read as `EM`. */
function office(code: string): string {
  const c = code.trim().toUpperCase();
  return c === 'EU' ? 'EM' : c;
}

/** Does a registration at `officeCode` (a country or a regional office) cover `target`? */
function officeCovers(officeCode: string, target: string): boolean {
  if (target === 'EU') return officeCode === 'EM';
  if (officeCode === target) return true;
  return REGIONAL_OFFICES.get(officeCode)?.has(target) ?? false;
}

/**
 * True when `record` has effect in `designation`: an ISO 3166-1 alpha-2 country, or `EU` for the
 * European Union as a whole (covered only by `EM` and by `WO` designating `EM`, never by a
 * national registration in one member state). Codes are case-insensitive.
 */
export function covers(record: CoverageRecord, designation: string): boolean {
  const target = designation.trim().toUpperCase();
  const jurisdiction = office(record.jurisdiction);
  const designations = record.designations ?? [];
  if (jurisdiction === 'WO') {
    return designations.some((d) => officeCovers(office(d), target));
  }
  if (jurisdiction === 'AP' && designations.length > 0) {
    // A Banjul Protocol registration: only the designated ARIPO states.
    return designations.some((d) => {
      const c = office(d);
      return ARIPO_MEMBER_STATES.has(c) && officeCovers(c, target);
    });
  }
  return officeCovers(jurisdiction, target);
}

/** The watch designations (upper case, in the given order) that `record` covers. */
export function coveredDesignations(
  record: CoverageRecord,
  watchDesignations: readonly string[],
): string[] {
  const out: string[] = [];
  for (const d of watchDesignations) {
    const code = d.trim().toUpperCase();
    if (!out.includes(code) && covers(record, code)) out.push(code);
  }
  return out;
}

/** True when `record` covers at least one of the watch's designations. */
export function coversAny(record: CoverageRecord, watchDesignations: readonly string[]): boolean {
  return watchDesignations.some((d) => covers(record, d));
}

/** Offices and WO designations that can cover a set of watch designations (SQL prefilter). */
export interface CoverageSearch {
  /** `jurisdiction = ANY($jurisdictions)` */
  jurisdictions: string[];
  /** `jurisdiction = 'WO' AND designations && $woDesignations` */
  woDesignations: string[];
}

/**
 * The SQL form of coversAny: a record can only cover one of `watchDesignations` when its
 * jurisdiction is in `jurisdictions`, or it is `WO` with a designation in `woDesignations`. It is a
 * superset (an `AP` record restricted by its designations is re-checked by covers).
 */
export function coverageSearch(watchDesignations: readonly string[]): CoverageSearch {
  const offices = new Set<string>();
  for (const d of watchDesignations) {
    const target = d.trim().toUpperCase();
    if (target === 'EU') {
      offices.add('EM');
      continue;
    }
    offices.add(target);
    for (const [code, members] of REGIONAL_OFFICES) if (members.has(target)) offices.add(code);
  }
  // Feeds that write EU for the EUIPO (read as EM by covers).
  if (offices.has('EM')) offices.add('EU');
  const list = [...offices].sort();
  return { jurisdictions: list, woDesignations: list };
}
