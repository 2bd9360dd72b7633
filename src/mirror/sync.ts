import { type Config, DEFAULT_MAX_ENTRY_MB, DEFAULT_MAX_UNZIPPED_MB } from '../config.ts';
import type { Db } from '../data/db.ts';
import {
  beginInitialLoad,
  finishInitialLoad,
  initialLoadInProgress,
} from '../data/repositories/initial-load.ts';
import { settleMarkIndexes } from '../data/repositories/marks.ts';
import {
  claimFeedLease,
  listRegisterFiles,
  type RegisterFileRecord,
  releaseFeedLease,
  renewFeedLease,
} from '../data/repositories/register-files.ts';
import { ApiError } from '../domain/errors.ts';
import { newWorkerId } from '../domain/ids.ts';
import { logFailure } from '../outage.ts';
import {
  EUIPO_API_LOCATIONS,
  type Feed,
  isSafeForSecrets,
  mayCarryApiKey,
} from '../register/feeds.ts';
import { type ListedFile, parseListing } from '../register/listing.ts';
import { syncEuipoApi } from './euipo-api.ts';
import {
  DEFAULT_HTTP_OPTIONS,
  fetchText,
  type HeadersFor,
  type HttpOptions,
} from './http-download.ts';
import { unfinishedInitialLoad } from './import.ts';
import { type FileLoad, loadFile } from './load-file.ts';
import {
  displayUrl,
  type EuipoCredentials,
  FIRST_SYNC_DAYS,
  oneLine,
  type SyncFileReport,
  type SyncOptions,
  type SyncReport,
} from './sync-types.ts';
import type { UnzipLimits } from './zip-entries.ts';

export {
  FIRST_SYNC_DAYS,
  INTERRUPTED,
  type RetryNotice,
  type SlowConnectNotice,
  type SyncFileReport,
  type SyncOptions,
  type SyncProgress,
  type SyncReport,
} from './sync-types.ts';

/**
 * An HTML listing is a few hundred links, the portal's JSON for a product every file it ever
 * published (a few hundred bytes each, some MB in all); anything far larger is not a listing.
 */
const MAX_LISTING_BYTES = 20 * 1024 * 1024;
/** The feed's lease; renewed every third of it while the sync works. */
export const FEED_LEASE_SECONDS = 600;

const MIB = 1024 * 1024;

/**
 * Which listed files this sync considers: from `since` on if given; on a feed's first sync the
 * files of the newest FIRST_SYNC_DAYS days; afterwards every file from the oldest day the feed has
 * recorded on, so that new files and earlier failures are loaded and nothing older than the window
 * is. A file of a full release (backfill) is considered only with `since`, or when the feed has
 * recorded it already (a backfill file that failed is loaded again like any other).
 */
export function filesToConsider(
  listed: ListedFile[],
  known: RegisterFileRecord[],
  since: string | undefined,
): ListedFile[] {
  if (since !== undefined) return listed.filter((file) => file.date >= since);
  const recorded = new Set(known.map((row) => row.name));
  const updates = listed.filter((file) => !file.backfill || recorded.has(file.name));
  if (known.length === 0) {
    const days = [...new Set(updates.map((file) => file.date))].slice(-FIRST_SYNC_DAYS);
    return updates.filter((file) => file.date >= (days[0] ?? '9999'));
  }
  const start = known.reduce((min, row) => (row.fileDate < min ? row.fileDate : min), '9999');
  return updates.filter((file) => file.date >= start);
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

type FeedConfig = Pick<
  Config,
  | 'usptoApiKey'
  | 'euipoClientId'
  | 'euipoClientSecret'
  | 'euipoEnvironment'
  | 'euipoTokenUrl'
  | 'registerMaxEntryBytes'
  | 'registerMaxUnzippedBytes'
>;

/** The unzip limits of the configuration (REGISTER_MAX_ENTRY_MB, REGISTER_MAX_UNZIPPED_MB). */
export function unzipLimitsOf(config: FeedConfig): UnzipLimits {
  return {
    maxEntryBytes: config.registerMaxEntryBytes,
    maxTotalBytes: config.registerMaxUnzippedBytes,
  };
}

/**
 * What a sync of `feed` takes from the configuration: the USPTO key (USPTO_API_KEY), EUIPO's client
 * credentials and token endpoint (EUIPO_*), the unzip limits, and the location the feed reads when
 * the operator gives none (euipo-api: the API of EUIPO_ENVIRONMENT).
 */
export function feedSettingsOf(
  feed: Feed,
  config: FeedConfig,
): Pick<SyncOptions, 'apiKey' | 'euipo' | 'limits'> & { defaultUrl: string | null } {
  const limits = unzipLimitsOf(config);
  if (feed.kind === 'api') {
    const where = EUIPO_API_LOCATIONS[config.euipoEnvironment];
    const { euipoClientId: clientId, euipoClientSecret: clientSecret } = config;
    const euipo: EuipoCredentials | undefined =
      clientId !== undefined && clientSecret !== undefined
        ? { clientId, clientSecret, tokenUrl: config.euipoTokenUrl ?? where.token }
        : undefined;
    return { euipo, limits, defaultUrl: where.api };
  }
  const apiKey = feed.apiKey?.variable === 'USPTO_API_KEY' ? config.usptoApiKey : undefined;
  return { apiKey, limits, defaultUrl: feed.defaultUrl };
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
    `cannot read the listing of feed ${feed.name} at ${displayUrl(url)}: ${reason}`,
  );
}

