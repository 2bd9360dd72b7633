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
import { newWorkerId } from '../domain/ids.ts';
import { type Feed, findFeed } from '../register/feeds.ts';
import { drainQueue, type Queue } from '../runner.ts';
import type { HttpOptions } from './http-download.ts';
import { FEED_LEASE_SECONDS, feedSettingsOf, type SyncReport, syncFeed } from './sync.ts';

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
  /** Tests set the day and time. */
  clock: Clock;
  http?: Partial<HttpOptions>;
  /** Tests shorten the back-off. */
  retry?: Partial<RetryPolicy>;
};

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A claimed attempt at a feed's sync of the day. */
type DueAttempt = { feed: Feed; url: string | undefined; attempt: ScheduledAttempt };

/**
 * Claims the attempts due now, up to `limit`, feed by feed in the order of REGISTER_FEEDS (none
 * before REGISTER_SYNC_AT): the database hands each attempt to one caller only, however many serve
 * and worker processes ask, and never while another process syncs the feed. `skip`: feeds not to
 * claim (already tried in this pass).
 */
async function claimDueAttempts(
  context: ScheduleContext,
  retry: RetryPolicy,
  limit: number,
  skip: ReadonlySet<string>,
): Promise<DueAttempt[]> {
  const { config } = context;
  const now = dateOf(context.clock);
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  if (minutes < minutesOf(config.registerSyncAt)) return [];
  const day = now.toISOString().slice(0, 10);
  const due: DueAttempt[] = [];
  for (const configured of config.registerFeeds) {
    if (due.length >= limit) break;
    const feed = findFeed(configured.name);
    if (!feed || skip.has(feed.name)) continue;
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
    due.push({ feed, url: configured.url, attempt });
  }
  return due;
}

/**
 * Today's scheduled sync of each configured feed, as a queue of the background runner (serve with
 * SCHEDULER=on, worker): due once REGISTER_SYNC_AT (UTC) has passed, if no process has run it yet,
 * and again later the same day after a failure. A process started after the hour catches up at
 * once. Null when no feed is configured: a fresh installation makes no outbound request.
 *
 * An attempt fails when the listing cannot be read or a file failed; it is due again after the
 * back-off (doubling), at most `attempts` times a day, then the next day's sync loads whatever it
 * left (failed files are loaded again). Files that failed in a way another try cannot change
 * today (the server has no such file, a corrupt archive) wait for the next day on their own. An
 * attempt stopped by the runner's signal records its file as interrupted and leaves the day due
 * again at once, without counting the attempt.
 */
export function registerSyncQueue(
  context: ScheduleContext,
  options: { oncePerFeed?: boolean } = {},
): Queue<DueAttempt, SyncReport | null> | null {
  if (context.config.registerFeeds.length === 0) return null;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...context.retry };
  const tried = new Set<string>();
  return {
    name: 'register sync',
    slots: 1,
    async claim(limit) {
      const due = await claimDueAttempts(context, retry, limit, tried);
      if (options.oncePerFeed) for (const { feed } of due) tried.add(feed.name);
      return due;
    },
    work: (due, signal) => runAttempt(context, due, retry, signal),
  };
}

/**
 * One pass of the schedule: each configured feed's attempt that is due now, run in turn until
 * `signal` aborts; returns the reports of the attempts that ran.
 */
export async function runDueSyncs(
  context: ScheduleContext & { signal: AbortSignal },
): Promise<SyncReport[]> {
  // One attempt per feed in a pass, whatever its outcome.
  const queue = registerSyncQueue(context, { oncePerFeed: true });
  if (queue === null) return [];
  const reports = await drainQueue(queue, context.logger, context.signal);
  return reports.filter((report) => report !== null);
}

/** One claimed attempt: the sync, then its outcome recorded for the day. */
async function runAttempt(
  context: ScheduleContext,
  { feed, url, attempt }: DueAttempt,
  retry: RetryPolicy,
  signal: AbortSignal,
): Promise<SyncReport | null> {
  const { db, logger } = context;
  const where = { feed: feed.name, day: attempt.day, attempt: attempt.attempt };
  logger.info(where, 'scheduled register sync');
  let report: SyncReport | null = null;
  let failure: string | null = null;
  // Only a failure that may pass is worth another attempt today (see onFileFailed).
  let retryable = false;
  const { defaultUrl, ...settings } = feedSettingsOf(feed, context.config);
  try {
    report = await syncFeed(db, {
      feed,
      url: url ?? defaultUrl ?? undefined,
      ...settings,
      logger,
      http: context.http,
      signal,
      holder: attempt.holder,
      clock: context.clock,
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
