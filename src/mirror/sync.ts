import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import {
  claimFeedLease,
  finishRegisterFile,
  listRegisterFiles,
  type RegisterFileRecord,
  releaseFeedLease,
  renewFeedLease,
  startRegisterFile,
} from '../data/repositories/register-files.ts';
import { ApiError } from '../domain/errors.ts';
import { newWorkerId } from '../domain/ids.ts';
import { type Feed, mayCarryApiKey } from '../register/feeds.ts';
import { type ListedFile, parseListing } from '../register/listing.ts';
import {
  DEFAULT_HTTP_OPTIONS,
  DownloadError,
  downloadToFile,
  fetchText,
  type HeadersFor,
  type HttpOptions,
} from './http-download.ts';
import { importRecordFiles } from './import.ts';
import { extractZipEntries, ZipError } from './zip-entries.ts';

/** How many of the newest listed files the first sync of a feed loads when no --since is given. */
export const FIRST_SYNC_FILES = 7;
/**
 * An HTML listing is a few hundred links, the portal's JSON for a product every file it ever
 * published (a few hundred bytes each, some MB in all); anything far larger is not a listing.
 */
const MAX_LISTING_BYTES = 20 * 1024 * 1024;
/** The feed's lease; renewed every third of it while the sync works. */
export const FEED_LEASE_SECONDS = 600;

export type SyncFileReport = {
  name: string;
  status: 'loaded' | 'failed' | 'skipped';
  bytes: number | null;
  imported: number;
  updated: number;
  skipped: number;
  errors: number;
  reason?: string;
};

export type SyncReport = { feed: string; url: string; files: SyncFileReport[] };

export type SyncProgress =
  | { phase: 'download'; file: string; bytes: number; total: number | null }
  | { phase: 'import'; file: string; bytes: number; total: number };

export type SyncOptions = {
  feed: Feed;
  /** The listing's location; the feed's official one by default. */
  url?: string | undefined;
  /** YYYY-MM-DD: load the listed files dated from this day on. */
  since?: string | undefined;
  /**
   * The key of the feed's official API (`feed.apiKey`, USPTO_API_KEY): sent only to the listing's
   * origin (see mayCarryApiKey); never logged, never in a report or a message.
   */
  apiKey?: string | undefined;
  logger: Logger;
  http?: Partial<HttpOptions>;
  onProgress?: (progress: SyncProgress) => void;
  /**
   * Told of each file that failed, and whether loading it again soon may succeed (`mayPass`: a
   * network error, a time-out, a server error, a database error) or not (the server has no such
   * file or refuses it, the archive is corrupt): the daily sync retries only for the former.
   */
  onFileFailed?: (file: string, mayPass: boolean) => void;
  /** Who holds the feed's lease (a process id for the logs); a new one by default. */
  holder?: string;
  /**
   * Stops the sync (the process is shutting down): the download in hand is cut, an import stops
   * between two batches, the file is recorded as failed (interrupted) and no further file is begun.
   */
  signal?: AbortSignal | undefined;
};

/**
 * Which listed files this sync considers: from `since` on if given; on a feed's first sync the
 * newest FIRST_SYNC_FILES; afterwards every file from the oldest one the feed has recorded on,
 * so that new files and earlier failures are loaded and nothing older than the window is.
 */
