import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Feed } from '../register/feeds.ts';
import type { HttpOptions } from './http-download.ts';
import type { UnzipLimits } from './zip-entries.ts';

export type SyncFileReport = {
  name: string;
  status: 'loaded' | 'failed' | 'skipped';
  bytes: number | null;
  imported: number;
  updated: number;
  skipped: number;
  errors: number;
  /** Records the office deleted in the file, which the mirror deleted; absent when none. */
  deleted?: number;
  reason?: string;
};

export type SyncReport = {
  feed: string;
  url: string;
  files: SyncFileReport[];
  /**
   * A sync into an empty mirror loads as an initial load (sync.ts): `finished` when its indexes
   * were built at the end, `unfinished` when it was stopped first (scans wait; the feed's next
   * sync resumes it). Absent for an ordinary sync.
   */
  initialLoad?: 'finished' | 'unfinished';
};

/**
 * What a sync is doing, for progress bars: reading the listing, downloading and importing a file
 * (bytes; `total` null when the server does not say), or asking an API for its marks (`marks`:
 * counts of marks, not bytes).
 */
export type SyncProgress =
  | { phase: 'listing'; file: string; bytes: number; total: number | null }
  | { phase: 'download'; file: string; bytes: number; total: number | null }
  | { phase: 'import'; file: string; bytes: number; total: number }
  | { phase: 'marks'; file: string; bytes: number; total: number | null };

/**
 * A request that failed in a way that may pass and is about to be tried again: what it was for
 * (`the listing of feed …`, `file …`), its URL without credentials, why, and when. For the one
 * line `registers sync` writes on stderr, so that a sync waiting on an unreachable server says so.
 */
export type RetryNotice = {
  what: string;
  url: string;
  reason: string;
  /** The attempt about to be made (2 for the first retry), of `attempts` in all. */
  attempt: number;
  attempts: number;
  waitMs: number;
};

/**
 * A request whose connection has not opened after `waitedMs`: its URL without credentials, and how
 * long it is given in all (`timeoutMs`) before it fails and is retried.
 */
export type SlowConnectNotice = { url: string; waitedMs: number; timeoutMs: number };

/** The client credentials of EUIPO's Trademark Search API, and where its token endpoint is. */
export type EuipoCredentials = { clientId: string; clientSecret: string; tokenUrl: string };

export type SyncOptions = {
  feed: Feed;
  /** The listing's location (the API's base URL); the feed's official one by default. */
  url?: string | undefined;
  /** YYYY-MM-DD: load the listed files dated from this day on (the API: marks changed since). */
  since?: string | undefined;
  /**
   * The key of the feed's official API (`feed.apiKey`, USPTO_API_KEY): sent only to the listing's
   * origin (see mayCarryApiKey); never logged, never in a report or a message.
   */
  apiKey?: string | undefined;
  /** euipo-api's client credentials; secrets, sent only to the token endpoint and the API. */
  euipo?: EuipoCredentials | undefined;
  /** How many bytes a file may unzip to; the configured limits by default. */
  limits?: UnzipLimits | undefined;
  logger: Logger;
  http?: Partial<HttpOptions>;
  onProgress?: (progress: SyncProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  /** A request still not connected after a couple of seconds: said at once on the command line. */
  onSlowConnect?: (notice: SlowConnectNotice) => void;
  /**
   * Told of each file that failed, and whether loading it again soon may succeed (`mayPass`: a
   * network error, a time-out, a server error, a database error) or not (the server has no such
   * file or refuses it, the archive is corrupt or over the unzip limits): the daily sync retries
   * only for the former.
   */
  onFileFailed?: (file: string, mayPass: boolean) => void;
  /** The clock (the API's window of days, its token's lifetime); tests set the day. */
  clock?: Clock;
  /** Who holds the feed's lease (a process id for the logs); a new one by default. */
  holder?: string;
  /**
   * Stops the sync (the process is shutting down): the download in hand is cut, an import stops
   * between two batches, the file is recorded as failed (interrupted) and no further file is begun.
   */
  signal?: AbortSignal | undefined;
};

/**
 * How many of the newest days the first sync of a feed loads when no --since is given: the files
 * of the 7 newest days listed, or the API's marks changed in the last 7 days.
 */
export const FIRST_SYNC_DAYS = 7;

/** The reason recorded for a file whose load was stopped by the process shutting down. */
export const INTERRUPTED = 'interrupted: the sync was stopped before the file was loaded';

export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A URL as messages show it: without a user name or password it may carry (a mirror's login). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
