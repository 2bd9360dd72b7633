import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, dateOf, systemClock } from '../clock.ts';
import type { Db } from '../data/db.ts';
import {
  finishRegisterFile,
  listRegisterFiles,
  type RegisterFileRecord,
  startRegisterFile,
} from '../data/repositories/register-files.ts';
import { type ApiPage, euipoApiRecord, parseApiPage } from '../register/euipo-api.ts';
import { isSafeForSecrets } from '../register/feeds.ts';
import {
  DownloadError,
  type FetchedText,
  fetchText,
  type HeadersFor,
  type HttpOptions,
  withRetries,
} from './http-download.ts';
import { errorCount, importRecordFiles } from './import.ts';
import {
  displayUrl,
  type EuipoCredentials,
  FIRST_SYNC_DAYS,
  INTERRUPTED,
  oneLine,
  type SyncFileReport,
  type SyncOptions,
} from './sync-types.ts';

/** The largest page the API serves (its OpenAPI document: `size` 10..100). */
const PAGE_SIZE = 100;
/** A page of 100 items is some hundred KB; far more is not one. */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** A token answer is a few hundred bytes. */
const MAX_TOKEN_BYTES = 64 * 1024;
/** A token is renewed this long before the end of its life, so that no page meets it expiring. */
const TOKEN_MARGIN_MS = 60_000;
/** The longest wait for the rate limit's window to reset; a longer one fails the sync. */
const MAX_RATE_WAIT_MS = 15 * 60_000;
const USER_AGENT = 'trademark-watch register sync';
const DAY_MS = 86_400_000;

/** The days a sync asks for: marks filed or changed from `from` on, recorded under `name`. */
export type ApiWindow = { from: string; to: string; name: string };

/** The day a window was asked on: the end of its name (`changes_FROM_TO`). */
const windowEnd = (name: string) => /_(\d{4}-\d{2}-\d{2})$/.exec(name)?.[1] ?? null;

/**
 * Which days this sync asks for (`updateDate>=from`), as the window's row in register_files: from
 * `since` if given; else from the day the last loaded window was asked on (updateDate is a day, so
 * that day is asked again: what changed later that day is not missed); else, after windows that
 * all failed, from the oldest of them (what they missed); on the first sync, the last
 * FIRST_SYNC_DAYS days. A window is named by its days: asked again on the same day, it is the same
 * row, loaded again (what changed since is asked for, never skipped as a loaded file is).
 */
export function apiWindow(
  known: RegisterFileRecord[],
  since: string | undefined,
  now: Date,
): ApiWindow {
  const to = now.toISOString().slice(0, 10);
  const ends = known.filter((row) => row.status === 'loaded').map((row) => windowEnd(row.name));
  const lastLoaded = ends
    .filter((end): end is string => end !== null)
    .sort()
    .at(-1);
  const oldestFailed = known.map((row) => row.fileDate).sort()[0];
  const firstDay = new Date(now.getTime() - FIRST_SYNC_DAYS * DAY_MS).toISOString().slice(0, 10);
  const from = since ?? lastLoaded ?? oldestFailed ?? firstDay;
  return { from, to, name: `changes_${from}_${to}` };
}

type Token = { value: string; expiresAt: number };

/** A failure of the token endpoint, told apart from the API's own answers. */
class TokenError extends DownloadError {}

/** Reads a response body up to `max` bytes: a token endpoint that sends more is not one. */
async function boundedText(response: Response, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > max) throw new TokenError(`the token endpoint's answer is over ${max} bytes`, false);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why the token endpoint said no, in words an operator can act on; never the secret. */
function tokenRefused(response: Response): DownloadError {
  const status = response.status;
  const hint =
    status === 400 || status === 401 || status === 403
      ? ': the client credentials were refused (check EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET, and EUIPO_ENVIRONMENT: sandbox and production credentials differ)'
      : '';
  const wait = Number(response.headers.get('retry-after'));
  return new TokenError(
    `HTTP ${status} from the token endpoint${hint}`,
    status >= 500 || status === 429,
    status,
    Number.isFinite(wait) && wait > 0 ? Math.min(wait * 1000, MAX_RATE_WAIT_MS) : undefined,
  );
}

/**
 * An access token by OAuth2 client credentials (`grant_type=client_credentials`, scope `uid`):
 * the client id and secret are posted to the token endpoint only, never across a redirect (a
 * redirect is an error), and appear in no message.
 */
