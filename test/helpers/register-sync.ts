import { after, before, beforeEach } from 'node:test';
import pino from 'pino';
import type { Db } from '../../src/data/db.ts';
import { type SyncOptions, syncFeed } from '../../src/mirror/sync.ts';
import { usptoDaily } from '../../src/register/feeds.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { type FeedServer, startFeedServer, zipOf } from './feed-server.ts';

/** Real USPTO files of the daily format (test/fixtures/uspto/PROVENANCE.md). */
export const SEED_ZIP = 'test/fixtures/uspto/seed-11-case-files.zip';
export const WRAPPER_XML = 'test/fixtures/uspto/DERIVED_apc_wrapper_3records.xml';
export const SUVENEER_XML = 'test/fixtures/uspto/tmterminal_daily-na-98763166.xml';

export const quietLogger = pino({ level: 'silent' });

/** Short time-outs and back-off, so that failure paths take milliseconds. */
export const FAST_HTTP = { connectTimeoutMs: 2000, idleTimeoutMs: 300, retries: 2, backoffMs: 10 };

/** A sync of the test feed with the fast settings. */
export function sync(db: Db, server: FeedServer, options: Partial<SyncOptions> = {}) {
  return syncFeed(db, {
    feed: usptoDaily,
    url: server.url,
    logger: quietLogger,
    http: FAST_HTTP,
    ...options,
  });
}

/** The daily zip holding one real case-file (SUVENEER, US serial 98763166). */
export const suveneerZip = () => zipOf({ 'apc.xml': SUVENEER_XML });
/** Three real case-files in a daily-file root (two import, one is skipped: status only). */
export const wrapperZip = () => zipOf({ 'apc.xml': WRAPPER_XML });

/** The mirror's content, without the columns that record when and in which order rows came. */
export async function mirrorSnapshot(db: Db) {
  return db.query(
    `SELECT external_id, mark_text, owner_name, owner_country_code, jurisdiction, designations,
            filed_at, registered_at, status, classes, raw_payload, tokens, sound_codes
       FROM marks ORDER BY external_id`,
  );
}

export type SyncTestContext = { database: TestDatabase; db: Db; server: FeedServer };

/**
 * The hooks of a sync test file: a fresh database and a local feed for the file, and before
 * each test an empty mirror, no file records or feed leases, and a feed serving nothing.
 */
export function syncTestContext(): SyncTestContext {
  const context = {} as SyncTestContext;
  before(async () => {
    context.database = await createTestDatabase();
    context.db = context.database.db;
    context.server = await startFeedServer();
  });
  after(async () => {
    await context.server.close();
    await context.database.drop();
  });
  beforeEach(async () => {
    await context.db.query('DELETE FROM marks');
    await context.db.query('DELETE FROM register_files');
    await context.db.query('DELETE FROM register_feeds');
    context.server.reset();
  });
  return context;
}
