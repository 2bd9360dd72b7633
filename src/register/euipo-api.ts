/**
 * EUIPO's Trademark Search API (`GET /trademarks`, version 1.1.0 of its OpenAPI document): the
 * items of a search result page as normalized records (docs/register-formats.md, JSON Lines), for
 * the `euipo-api` feed. Pure: the JSON in, the records out.
 *
 * An item (`TrademarkSearchResultItem`) gives the application number, the verbal element, the
 * Nice classes, the applicants and representatives (office, identifier and, when given, name),
 * the application, registration, designation and expiry dates, the publications (bulletin,
 * section, date) and the status code. It gives no goods texts, no owner country and no image
 * URL: those are null here. The field names and the example item below come from the published
 * OpenAPI document (docs/operations.md, "euipo-api").
 */

/** One line of the normalized JSON Lines format, or why the item makes none. */
export type ApiItemResult =
  | { record: Record<string, unknown> }
  | { skipped: string }
  | { error: string };

/** A search result page: its items, and where it is among the pages. */
export type ApiPage = { items: unknown[]; page: number; totalPages: number; totalElements: number };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The API's status codes in the words of the normalized format, as the ST.66 texts of the same
 * states read (wipo-xml.ts). APPEALED and APPEALABLE say a decision is under appeal, not which:
 * no word (null), the code staying in the raw payload.
 */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  RECEIVED: 'filed',
  UNDER_EXAMINATION: 'pending',
  REGISTRATION_PENDING: 'pending',
  ACCEPTANCE_PENDING: 'pending',
  APPLICATION_PUBLISHED: 'published',
  START_OF_OPPOSITION_PERIOD: 'published',
  OPPOSITION_PENDING: 'opposed',
  REGISTERED: 'registered',
  ACCEPTED: 'registered',
  CANCELLATION_PENDING: 'registered',
  CANCELLED: 'cancelled',
  SURRENDERED: 'cancelled',
  REMOVED_FROM_REGISTER: 'cancelled',
  WITHDRAWN: 'abandoned',
  REFUSED: 'abandoned',
  EXPIRED: 'expired',
};

/**
 * The mirror's key and office of an application number: an EUTM (9 digits) is `EM500000` + the
 * number, as the bulk files' records are keyed, so both feeds update one record; an international
 * registration designating the EU (`W` + 8 digits, a letter for a later designation) is a WIPO
 * record designating EM, keyed `WO-` + the IR number as WIPO writes it.
 */
function keyOf(number: string): { externalId: string; jurisdiction: string } | null {
  if (/^\d{9}$/.test(number)) return { externalId: `EM500000${number}`, jurisdiction: 'EM' };
  const ir = /^W(\d{8})([A-Z]?)$/.exec(number);
  if (ir) return { externalId: `WO-${Number(ir[1])}${ir[2] ?? ''}`, jurisdiction: 'WO' };
  return null;
}

/** The date of the first A.1 publication (the application's, from which opposition runs). */
function a1Date(publications: unknown): string | null {
  if (!Array.isArray(publications)) return null;
  const dates = publications
    .filter((p) => isObject(p) && p.publicationSection === 'A.1')
    .map((p) => text((p as Record<string, unknown>).publicationDate))
    .filter((date): date is string => date !== null)
    .sort();
  return dates[0] ?? null;
}

/** The first applicant's name; the search gives names only to some clients (then: null). */
function ownerName(applicants: unknown): string | null {
  if (!Array.isArray(applicants)) return null;
  for (const applicant of applicants) {
    const name = isObject(applicant) ? text(applicant.name) : null;
    if (name !== null) return name;
  }
  return null;
}

/**
 * One item of a search result as a normalized record. The item is kept whole in the record (under
 * `euipo`), so the raw payload holds what the API said. A mark without a verbal element (a figure,
 * a sound) is skipped with the reason, as the bulk readers skip it: the watches match on text.
 */
export function euipoApiRecord(item: unknown): ApiItemResult {
  if (!isObject(item)) return { error: 'an item of the search result is not an object' };
  const number = text(item.applicationNumber);
  if (number === null) return { error: 'applicationNumber: missing' };
  const key = keyOf(number);
  if (key === null) return { error: `applicationNumber: not an EUTM or IR number (${number})` };
  const spec = isObject(item.wordMarkSpecification) ? item.wordMarkSpecification : {};
  const markText = text(spec.verbalElement);
  if (markText === null) return { skipped: `${number}: no verbal element (a non-word mark)` };
  const filedAt = text(item.applicationDate) ?? text(item.designationDate);
  const status = text(item.status);
  const record: Record<string, unknown> = {
    externalId: key.externalId,
    markText,
    ownerName: ownerName(item.applicants),
    ownerCountryCode: null,
    jurisdiction: key.jurisdiction,
    designations: key.jurisdiction === 'WO' ? ['EM'] : [],
    filedAt,
    registeredAt: text(item.registrationDate),
    expiresAt: text(item.expiryDate),
    publishedAt: a1Date(item.publications),
    status: status === null ? null : (STATUS_WORDS[status] ?? null),
    classes: Array.isArray(item.niceClasses) ? item.niceClasses : [],
    logoUrl: null,
    euipo: item,
  };
  return { record };
}

/**
 * A search result page (`TrademarkSearchResult`: `trademarks`, `page`, `size`, `totalPages`,
 * `totalElements`, all required), or an error saying what is wrong with it: a wrong URL or a
 * changed API must not read as an empty register.
 */
export function parseApiPage(textBody: string): ApiPage {
  let json: unknown;
  try {
    json = JSON.parse(textBody);
  } catch (error) {
    throw new Error(`the API's answer is not JSON (${(error as Error).message})`);
  }
  if (!isObject(json) || !Array.isArray(json.trademarks)) {
    throw new Error('the API answered without a "trademarks" list: not a Trademark Search result');
  }
  const count = (value: unknown) => (Number.isInteger(value) ? (value as number) : null);
  const page = count(json.page);
  const totalPages = count(json.totalPages);
  const totalElements = count(json.totalElements);
  if (page === null || totalPages === null || totalElements === null) {
    throw new Error('the API answered without its page, totalPages and totalElements');
  }
  return { items: json.trademarks, page, totalPages, totalElements };
}
