import type { JsonPage } from '../data/repositories/json-sql.ts';
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

export const EMPTY_PAGE: JsonPage = { items: '', fetched: 0, lastId: null, lastCreatedAt: null };

/** The cursor of the page after this one, or null on the last page. */
export function nextCursorOf(page: JsonPage, limit: number): string | null {
  return page.fetched > limit && page.lastId !== null && page.lastCreatedAt !== null
    ? encodeCursor({ createdAt: page.lastCreatedAt, id: page.lastId })
    : null;
}

/** The page's items as objects (the dashboard renders them; the API sends the text as it is). */
export function pageItems<T>(page: JsonPage): T[] {
  return JSON.parse(`[${page.items}]`) as T[];
}

/**
 * The list body, assembled from the JSON text PostgreSQL produced. Repositories fetch limit + 1
 * rows: the extra row only tells whether a next page exists.
 */
export function pageBody(page: JsonPage, limit: number): string {
  const nextCursor = nextCursorOf(page, limit);
  return `{"data":[${page.items}],"pagination":${JSON.stringify({ nextCursor, limit })}}`;
}
