/**
 * The `skip` option of a suite that needs a PostgreSQL server (and, with `redis`, a Redis server
 * too): false when DATABASE_URL (and REDIS_URL) are set, else why it is skipped. The test runner
 * (scripts/run-tests.mjs) finds the files that call it and names them in its summary whenever it
 * runs without those servers, so a run on PGlite never looks more complete than it was.
 */
export function postgresOnly(why: string, needs: { redis?: boolean } = {}): string | false {
  const missing = [
    process.env.DATABASE_URL ? null : 'DATABASE_URL',
    needs.redis && !process.env.REDIS_URL ? 'REDIS_URL' : null,
  ].filter((name) => name !== null);
  return missing.length > 0 ? `needs ${missing.join(' and ')}: ${why}` : false;
}
