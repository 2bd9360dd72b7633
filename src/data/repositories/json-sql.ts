// JSON of the API's resources, built by PostgreSQL. The read path hands this text straight to the
// client: Node neither parses the rows into objects and Dates nor serialises them again, which is
// where a naive read path spends its CPU. An alert's JSON is not built here: it is stored on the
// alert row when the row is written (migration 004), compact (migration 033), because the alert
// list is the hottest read.

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

/**
 * The newest register change the watch's last successful scan had seen: when the mirror recorded
 * the record of the highest change sequence it covered (scanned_seq), one probe of
 * marks_change_seq_idx. NULL before a first scan, and while the mirror is empty.
 */
const MIRROR_COVERED_UNTIL = `(SELECT m.updated_at FROM marks m
    WHERE w.scanned_seq > 0 AND m.change_seq <= w.scanned_seq
    ORDER BY m.change_seq DESC LIMIT 1)`;

/**
 * A watch's attributes (jsonb) as compact JSON: json_strip_nulls re-prints jsonb without its
 * spaces (`{"a":[1,2]}` for `{"a": [1, 2]}`), with jsonb's escaping, but drops members whose value
 * is null. The attributes' schema (watch-input.ts) has no nullable member; should a row hold one
 * anyway, it is sent as jsonb prints it, never without the member. Inline, so that it works at any
 * schema version (the migration tests write watches before the latest migrations).
 */
const COMPACT_ATTRIBUTES = `CASE WHEN w.attributes = jsonb_strip_nulls(w.attributes)
    THEN json_strip_nulls(w.attributes::text::json)
    ELSE w.attributes::json END`;

/** The watch's alerts by state: an index-only count over alerts_watch_state_idx (migration 031). */
const ALERT_COUNTS = `(SELECT row_to_json(c) FROM (SELECT
      count(*) FILTER (WHERE a.state = 'unread') AS "unread",
      count(*) FILTER (WHERE a.state = 'read') AS "read",
      count(*) FILTER (WHERE a.state = 'dismissed') AS "dismissed"
    FROM alerts a WHERE a.watch_id = w.id) c)`;

/**
 * A watch's API JSON over the alias `w`, compact: row_to_json prints `{"id":"wat_…",…}` (where
 * json_build_object writes `"id" : …`), so the API sends it without another pass in Node.
 */
export const WATCH_JSON = `(SELECT row_to_json(r)::text FROM (SELECT
  w.id AS "id",
  w.watch_type AS "watchType",
  w.name AS "name",
  ${COMPACT_ATTRIBUTES} AS "attributes",
  w.sources AS "sources",
  w.scan_cadence AS "scanCadence",
  w.active AS "active",
  w.logo_url AS "logoUrl",
  w.logo_st13 AS "logoSt13",
  ${isoMs('w.created_at')} AS "createdAt",
  ${isoMs('w.last_scanned_at')} AS "lastScannedAt",
  ${isoMs(MIRROR_COVERED_UNTIL)} AS "mirrorCoveredUntil",
  ${ALERT_COUNTS} AS "alertCounts") r)`;

/**
 * One item of a list: its JSON, as the UTF-8 bytes the driver received (Db.queryBytes).
 * Lists fetch one row more than the page; the cursor is the (createdAt, id) of the page's last
 * item, read back from its JSON (pagination.ts), so no column other than the JSON is formatted for
 * every row.
 */
export type JsonBytes = Buffer;

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
