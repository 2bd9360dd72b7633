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

/** A logger that keeps its lines (parsed), for tests of what a process says. */
export function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines, messages: () => lines.map((line) => String(line.msg)) };
}

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

const uspto = (name: string) => `test/fixtures/uspto/tmterminal_${name}.xml`;
/**
 * Two days of the daily feed made of real case-files, three of them in both: their earlier
 * versions (transaction-date 2024-09-14) in the first day's file, their later ones (2024-09-25)
 * in the second's. Each file also holds a case-file of its own.
 */
export const twoDays = async () => ({
  '240914': await zipOf({
    '1.xml': uspto('revival-before-98186103'),
    '2.xml': uspto('publication-before-79366581'),
    '3.xml': uspto('goods-before-replacement-75932504'),
    '4.xml': uspto('registration-evidence-98423838'),
  }),
  '240925': await zipOf({
    '1.xml': uspto('revival-after-98186103'),
    '2.xml': uspto('publication-after-79366581'),
    '3.xml': uspto('goods-after-replacement-75932504'),
    '4.xml': SUVENEER_XML,
  }),
});

/** The mirror's content, without the columns that record when and in which order rows came. */
export async function mirrorSnapshot(db: Db) {
  return db.query(
    `SELECT external_id, mark_text, owner_name, owner_country_code, jurisdiction, designations,
            filed_at, registered_at, status, classes, raw_payload, k.tokens, k.sound_codes,
            to_char(as_of, 'YYYY-MM-DD') AS as_of
       FROM marks m JOIN mark_keys k ON k.id = m.id ORDER BY external_id`,
  );
}

export type SyncTestContext = { database: TestDatabase; db: Db; server: FeedServer };

/**
 * The hooks of a sync test file: a fresh database and a local feed for the file, and before
 * each test an empty mirror (no marks, no applicants), no file records or feed leases, and a feed
 * serving nothing.
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
    await context.db.query('DELETE FROM register_parties');
    context.server.reset();
  });
  return context;
}
