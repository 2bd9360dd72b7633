import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { markdownToPlain } from '../markdown.ts';
import { officeReference } from '../register/office-links.ts';
import type { AlertView } from './views/alerts.ts';

/** The export's columns, in this order (the header row); the contract of GET /alerts.csv. */
export const CSV_COLUMNS = [
  'alert_id',
  'created',
  'state',
  'severity',
  'watch',
  'mark',
  'owner',
  'owner_country',
  'jurisdiction',
  'record_id',
  'status',
  'classes',
  'filed',
  'published',
  'opposition_closes',
  'rationale',
  'note',
  'link',
  // Added after the columns above, which keep their order: a reader that takes them by position
  // still finds them where they were.
  'office_number',
  // The hit's `live`: true, false, or empty when the office's code says neither.
  'live',
  // new_filing or existing_mark (Alert.origin).
  'origin',
  // The day the mirror took the office's deletion of the record (hit.removedAt); empty while the
  // register holds it.
  'removed',
] as const;

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/** One alert as a CSV record, in the order of CSV_COLUMNS. */
export function csvRecord(alert: AlertView, note: string | null, watchName: string): string[] {
  const hit = alert.hit;
  const ref = officeReference(hit.externalId);
  return [
    alert.id,
    day(alert.createdAt),
    alert.state,
    alert.severity,
    watchName,
    hit.displayName,
    hit.ownerName ?? '',
    hit.ownerCountryCode ?? '',
    hit.jurisdiction,
    hit.externalId,
    hit.status ?? '',
    hit.classes.join(';'),
    day(hit.filedAt),
    day(hit.publishedAt),
    day(hit.opposition?.closesAt),
    markdownToPlain(alert.rationale),
    note ?? '',
    ref?.page?.url ?? '',
    ref?.number ?? '',
    hit.live === null ? '' : String(hit.live),
    alert.origin,
    day(hit.removedAt),
  ];
}

/**
 * The CSV text of the records `pages` yields, as a stream: a page is read only when the client has
 * taken what came before (Readable.from pulls on demand, pipe() waits for the socket), so memory
 * stays at about one page whatever the length of the list.
 *
 * csv-stringify does the RFC 4180 quoting (CRLF between records), the UTF-8 byte-order mark
 * that spreadsheets need to read accented names, and, with `escape_formulas`, puts a `'` before
 * any cell that begins with = + - @ tab or carriage return: register text comes from strangers,
 * and a spreadsheet would run such a cell as a formula.
 */
export function csvStream(records: AsyncIterable<string[][]>): Readable {
  async function* flat() {
    for await (const page of records) yield* page;
  }
  const csv = stringify({
    bom: true,
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
  });
  const source = Readable.from(flat());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
