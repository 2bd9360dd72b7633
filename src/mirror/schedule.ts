import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { type Clock, dateOf } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import {
  claimScheduledSync,
  finishScheduledSync,
  type ScheduledAttempt,
  type ScheduledOutcome,
} from '../data/repositories/register-files.ts';
import { type Feed, findFeed } from '../register/feeds.ts';
import { newWorkerId } from '../scan/scanner.ts';
import type { HttpOptions } from './http-download.ts';
import { apiKeyOf, FEED_LEASE_SECONDS, type SyncReport, syncFeed } from './sync.ts';

/** How a failed scheduled sync is tried again the same day. */
export type RetryPolicy = {
  /** Attempts a day, the first one included. */
  attempts: number;
  /** Wait after the first failed attempt; doubled after each further one. */
  backoffMs: number;
};

/**
 * Five retries after 15, 30, 60, 120 and 240 minutes: an office's outage of a few hours is
 * bridged the same day, and a file broken for good is not tried more than six times a day.
 */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, backoffMs: 15 * 60_000 };

export type ScheduleContext = {
  config: Config;
  db: Db;
  logger: Logger;
  signal: AbortSignal;
  /** Tests set the day and time. */
  clock: Clock;
  http?: Partial<HttpOptions>;
  /** Tests shorten the back-off. */
  retry?: Partial<RetryPolicy>;
};

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Runs today's scheduled sync of each configured feed once REGISTER_SYNC_AT (UTC) has passed,
 * if no process has run it yet, and tries a failed one again later the same day: the database
 * hands each attempt to one caller only, however many serve and worker processes ask, and never
 * while another process syncs the feed. A process started after the hour catches up at once.
 *
 * An attempt fails when the listing cannot be read or a file failed; it is due again after the
 * back-off (doubling), at most `attempts` times a day, then the next day's sync loads whatever it
 * left (failed files are loaded again). Files that failed in a way another try cannot change
 * today (the server has no such file, a corrupt archive) wait for the next day on their own. An attempt stopped by `signal` records its file as
 * interrupted and leaves the day due again at once, without counting the attempt.
 */
export async function runDueSyncs(context: ScheduleContext): Promise<SyncReport[]> {
  const { config, signal } = context;
  const now = dateOf(context.clock);
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  if (minutes < minutesOf(config.registerSyncAt)) return [];
  const day = now.toISOString().slice(0, 10);
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...context.retry };
  const reports: SyncReport[] = [];
  for (const configured of config.registerFeeds) {
    if (signal.aborted) break;
    const feed = findFeed(configured.name);
    if (!feed) continue;
    const attempt = await claimScheduledSync(context.db, {
      feed: feed.name,
      day,
      now,
      // A name of its own for each attempt: the feed's lease says who syncs, in the logs too.
      holder: newWorkerId(),
      leaseSeconds: FEED_LEASE_SECONDS,
      maxAttempts: retry.attempts,
    });
    if (attempt === null) {
      context.logger.debug({ feed: feed.name, day }, 'register sync of the day already claimed');
      continue;
    }
    const report = await runAttempt(context, feed, configured.url, attempt, retry);
    if (report) reports.push(report);
  }
  return reports;
}

/** One claimed attempt: the sync, then its outcome recorded for the day. */
async function runAttempt(
  context: ScheduleContext,
  feed: Feed,
  url: string | undefined,
  attempt: ScheduledAttempt,
  retry: RetryPolicy,
): Promise<SyncReport | null> {
  const { db, logger, signal } = context;
  const where = { feed: feed.name, day: attempt.day, attempt: attempt.attempt };
  logger.info(where, 'scheduled register sync');
  let report: SyncReport | null = null;
  let failure: string | null = null;
  // Only a failure that may pass is worth another attempt today (see onFileFailed).
  let retryable = false;
  try {
    report = await syncFeed(db, {
      feed,
      url,
      apiKey: apiKeyOf(feed, context.config),
      logger,
      http: context.http,
      signal,
      holder: attempt.holder,
      onFileFailed: (_, mayPass) => {
        retryable ||= mayPass;
      },
    });
    const failed = report.files.filter((file) => file.status === 'failed').length;
    if (failed > 0) failure = `${failed} of ${report.files.length} files failed`;
  } catch (error) {
    // The listing could not be read (or the database failed): that may pass.
    failure = (error as Error).message;
    retryable = true;
  }
  let outcome: ScheduledOutcome;
  if (signal.aborted) {
    outcome = { kind: 'interrupted', now: dateOf(context.clock) };
    logger.warn(where, 'register sync stopped: the process is shutting down; due again at once');
  } else if (failure === null) {
    outcome = { kind: 'done' };
    logger.info(
      { ...where, files: report?.files.length ?? 0, failed: 0 },
      'register sync finished',
    );
  } else if (!retryable) {
    outcome = { kind: 'done' };
    logger.warn(
      { ...where, reason: failure },
      'register sync finished; its failed files cannot load by trying again today (the next day tries them)',
    );
  } else if (attempt.attempt < retry.attempts) {
    const at = new Date(context.clock.now() + retry.backoffMs * 2 ** (attempt.attempt - 1));
    outcome = { kind: 'retry', at };
    logger.warn(
      { ...where, reason: failure, retryAt: at.toISOString() },
      'register sync failed; trying again later today',
    );
  } else {
    outcome = { kind: 'done' };
    logger.error(
      { ...where, reason: failure },
      'register sync failed; no attempt left today, the next day loads what it left',
    );
  }
  await finishScheduledSync(db, attempt, outcome);
  return report;
}

/**
 * The daily register sync of a scanning process (serve with SCHEDULER=on, worker): looks every
 * poll interval whether a sync (or a retry) is due, until `signal` aborts. With no feed configured
 * it returns at once: a fresh installation makes no outbound request.
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
