import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../clock.ts';

/** How downloads wait and retry. Tests shorten every delay. */
export type HttpOptions = {
  /** From the request to an open connection. */
  connectTimeoutMs: number;
  /** Longest silence of an open connection (waiting for the headers or between chunks). */
  idleTimeoutMs: number;
  /** Attempts after the first for a failure that may pass (network, time-out, 5xx, 429). */
  retries: number;
  /** Wait before the first retry; doubled for each further one. */
  backoffMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Told once per request still not connected after `slowConnectMs` (its URL): a connection to an
   * unreachable address takes the whole connect time-out to fail, and the command line says at once
   * what it is waiting for instead of staying silent until then.
   */
  onSlowConnect?: ((url: string, waitedMs: number) => void) | undefined;
  slowConnectMs?: number | undefined;
};

/** How long a connection may take before onSlowConnect is told: a reachable server is far faster. */
export const SLOW_CONNECT_MS = 2_000;

export const DEFAULT_HTTP_OPTIONS: HttpOptions = {
  // A server answers a connection in well under a second; ten is for a slow link. Longer only
  // delays the one line that says an address cannot be reached (a sync once stayed silent 36 s).
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  retries: 3,
  backoffMs: 5_000,
};

/**
 * A download that did not give the complete file. `retryable`: trying again may help; `status`: the
 * HTTP status that refused it, if one did; `retryAfterMs`: how long the server asked to wait (its
 * `Retry-After`, on a 429 or 503).
 */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** A server's Retry-After is honoured up to this; beyond it the back-off's own wait applies. */
const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** `Retry-After` in seconds (the APIs' form) or as an HTTP date, in ms; undefined if neither. */
function retryAfterMs(
  header: string | string[] | undefined,
  now = systemClock.now(),
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : undefined;
}

/**
 * The headers of one request besides the fixed ones, asked again at every redirect it follows, so
 * that a credential goes only where it belongs (see `mayCarryApiKey` of register/feeds.ts).
 */
export type HeadersFor = (url: URL) => Record<string, string>;

const noHeaders: HeadersFor = () => ({});

/** Redirects one request follows at most: the portal redirects a file once; a loop ends here. */
const MAX_REDIRECTS = 5;

/** Responses whose connection the idle time-out cut, and the error that says so. */
const stalled = new WeakMap<IncomingMessage, DownloadError>();
const USER_AGENT = 'trademark-watch register sync';

/**
 * TLS errors a retry cannot change: the server's certificate is not one this machine trusts, or its
 * chain lacks an intermediate certificate (Node does not fetch a missing one, as browsers do).
 */
const CERTIFICATE_ERRORS = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Where a network error's message says more than its code, a sentence for the report. */
function networkError(error: unknown): DownloadError {
  if (error instanceof DownloadError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message || String(error);
  const text = code && !message.includes(code) ? `${code}: ${message}` : message;
  if (code !== undefined && CERTIFICATE_ERRORS.has(code)) {
    return new DownloadError(
      `the server's TLS certificate cannot be verified (${text}); if its chain lacks an intermediate certificate, NODE_EXTRA_CA_CERTS can add it (docs/operations.md)`,
      false,
    );
  }
  return new DownloadError(text, true);
}

/**
 * GET `url`, following redirects (http and https only, at most MAX_REDIRECTS, each hop with its own
 * `headersFor`), until a 200 response whose body has not been read yet. A status other than 200 is
 * an error: 5xx and 429 retryable, others (404, 403 …) not.
 */
function get(
  url: string,
  options: HttpOptions,
  headersFor: HeadersFor,
  accept: string,
  redirects = 0,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
    if (client === null) {
      reject(new DownloadError(`unsupported URL scheme ${target.protocol}`, false));
      return;
    }
    const request = client.get(target, {
      headers: {
        ...headersFor(target),
        'user-agent': USER_AGENT,
        accept,
        'accept-encoding': 'identity',
      },
      signal: options.signal,
    });
    let received: IncomingMessage | null = null;
    const connectTimer = setTimeout(() => {
      request.destroy(
        new DownloadError(`no connection within ${options.connectTimeoutMs} ms`, true),
      );
    }, options.connectTimeoutMs);
    const slowMs = options.slowConnectMs ?? SLOW_CONNECT_MS;
    let settled = false;
    // Looked at again after the I/O the loop has pending (setImmediate runs after it): a process
    // busy for seconds may hold a connection that opened long ago, its event not handled yet.
    const slowTimer =
      options.onSlowConnect === undefined || slowMs >= options.connectTimeoutMs
        ? undefined
        : setTimeout(
            () =>
              setImmediate(() => {
                if (!settled) options.onSlowConnect?.(url, slowMs);
              }),
            slowMs,
          );
    const connected = () => {
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(slowTimer);
    };
    request.on('socket', (socket) => {
      // A reused keep-alive socket is already connected.
      if (!socket.connecting) connected();
      else socket.once('connect', connected);
    });
    request.setTimeout(options.idleTimeoutMs, () => {
      const error = new DownloadError(`no data for ${options.idleTimeoutMs} ms`, true);
      // Once the body streams, the response only sees "aborted": it is told the real reason.
      if (received) stalled.set(received, error);
      request.destroy(error);
    });
    request.on('error', (error) => {
      connected();
      reject(networkError(error));
    });
    request.on('response', (response) => {
      received = response;
      connected();
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        if (redirects >= MAX_REDIRECTS) {
          reject(new DownloadError(`more than ${MAX_REDIRECTS} redirects`, false));
          return;
        }
        let next: string;
        try {
          next = new URL(location, target).toString();
        } catch {
          reject(new DownloadError('a redirect to an address that is not a URL', false));
          return;
        }
        get(next, options, headersFor, accept, redirects + 1).then(resolve, reject);
        return;
      }
      if (status !== 200) {
        response.resume();
        const retryable = status >= 500 || status === 429;
        const wait = retryAfterMs(response.headers['retry-after']);
        reject(new DownloadError(`HTTP ${status} from the server`, retryable, status, wait));
        return;
      }
      // The idle time-out keeps watching the socket while the body streams.
      resolve(response);
    });
  });
}