async function requestToken(
  credentials: EuipoCredentials,
  http: HttpOptions,
  clock: Clock,
): Promise<Token> {
  return withRetries(http, async () => {
    const timeout = AbortSignal.timeout(http.connectTimeoutMs + http.idleTimeoutMs);
    const signal = http.signal ? AbortSignal.any([http.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(credentials.tokenUrl, {
        method: 'POST',
        headers: { accept: 'application/json', 'user-agent': USER_AGENT },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          scope: 'uid',
        }),
        redirect: 'error',
        signal,
      });
    } catch (error) {
      const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new TokenError(`the token endpoint cannot be reached (${cause})`, true);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw tokenRefused(response);
    }
    let json: { access_token?: unknown; expires_in?: unknown };
    try {
      json = JSON.parse(await boundedText(response, MAX_TOKEN_BYTES));
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      throw new TokenError('the token endpoint did not answer JSON', false);
    }
    if (typeof json.access_token !== 'string' || json.access_token === '') {
      throw new TokenError('the token endpoint gave no access_token', false);
    }
    const lifeMs = typeof json.expires_in === 'number' ? json.expires_in * 1000 : 0;
    return { value: json.access_token, expiresAt: clock.now() + lifeMs - TOKEN_MARGIN_MS };
  });
}

/** The client of one sync: its token (renewed when it ends or is refused) and its pages. */
class EuipoClient {
  private token: Token | null = null;
  private readonly origin: string;

  constructor(
    private readonly credentials: EuipoCredentials,
    private readonly base: string,
    private readonly http: HttpOptions,
    private readonly options: SyncOptions,
  ) {
    this.origin = new URL(base).origin;
  }

  private async bearer(renew: boolean): Promise<string> {
    const clock = this.options.clock ?? systemClock;
    if (renew || this.token === null || clock.now() >= this.token.expiresAt) {
      this.token = await requestToken(this.credentials, this.http, clock);
    }
    return this.token.value;
  }

  /** The token and client id, to the API's origin only (never across a redirect elsewhere). */
  private headersFor(bearer: string): HeadersFor {
    return (target): Record<string, string> =>
      target.origin === this.origin && isSafeForSecrets(target)
        ? { authorization: `Bearer ${bearer}`, 'x-ibm-client-id': this.credentials.clientId }
        : {};
  }

  pageUrl(from: string, page: number): string {
    const url = new URL(`${this.base.replace(/\/+$/, '')}/trademarks`);
    url.search = new URLSearchParams({
      query: `updateDate>=${from}`,
      // The application number never changes: pages stay in place while marks are updated.
      sort: 'applicationNumber:asc',
      page: String(page),
      size: String(PAGE_SIZE),
    }).toString();
    return url.toString();
  }

  /** One page; a refused token (401) is renewed once, as tokens may end before they say. */
  async page(from: string, page: number): Promise<FetchedText> {
    const url = this.pageUrl(from, page);
    const attempts = this.http.retries + 1;
    const get = async (renew: boolean) =>
      fetchText(
        url,
        this.http,
        MAX_PAGE_BYTES,
        this.headersFor(await this.bearer(renew)),
        (error, retry, waitMs) =>
          this.options.onRetry?.({
            what: `page ${page + 1} of feed euipo-api`,
            url: displayUrl(url),
            reason: error.message,
            attempt: retry + 1,
            attempts,
            waitMs,
          }),
      );
    try {
      return await get(false);
    } catch (error) {
      if (
        !(error instanceof DownloadError) ||
        error instanceof TokenError ||
        error.status !== 401
      ) {
        throw explained(error);
      }
      return await get(true).catch((again: unknown) => {
        throw explained(again);
      });
    }
  }
}

/** An API refusal with what the operator can do about it. */
function explained(error: unknown): unknown {
  if (!(error instanceof DownloadError) || error instanceof TokenError) return error;
  if (error.status === undefined) return error;
  const hint =
    error.status === 401
      ? ' (the API refused the token: check EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET)'
      : error.status === 403
        ? ' (the application is not subscribed to the Trademark search plan, or not for this environment)'
        : '';
  return new DownloadError(
    `${error.message} (the Trademark Search API)${hint}`,
    error.retryable,
    error.status,
  );
}