/**
 * The location a sync reads, or the one-line error that says why it cannot start: no location at
 * all (euipo-bulk), or the official API without its key or credentials (before any request).
 */
function checkedLocation(options: SyncOptions): string {
  const { feed } = options;
  const url = options.url ?? feed.defaultUrl;
  if (url === null) {
    throw new ApiError('unavailable', `feed ${feed.name} has no location: ${feed.needs}`);
  }
  const key = feed.apiKey;
  if (key && options.apiKey === undefined && new URL(url).origin === key.origin) {
    throw new ApiError(
      'unavailable',
      `feed ${feed.name} reads ${url}, which needs an API key: set ${key.variable} (the key of a USPTO.gov account, from the Open Data Portal), or point the feed at a mirror with --url or REGISTER_FEEDS=${feed.name}=URL`,
    );
  }
  if (feed.kind === 'api') {
    if (options.euipo === undefined) {
      throw new ApiError('unavailable', `feed ${feed.name} cannot sync: ${feed.needs}`);
    }
    for (const [what, where] of [
      ['API', url],
      ['token endpoint', options.euipo.tokenUrl],
    ]) {
      if (!isSafeForSecrets(new URL(where as string))) {
        throw new ApiError(
          'unavailable',
          `feed ${feed.name}: the ${what} at ${displayUrl(where as string)} is not HTTPS; the client credentials go only over HTTPS (or to this machine)`,
        );
      }
    }
  }
  return url;
}

/** The listing, read and parsed; an unreadable one is an `unavailable` error naming the feed. */
async function readListing(
  options: SyncOptions,
  url: string,
  http: HttpOptions,
  headersFor: HeadersFor,
) {
  const { feed } = options;
  const attempts = http.retries + 1;
  options.onProgress?.({ phase: 'listing', file: feed.name, bytes: 0, total: null });
  try {
    const { text, contentType } = await fetchText(
      url,
      http,
      MAX_LISTING_BYTES,
      headersFor,
      (error, retry, waitMs) =>
        options.onRetry?.({
          what: `the listing of feed ${feed.name}`,
          url: displayUrl(url),
          reason: error.message,
          attempt: retry + 1,
          attempts,
          waitMs,
        }),
    );
    return parseListing(text, contentType, url, feed);
  } catch (error) {
    throw listingFailure(feed, url, error);
  }
}

/**
 * Whether this sync loads as an initial load (`marks import --initial`): when it has files to load
 * into an empty mirror (a first sync, of a full release or of the newest days), or when its own
 * earlier first sync stopped before it finished (resumed here, its row left behind). Another's
 * unfinished load is a conflict: loading around it would have the two finish each other's.
 */
async function loadsInitially(db: Db, feed: string, toLoad: boolean): Promise<boolean> {
  if (!toLoad) return (await initialLoadInProgress(db))?.feed === feed;
  const begun = await beginInitialLoad(db, feed);
  if (begun.outcome === 'busy') throw unfinishedInitialLoad(begun.feed);
  return begun.outcome !== 'not_empty';
}

/**
 * The end of a sync's initial load: the indexes built and the words counted (in one transaction),
 * unless the sync was stopped, which leaves the load for the feed's next sync to resume. Files that
 * failed do not hold it back: the mirror is whole for the files it holds, and a later sync loads
 * the others as it would after any failed file.
 */
