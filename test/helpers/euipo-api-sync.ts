import { after, before, beforeEach } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { type SyncOptions, syncFeed } from '../../src/mirror/sync.ts';
import { euipoApi } from '../../src/register/feeds.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { type EuipoDouble, fixtureItems, startEuipoDouble } from './euipo-api-double.ts';
import { FAST_HTTP, quietLogger } from './register-sync.ts';

/** The day the tests' syncs run on (the API's window of days is counted from it). */
export const TODAY = new Date('2026-03-10T08:00:00Z');
export const TOMORROW = new Date('2026-03-11T08:00:00Z');

export type EuipoTestContext = { database: TestDatabase; db: Db; double: EuipoDouble };

/**
 * A test file's database and API double; before each test an empty mirror, no windows recorded,
 * and the double's register holding the fixture items, changed on 2026-03-05 (in the first
 * sync's 7 days), the published example excepted (changed on 2026-01-15, before them).
 */
export function euipoTestContext(): EuipoTestContext {
  const context = {} as EuipoTestContext;
  before(async () => {
    context.database = await createTestDatabase();
    context.db = context.database.db;
    context.double = await startEuipoDouble();
  });
  after(async () => {
    await context.double.close();
    await context.database.drop();
  });
  beforeEach(async () => {
    await context.db.query('DELETE FROM marks');
    await context.db.query('DELETE FROM register_files');
    await context.db.query('DELETE FROM register_feeds');
    context.double.reset();
    const [example, ...derived] = fixtureItems();
    context.double.register = [
      { updateDate: '2026-01-15', item: example as Record<string, unknown> },
      ...derived.map((item) => ({ updateDate: '2026-03-05', item })),
    ];
  });
  return context;
}

/** A sync of the euipo-api feed against the double, on TODAY, with short time-outs. */
export function apiSync(double: EuipoDouble, db: Db, options: Partial<SyncOptions> = {}) {
  return syncFeed(db, {
    feed: euipoApi,
    url: double.apiUrl,
    euipo: {
      clientId: double.clientId,
      clientSecret: double.clientSecret,
      tokenUrl: double.tokenUrl,
    },
    logger: quietLogger,
    http: FAST_HTTP,
    clock: { now: () => TODAY.getTime() },
    ...options,
  });
}
