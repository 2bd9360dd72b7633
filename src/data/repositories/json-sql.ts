// JSON of the API's resources, built by PostgreSQL. The read path hands this text straight to the
// client: Node neither parses the rows into objects and Dates nor serialises them again, which is
// where a naive read path spends its CPU. An alert's JSON is not built here: it is stored on the
// alert row when the row is written (migration 004), because the alert list is the hottest read.

/**
 * The API's timestamp text (ISO 8601 UTC with milliseconds), exactly what the iso_ms() SQL function
 * of migration 001 returns. The read path spells the expression out instead of calling iso_ms():
 * that function is declared IMMUTABLE around the STABLE to_char, so PostgreSQL never inlines it and
 * runs the SQL-function executor on every call, about five times the cost of the expression itself
 * (a page of 50 watches formats 50 of them; see docs/benchmarks.md).
 */
export function isoMs(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

export const WATCH_JSON = `json_build_object(
  'id', w.id,
  'watchType', w.watch_type,
  'name', w.name,
  'attributes', w.attributes,
  'sources', w.sources,
  'scanCadence', w.scan_cadence,
  'active', w.active,
  'logoUrl', w.logo_url,
  'logoSt13', w.logo_st13,
  'createdAt', ${isoMs('w.created_at')}
)::text`;

/**
 * One page of a list, as PostgreSQL returns it: the JSON of its items joined with commas (the inside
 * of the `data` array), how many rows were fetched (one more than the page when a next page
 * exists) and the keyset position of the page's last item, for the next cursor.
 */
export type JsonPage = {
  items: string;
  fetched: number;
  lastId: string | null;
  lastCreatedAt: string | null;
};

/**
 * A list query that answers a single JsonPage row. `columns` selects id, created_at (timestamptz)
 * and json from `from`; rows come newest first by (created_at, id), the keyset order of every list
 * (D4), page size + 1 of them (`pageSize` is the page size's placeholder). The row number is taken
 * in the index order, so numbering costs no sort. One text value instead of a row per item: the
 * driver decodes one string and Node joins nothing (about half the Node and PostgreSQL CPU of a
 * row per item; docs/benchmarks.md).
 */
export function pageSql(q: {
  columns: string;
  from: string;
  where: string;
  alias: string;
  pageSize: string;
}): string {
  const order = `${q.alias}.created_at DESC, ${q.alias}.id DESC`;
  return `SELECT coalesce(string_agg(p.json, ',' ORDER BY p.n) FILTER (WHERE p.n <= ${q.pageSize}), '')
                   AS items,
                 count(*)::int AS fetched,
                 max(p.id) FILTER (WHERE p.n = ${q.pageSize}) AS "lastId",
                 max(${isoMs('p.created_at')}) FILTER (WHERE p.n = ${q.pageSize}) AS "lastCreatedAt"
            FROM (SELECT ${q.columns}, row_number() OVER (ORDER BY ${order}) AS n
                    FROM ${q.from}
                   WHERE ${q.where}
                   ORDER BY ${order}
                   LIMIT ${q.pageSize}::int + 1) p`;
}

// jsonb parameters are always sent as JSON text and cast with ::text::jsonb: postgres.js would
// otherwise JSON-encode a string a second time, and PGlite would not.

/** Collects positional parameters while a statement is assembled from optional filters. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
