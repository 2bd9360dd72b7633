import type { JsonRow } from '../data/repositories/json-sql.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { ApiError } from './errors.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** Cursor text → keyset position; a cursor we did not issue is a malformed query (D4). */
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
 * The list body, assembled from the JSON text PostgreSQL produced. Repositories fetch limit + 1
 * rows: the extra row only tells whether a next page exists.
 */
export function pageBody(rows: JsonRow[], limit: number): string {
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
  const items = page.map((row) => row.json).join(',');
  return `{"data":[${items}],"pagination":${JSON.stringify({ nextCursor, limit })}}`;
}
