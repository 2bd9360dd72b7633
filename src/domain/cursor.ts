/**
 * Keyset cursors for lists ordered by (createdAt DESC, id DESC). The cursor is the position of the
 * last row of a page; the next page starts strictly after it, so rows inserted meanwhile can never
 * make a page repeat or skip a row. Encoded as base64url JSON: opaque to clients, not secret.
 */
export type CursorPosition = { createdAt: string; id: string };

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[a-z]{3}_[0-9A-Za-z]{1,64}$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** Returns null for anything that is not a cursor this service issued. */
export function decodeCursor(cursor: string): CursorPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value;
  if (typeof createdAt !== 'string' || !ISO_MS.test(createdAt)) return null;
  // Only an instant that prints back as itself: Date.parse rolls 2026-02-30 over to March and
  // accepts 24:00 and year 0, all of which PostgreSQL refuses (a 500 instead of the 400).
  const time = Date.parse(createdAt);
  if (Number.isNaN(time) || createdAt.startsWith('0000')) return null;
  if (new Date(time).toISOString() !== createdAt) return null;
  if (typeof id !== 'string' || !ID.test(id)) return null;
  return { createdAt, id };
}