async function endInitialLoad(
  db: Db,
  options: SyncOptions,
  files: SyncFileReport[],
  stopped: boolean,
): Promise<'finished' | 'unfinished'> {
  const { logger, feed } = options;
  if (stopped) {
    logger.warn(
      { feed: feed.name },
      'initial load of the register mirror stopped before its indexes were built: scans wait until the next sync of this feed completes it',
    );
    return 'unfinished';
  }
  await finishInitialLoad(db);
  const written = files.reduce((sum, file) => sum + file.imported + file.updated, 0);
  await settleMarkIndexes(db, written);
  logger.info({ feed: feed.name }, 'initial load of the register mirror finished');
  return 'finished';
}

/** A feed of files: its listing, then every file of the window not loaded yet, oldest first. */
async function syncFiles(
  db: Db,
  options: SyncOptions,
  url: string,
  http: HttpOptions,
): Promise<Pick<SyncReport, 'files' | 'initialLoad'>> {
  const { feed } = options;
  const headersFor = apiKeyHeaders(feed, url, options.apiKey);
  const listed = await readListing(options, url, http, headersFor);
  const known = await listRegisterFiles(db, feed.name);
  const byName = new Map(known.map((row) => [row.name, row]));
  const considered = filesToConsider(listed, known, options.since);
  const toLoad = considered.some((file) => byName.get(file.name)?.status !== 'loaded');
  const initial = await loadsInitially(db, feed.name, toLoad);
  if (initial) {
    options.logger.info(
      { feed: feed.name },
      'first sync into an empty register mirror: loading without the candidate indexes, built at the end',
    );
  }
  const load: FileLoad = {
    db,
    feedName: feed.name,
    http,
    headersFor,
    limits: options.limits ?? {
      maxEntryBytes: DEFAULT_MAX_ENTRY_MB * MIB,
      maxTotalBytes: DEFAULT_MAX_UNZIPPED_MB * MIB,
    },
    options,
    initial,
  };
  const files: SyncFileReport[] = [];
  for (const file of considered) {
    if (http.signal?.aborted) break;
    const row = byName.get(file.name);
    if (row?.status === 'loaded') files.push(skippedReport(row));
    else files.push(await loadFile(load, file));
  }
  if (!initial) return { files };
  return {
    files,
    initialLoad: await endInitialLoad(db, options, files, http.signal?.aborted === true),
  };
}

/**
 * One sync of a feed: a feed of files reads its listing and loads, oldest first, every file of the
 * window (see filesToConsider) not loaded yet; an API feed asks for what changed since its last
 * sync. Only one process syncs a feed at a time: a sync finding the feed's lease held fails with a
 * `conflict` error, and an unreadable listing with `unavailable`, as does a sync of a feed that
 * lacks its location, key or credentials (before any request).
 */
export async function syncFeed(db: Db, options: SyncOptions): Promise<SyncReport> {
  const { feed, logger } = options;
  const url = checkedLocation(options);
  const http: HttpOptions = {
    ...DEFAULT_HTTP_OPTIONS,
    ...options.http,
    signal: options.signal ?? options.http?.signal,
  };
  const { onSlowConnect } = options;
  if (onSlowConnect !== undefined) {
    http.onSlowConnect = (target, waitedMs) =>
      onSlowConnect({ url: displayUrl(target), waitedMs, timeoutMs: http.connectTimeoutMs });
  }
  const holder = options.holder ?? newWorkerId();
  if (!(await claimFeedLease(db, feed.name, holder, FEED_LEASE_SECONDS))) {
    throw new ApiError('conflict', `feed ${feed.name} is being synced by another process`);
  }
  const renewal = setInterval(
    () => {
      renewFeedLease(db, feed.name, holder, FEED_LEASE_SECONDS).catch((error: unknown) =>
        logFailure(logger, error, { feed: feed.name }, 'could not renew the feed lease'),
      );
    },
    (FEED_LEASE_SECONDS * 1000) / 3,
  );
  try {
    const loaded =
      feed.kind === 'api'
        ? { files: await syncEuipoApi(db, options, url, http) }
        : await syncFiles(db, options, url, http);
    return { feed: feed.name, url: displayUrl(url), ...loaded };
  } finally {
    clearInterval(renewal);
    await releaseFeedLease(db, feed.name, holder);
  }
}
