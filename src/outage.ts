// Errors that say a dependency (PostgreSQL, Redis) cannot be reached, not that a request is wrong:
// the socket errors of Node, postgres.js's connection codes, ioredis giving up on a command. The
// API answers them with a 503 (http/error-handler.ts); scans reading a standby read the primary
// instead (data/replica.ts).
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
]);
// PostgreSQL's own: connection exceptions (08…), shutting down or starting up (57P01–57P03), no
// connection slot left (53300).
const OUTAGE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

export function isDependencyOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  return typeof code === 'string' && (CONNECTION_CODES.has(code) || OUTAGE_SQLSTATE.test(code));
}
