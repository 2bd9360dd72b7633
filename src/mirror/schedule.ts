import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import { claimScheduledDay } from '../data/repositories/register-files.ts';
import { findFeed } from '../register/feeds.ts';
import type { HttpOptions } from './http-download.ts';
import { apiKeyOf, type SyncReport, syncFeed } from './sync.ts';

export type ScheduleContext = {
  config: Config;
  db: Db;
  logger: Logger;
  signal: AbortSignal;
  /** The clock; tests set the day and time. */
  now?: () => Date;
  http?: Partial<HttpOptions>;
};

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Runs today's scheduled sync of each configured feed once REGISTER_SYNC_AT (UTC) has passed,
 * if no process has run it yet: the database hands each feed's day to one caller only, however
 * many serve and worker processes ask. A process started after the hour catches up at once. A
 * failed sync is logged; the next day's loads whatever it left (failed files are loaded again).
 */
export async function runDueSyncs(context: ScheduleContext): Promise<SyncReport[]> {
  const { config, db, logger, signal } = context;
  const now = (context.now ?? (() => new Date()))();
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  if (minutes < minutesOf(config.registerSyncAt)) return [];
  const day = now.toISOString().slice(0, 10);
  const reports: SyncReport[] = [];
  for (const configured of config.registerFeeds) {
    if (signal.aborted) break;
    const feed = findFeed(configured.name);
    if (!feed) continue;
    if (!(await claimScheduledDay(db, feed.name, day))) {
      logger.debug({ feed: feed.name, day }, 'register sync of the day already claimed');
      continue;
    }
    logger.info({ feed: feed.name, day }, 'scheduled register sync');
    try {
      const report = await syncFeed(db, {
        feed,
        url: configured.url,
        apiKey: apiKeyOf(feed, config),
        logger,
        http: { ...context.http, signal },
      });
      const failed = report.files.filter((file) => file.status === 'failed').length;
      const log = failed > 0 ? logger.warn.bind(logger) : logger.info.bind(logger);
      log({ feed: feed.name, files: report.files.length, failed }, 'register sync finished');
      reports.push(report);
    } catch (error) {
      logger.error({ feed: feed.name, reason: (error as Error).message }, 'register sync failed');
    }
  }
  return reports;
}

/**
 * The daily register sync of a scanning process (serve with SCHEDULER=on, worker): looks every
 * poll interval whether a sync is due, until `signal` aborts. With no feed configured it returns
 * at once: a fresh installation makes no outbound request.
 */
export async function runRegisterSyncLoop(context: ScheduleContext): Promise<void> {
  const { config, logger, signal } = context;
  if (config.registerFeeds.length === 0) return;
  logger.info(
    { feeds: config.registerFeeds.map((feed) => feed.name), at: config.registerSyncAt },
    'register sync scheduled daily (UTC)',
  );
  while (!signal.aborted) {
    try {
      await runDueSyncs(context);
    } catch (error) {
      logger.error({ err: error }, 'register sync pass failed');
    }
    await sleep(config.scanPollSeconds * 1000, undefined, { signal }).catch(() => {});
  }
}