/** Waits for the rate limit's window when the last answer says none is left. */
async function respectRateLimit(
  headers: FetchedText['headers'],
  options: SyncOptions,
  http: HttpOptions,
) {
  if (headers['x-ratelimit-remaining'] !== '0') return;
  const reset = Number(headers['x-ratelimit-reset']);
  const waitMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 : 1000;
  if (waitMs > MAX_RATE_WAIT_MS) {
    throw new DownloadError(`the API's rate limit resets only in ${reset} s`, true);
  }
  options.logger.info({ feed: 'euipo-api', waitMs }, 'waiting for the API rate limit to reset');
  await sleep(waitMs, undefined, { signal: http.signal });
}

type Fetched = { bytes: number; skipped: number; errors: number };

/** Every page of the window, mapped to normalized records, written to `out` as JSON Lines. */
async function fetchWindow(
  client: EuipoClient,
  window: ApiWindow,
  out: WriteStream,
  options: SyncOptions,
  http: HttpOptions,
): Promise<Fetched> {
  const fetched: Fetched = { bytes: 0, skipped: 0, errors: 0 };
  let seen = 0;
  for (let n = 0; ; n++) {
    const { text, headers } = await client.page(window.from, n);
    const page: ApiPage = parseApiPage(text);
    fetched.bytes += Buffer.byteLength(text);
    for (const item of page.items) {
      const result = euipoApiRecord(item);
      if ('record' in result) out.write(`${JSON.stringify(result.record)}\n`);
      else if ('skipped' in result) fetched.skipped++;
      else fetched.errors++;
    }
    seen += page.items.length;
    options.onProgress?.({
      phase: 'marks',
      file: window.name,
      bytes: seen,
      total: page.totalElements,
    });
    if (page.items.length === 0 || n + 1 >= page.totalPages) return fetched;
    await respectRateLimit(headers, options, http);
  }
}

const closed = (out: WriteStream) =>
  new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });

/** The window's failure, recorded and reported. */
async function windowFailed(db: Db, window: ApiWindow, options: SyncOptions, error: unknown) {
  const reason = options.signal?.aborted
    ? INTERRUPTED
    : oneLine((error as Error).message || String(error));
  await finishRegisterFile(db, 'euipo-api', window.name, {
    status: 'failed',
    bytes: null,
    sha256: null,
    imported: null,
    updated: null,
    skipped: null,
    errors: null,
    reason,
  });
  options.logger.warn({ feed: 'euipo-api', file: window.name, reason }, 'register file failed');
  const mayPass = !(error instanceof DownloadError) || error.retryable;
  options.onFileFailed?.(window.name, mayPass);
  const report: SyncFileReport = {
    name: window.name,
    status: 'failed',
    bytes: null,
    imported: 0,
    updated: 0,
    skipped: 0,
    errors: 0,
    reason,
  };
  return report;
}

/**
 * One sync of EUIPO's Trademark Search API: asks for the marks filed or changed since the last
 * sync (see apiWindow), page by page within the API's rate limits, maps them to normalized records
 * and imports them through the ordinary importer. The window is recorded in register_files like a
 * file: loaded, or failed with its reason (the next sync asks again from where it started).
 */
export async function syncEuipoApi(
  db: Db,
  options: SyncOptions,
  base: string,
  http: HttpOptions,
): Promise<SyncFileReport[]> {
  const credentials = options.euipo as EuipoCredentials;
  const known = await listRegisterFiles(db, 'euipo-api');
  const window = apiWindow(known, options.since, dateOf(options.clock ?? systemClock));
  const client = new EuipoClient(credentials, base, http, options);
  await startRegisterFile(db, {
    feed: 'euipo-api',
    name: window.name,
    url: client.pageUrl(window.from, 0),
    fileDate: window.from,
  });
  const dir = await mkdtemp(join(tmpdir(), 'tmwatch-euipo-'));
  try {
    const path = join(dir, 'marks.jsonl');
    const out = createWriteStream(path);
    const fetched = await fetchWindow(client, window, out, options, http).finally(() =>
      closed(out),
    );
    // The marks' state as of the day they were asked: a later window's versions win.
    const summary = await importRecordFiles(db, [path], {
      asOf: window.to,
      signal: options.signal,
    });
    const counts = {
      imported: summary.imported,
      updated: summary.updated,
      skipped: summary.skipped + fetched.skipped,
      errors: errorCount(summary) + fetched.errors,
    };
    await finishRegisterFile(db, 'euipo-api', window.name, {
      status: 'loaded',
      bytes: fetched.bytes,
      sha256: null,
      ...counts,
      reason: null,
    });
    return [{ name: window.name, status: 'loaded', bytes: fetched.bytes, ...counts }];
  } catch (error) {
    return [await windowFailed(db, window, options, error)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