function filesToConsider(
  listed: ListedFile[],
  known: RegisterFileRecord[],
  since: string | undefined,
): ListedFile[] {
  if (since !== undefined) return listed.filter((file) => file.date >= since);
  if (known.length === 0) return listed.slice(-FIRST_SYNC_FILES);
  const start = known.reduce((min, row) => (row.fileDate < min ? row.fileDate : min), '9999');
  return listed.filter((file) => file.date >= start);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The reason recorded for a file whose load was stopped by the process shutting down. */
export const INTERRUPTED = 'interrupted: the sync was stopped before the file was loaded';

/**
 * Whether a file that failed this way may load if tried again in a while. Not when the server
 * answered that it has no such file or refuses it (404, 403…), nor when what it sent is not a
 * sound archive: the same request would get the same answer, and the office's download quota (per
 * file and key) would pay for it.
 */
function mayPass(error: unknown): boolean {
  if (error instanceof DownloadError) return error.retryable;
  return !(error instanceof ZipError);
}

/** Downloads, verifies and imports one file; records the outcome. Never throws for the file. */
async function loadFile(
  db: Db,
  feedName: string,
  file: ListedFile,
  http: HttpOptions,
  headersFor: HeadersFor,
  options: SyncOptions,
): Promise<SyncFileReport> {
  const { logger, onProgress } = options;
  const { signal } = http;
  await startRegisterFile(db, {
    feed: feedName,
    name: file.name,
    url: file.url,
    fileDate: file.date,
  });
  const dir = await mkdtemp(join(tmpdir(), 'tmwatch-sync-'));
  let download: { bytes: number; sha256: string } | null = null;
  try {
    download = await downloadToFile(file.url, join(dir, 'download'), http, {
      headersFor,
      onProgress: (bytes, total) =>
        onProgress?.({ phase: 'download', file: file.name, bytes, total }),
      // Info, not a warning: a retry that succeeds is no failure, and a one-shot sync logs only
      // warnings (its stderr stays empty when every file loads). A file that fails for good is.
      onRetry: (error, attempt) =>
        logger.info(
          { feed: feedName, file: file.name, attempt, reason: error.message },
          'retrying',
        ),
    });
    const entries = await extractZipEntries(join(dir, 'download'), dir, signal);
    await rm(join(dir, 'download'));
    if (entries.length === 0) throw new ZipError('the zip archive holds no file');
    const summary = await importRecordFiles(db, entries, {
      // Records that do not say which day's version they are take the file's date.
      asOf: file.date,
      signal,
      onProgress: ({ bytesRead, totalBytes }) =>
        onProgress?.({ phase: 'import', file: file.name, bytes: bytesRead, total: totalBytes }),
    });
    const report: SyncFileReport = {
      name: file.name,
      status: 'loaded',
      bytes: download.bytes,
      imported: summary.imported,
      updated: summary.updated,
      skipped: summary.skipped,
      errors: summary.errors.length,
    };
    await finishRegisterFile(db, feedName, file.name, {
      status: 'loaded',
      bytes: download.bytes,
      sha256: download.sha256,
      imported: summary.imported,
      updated: summary.updated,
      skipped: summary.skipped,
      errors: summary.errors.length,
      reason: null,
    });
    logger.info({ feed: feedName, ...report }, 'register file loaded');
    return report;
  } catch (error) {
    // A broken file is reported and the sync goes on; its records already imported stay, and
    // loading it again later upserts the same records (the importer is idempotent). A stopped
    // sync's file is recorded the same way, so the next sync loads it again.
    const reason = signal?.aborted
      ? INTERRUPTED
      : oneLine((error as Error).message || String(error));
    await finishRegisterFile(db, feedName, file.name, {
      status: 'failed',
      bytes: download?.bytes ?? null,
      sha256: download?.sha256 ?? null,
      imported: null,
      updated: null,
      skipped: null,
      errors: null,
      reason,
    });
    logger.warn({ feed: feedName, file: file.name, reason }, 'register file failed');
    options.onFileFailed?.(file.name, mayPass(error));
    return {
      name: file.name,
      status: 'failed',
      bytes: download?.bytes ?? null,
      imported: 0,
      updated: 0,
      skipped: 0,
      errors: 0,
      reason,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function skippedReport(row: RegisterFileRecord): SyncFileReport {
  return {
    name: row.name,
    status: 'skipped',
    bytes: row.bytes,
    imported: 0,
    updated: 0,
    skipped: 0,
    errors: 0,
  };
}

/** Every register file a feed (or every feed) has seen, for `tmwatch registers list`. */
export function registerFilesSeen(db: Db, feed?: string): Promise<RegisterFileRecord[]> {
  return listRegisterFiles(db, feed);
}

/** The key the feed's official API wants, from the configuration (USPTO_API_KEY for the USPTO). */
export function apiKeyOf(feed: Feed, config: Pick<Config, 'usptoApiKey'>): string | undefined {
  return feed.apiKey?.variable === 'USPTO_API_KEY' ? config.usptoApiKey : undefined;
}

/** The key's header on the requests that may carry it (mayCarryApiKey), on no other. */
function apiKeyHeaders(feed: Feed, listingUrl: string, apiKey: string | undefined): HeadersFor {
  const header = feed.apiKey?.header;
  if (header === undefined || apiKey === undefined) return () => ({});
  const listing = new URL(listingUrl);
  return (target) => (mayCarryApiKey(target, listing) ? { [header]: apiKey } : {});
}

/** Why a listing could not be read, with what an operator can do about a refused key. */
function listingFailure(feed: Feed, url: string, error: unknown): ApiError {
  let reason = oneLine((error as Error).message || String(error));
  const key = feed.apiKey;
  if (key && new URL(url).origin === key.origin && /^HTTP 40[13]\b/.test(reason)) {
    reason += ` (the API refused the key: check ${key.variable})`;
  }
  return new ApiError(
    'unavailable',
    `cannot read the listing of feed ${feed.name} at ${url}: ${reason}`,
  );
}

/**
 * One sync of a feed: reads its listing and loads, oldest first, every file of the window (see
 * filesToConsider) not loaded yet. Only one process syncs a feed at a time: a sync finding the
 * feed's lease held fails with a `conflict` error, and an unreadable listing with `unavailable`,
 * as does a sync of the feed's official API without its key (before any request).
 */
export async function syncFeed(db: Db, options: SyncOptions): Promise<SyncReport> {
  const { feed, logger } = options;
  const url = options.url ?? feed.defaultUrl;
  const key = feed.apiKey;
  if (key && options.apiKey === undefined && new URL(url).origin === key.origin) {
    throw new ApiError(
      'unavailable',
      `feed ${feed.name} reads ${url}, which needs an API key: set ${key.variable} (the key of a USPTO.gov account, from the Open Data Portal), or point the feed at a mirror with --url or REGISTER_FEEDS=${feed.name}=URL`,
    );
  }
  const headersFor = apiKeyHeaders(feed, url, options.apiKey);
  const http: HttpOptions = {
    ...DEFAULT_HTTP_OPTIONS,
    ...options.http,
    signal: options.signal ?? options.http?.signal,
  };
  const holder = options.holder ?? newWorkerId();
  if (!(await claimFeedLease(db, feed.name, holder, FEED_LEASE_SECONDS))) {
    throw new ApiError('conflict', `feed ${feed.name} is being synced by another process`);
  }
  const renewal = setInterval(
    () => {
      renewFeedLease(db, feed.name, holder, FEED_LEASE_SECONDS).catch((error: unknown) =>
        logger.warn({ err: error, feed: feed.name }, 'could not renew the feed lease'),
      );
    },
    (FEED_LEASE_SECONDS * 1000) / 3,
  );
  try {
    let listed: ListedFile[];
    try {
      const { text, contentType } = await fetchText(url, http, MAX_LISTING_BYTES, headersFor);
      listed = parseListing(text, contentType, url, feed);
    } catch (error) {
      throw listingFailure(feed, url, error);
    }
    const known = await listRegisterFiles(db, feed.name);
    const byName = new Map(known.map((row) => [row.name, row]));
    const files: SyncFileReport[] = [];
    for (const file of filesToConsider(listed, known, options.since)) {
      if (http.signal?.aborted) break;
      const row = byName.get(file.name);
      if (row?.status === 'loaded') files.push(skippedReport(row));
      else files.push(await loadFile(db, feed.name, file, http, headersFor, options));
    }
    return { feed: feed.name, url, files };
  } finally {
    clearInterval(renewal);
    await releaseFeedLease(db, feed.name, holder);
  }
}
