// Whether an error says that a dependency (PostgreSQL, Redis) cannot be reached or cannot serve
// now, rather than that a request or the code is wrong. The API answers such an error 503 with
// Retry-After, the background runner waits for the next round, and both log it as one line
// without a stack: during an outage every request and every claim fails the same way.

// Node's socket errors, postgres.js's connection codes, the deadline of src/data/db.ts.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'STATEMENT_TIMEOUT',
]);

// PostgreSQL's SQLSTATEs of a server that cannot serve now: connection exceptions (08…), no
// connection slot left (53300), a statement cancelled by a deadline (57014), shutting down,
// starting up or the database gone (57P01–57P05).
const OUTAGE_SQLSTATE = /^(08...|53300|57014|57P0[1-5])$/;

// 55000 (object_not_in_prerequisite_state) is what a database that refuses connections answers
// (ALTER DATABASE … ALLOW_CONNECTIONS false), but statements raise it too (currval before
// nextval), which are bugs: only a FATAL one, which ends the connection, is an outage. A FATAL or
// PANIC error of any code ends the session, which is never the request's doing.
const ENDS_SESSION = new Set(['FATAL', 'PANIC']);

export function isDependencyOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, severity } = error as { code?: unknown; name?: unknown; severity?: unknown };
  // ioredis giving up on a command, and the ApiError 'unavailable' of the rate-limit store.
  if (name === 'MaxRetriesPerRequestError') return true;
  if (name === 'ApiError' && (error as { kind?: unknown }).kind === 'unavailable') return true;
  if (typeof severity === 'string' && ENDS_SESSION.has(severity)) return true;
  return typeof code === 'string' && (CONNECTION_CODES.has(code) || OUTAGE_SQLSTATE.test(code));
}

/** The driver's own words for an outage, for the log line: code and message, never a stack. */
export function outageReason(error: unknown): string {
  const { cause } = (error ?? {}) as { cause?: unknown };
  const inner = (error as { name?: unknown } | null)?.name === 'ApiError' && cause ? cause : error;
  const { code, message } = (inner ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string').join(': ') || 'unknown';
}

type Log = {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

/**
 * Logs a failure of work that goes on (a background item, bookkeeping): an outage as one warning
 * with its reason and no stack, anything else as an error with its stack.
 */
export function logFailure(logger: Log, error: unknown, fields: object, what: string): void {
  if (isDependencyOutage(error)) {
    logger.warn({ ...fields, reason: outageReason(error) }, `${what}: unavailable`);
  } else logger.error({ ...fields, err: error }, what);
}