/** Told before each retry: why the attempt failed, the retry's number (1 first) and its wait. */
export type OnRetry = (error: DownloadError, retry: number, waitMs: number) => void;

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are used up. The error that ends
 * it says how many attempts were made when there was more than one.
 */
export async function withRetries<T>(
  options: HttpOptions,
  attempt: () => Promise<T>,
  onRetry?: OnRetry,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const failure = networkError(error);
      if (!failure.retryable || n >= options.retries || options.signal?.aborted) throw failure;
      // A server that says how long to wait (429, 503) is waited for, if longer than the back-off.
      const waitMs = Math.max(options.backoffMs * 2 ** n, failure.retryAfterMs ?? 0);
      onRetry?.(failure, n + 1, waitMs);
      await sleep(waitMs, undefined, { signal: options.signal });
    }
  }
}

/** The body must be as long as the server declared: a cut connection is not a complete file. */
function checkLength(response: IncomingMessage, received: number) {
  const declared = response.headers['content-length'];
  if (declared !== undefined && Number(declared) !== received) {
    throw new DownloadError(
      `the server declared ${declared} bytes but sent ${received}: truncated`,
      true,
    );
  }
}

export type Downloaded = { bytes: number; sha256: string };

export type DownloadHooks = {
  onProgress?: (received: number, total: number | null) => void;
  onRetry?: OnRetry;
  /** Headers for each request and redirect (an API key); none by default. */
  headersFor?: HeadersFor;
};

/**
 * Streams `url` into the file `path` (never the whole file in memory), with time-outs and
 * retries, and verifies the status and the declared length. Returns the size and SHA-256 of
 * what was written. On failure nothing is left at `path`.
 */
export async function downloadToFile(
  url: string,
  path: string,
  options: HttpOptions,
  hooks: DownloadHooks = {},
): Promise<Downloaded> {
  const { onProgress, onRetry, headersFor = noHeaders } = hooks;
  try {
    return await withRetries(
      options,
      async () => {
        const response = await get(url, options, headersFor, '*/*');
        const declared = response.headers['content-length'];
        const total = declared === undefined ? null : Number(declared);
        const hash = createHash('sha256');
        let received = 0;
        const count = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            received += chunk.length;
            hash.update(chunk);
            onProgress?.(received, total);
            callback(null, chunk);
          },
        });
        try {
          await pipeline(response, count, createWriteStream(path));
        } catch (error) {
          const idle = stalled.get(response);
          if (idle) throw idle;
          // A connection cut before the declared length reads as "aborted": say what it means.
          if (total !== null && received < total) checkLength(response, received);
          throw networkError(error);
        }
        checkLength(response, received);
        return { bytes: received, sha256: hash.digest('hex') };
      },
      onRetry,
    );
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** A listing as read: its text, the media type the server gave it, and the response's headers. */
export type FetchedText = {
  text: string;
  contentType: string | undefined;
  headers: IncomingMessage['headers'];
};

/**
 * A small text document (a listing), read whole, with the same time-outs and retries. It asks for
 * JSON or HTML, the two listing formats; what it gets is for the caller to tell apart.
 */
export async function fetchText(
  url: string,
  options: HttpOptions,
  maxBytes: number,
  headersFor: HeadersFor = noHeaders,
  onRetry?: OnRetry,
): Promise<FetchedText> {
  return withRetries(
    options,
    async () => {
      const accept = 'application/json, text/html;q=0.9, */*;q=0.5';
      const response = await get(url, options, headersFor, accept);
      const chunks: Buffer[] = [];
      let received = 0;
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > maxBytes) {
            response.destroy();
            throw new DownloadError(`the listing is larger than ${maxBytes} bytes`, false);
          }
          chunks.push(chunk);
        }
      } catch (error) {
        throw stalled.get(response) ?? networkError(error);
      }
      checkLength(response, received);
      return {
        text: Buffer.concat(chunks).toString('utf8'),
        contentType: response.headers['content-type'],
        headers: response.headers,
      };
    },
    onRetry,
  );
}
