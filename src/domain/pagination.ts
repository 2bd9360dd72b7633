import type { Db } from '../data/db.ts';
import type { ListReads } from '../data/replica.ts';
import type { JsonBytes } from '../data/repositories/json-sql.ts';
import { copyCompactJson } from '../json-text.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { ApiError } from './errors.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/**
 * `mayLag`: the list may be read from the standby, a second stale (the API's lists). The
 * dashboard's lists read the primary: a page shows them beside counts read there.
 */
export type ListSource = { mayLag?: boolean };

export type ListServiceOptions = {
  /** Where the lists that may lag are read (data/replica.ts); default: the primary. */
  lists?: ListReads;
};

/** The database one list of `ownerId`'s is read from: the standby when it may lag, else `db`. */
export async function listDb(
  db: Db,
  options: ListServiceOptions,
  ownerId: string,
  source: ListSource,
): Promise<Db> {
  return source.mayLag && options.lists ? options.lists.forOwner(ownerId) : db;
}

/** Cursor text → keyset position; a cursor we did not issue is a malformed query. */
export function positionFromCursor(cursor: string | undefined) {
  if (cursor === undefined) return undefined;
  const position = decodeCursor(cursor);
  if (!position) {
    throw new ApiError('malformed_request', 'The cursor is not valid.', {
      details: {
        formErrors: [],
        fieldErrors: { cursor: ['Not a cursor issued by this service.'] },
      },
    });
  }
  return position;
}

/**
 * The cursor of the page after this one, or null on the last page. `rows` is what a list query
 * fetched: up to limit + 1 rows, the extra one only telling that a next page exists. The position
 * is the createdAt and id of the page's last item, read from its JSON: every listed resource has
 * both, in the same text the keyset compares (milliseconds, UTC).
 */
export function nextCursorOf(rows: JsonBytes[], limit: number): string | null {
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  if (last === undefined) return null;
  const { createdAt, id } = JSON.parse(last.toString('utf8')) as { createdAt: string; id: string };
  return encodeCursor({ createdAt, id });
}

/** The page's items as objects (the dashboard renders them; the API sends the text as it is). */
export function pageItems<T>(rows: JsonBytes[], limit: number): T[] {
  return rows.slice(0, limit).map((row) => JSON.parse(row.toString('utf8')) as T);
}

const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = 0x2c;

/**
 * The list body, assembled from the JSON PostgreSQL produced: the rows' bytes are copied once into
 * the body, never decoded into strings. Rows built by json_build_object or from jsonb are made
 * compact on the way (json-text.ts); rows stored compact (an alert's api_json, migration 033) are
 * copied as they are with `compact: true`, which spares a pass over every byte in JavaScript.
 */
export function pageBody(
  rows: JsonBytes[],
  limit: number,
  options: { compact?: boolean } = {},
): Buffer {
  const nextCursor = nextCursorOf(rows, limit);
  const count = Math.min(rows.length, limit);
  const tail = Buffer.from(`],"pagination":${JSON.stringify({ nextCursor, limit })}}`);
  let room = DATA_OPEN.length + count + tail.length;
  for (let i = 0; i < count; i += 1) room += (rows[i] as Buffer).length;
  const body = Buffer.allocUnsafe(room);
  let at = DATA_OPEN.copy(body, 0);
  for (let i = 0; i < count; i += 1) {
    if (i > 0) body[at++] = COMMA;
    const row = rows[i] as Buffer;
    at = options.compact ? at + row.copy(body, at) : copyCompactJson(row, body, at);
  }
  at += tail.copy(body, at);
  return body.subarray(0, at);
}
