import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { ipLiteralOf, isPublicAddress } from './address-policy.ts';

export type PostOutcome =
  | { delivered: true; status: number }
  | { delivered: false; status: number | null; error: string };

export type PostOptions = {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: loopback, private and link-local targets and plain http allowed. */
  allowPrivate: boolean;
  timeoutMs: number;
};

/**
 * A failure whose message is the reason recorded as it is: a request refused before it left, or an
 * answer cut off; written here, it names no address.
 */
class Reason extends Error {}

/** Why a host that resolves to an address that is not public is refused, the address unnamed. */
const NOT_PUBLIC = 'the host is not a public address';

// Enough of an answer to read a status line and headers; receivers' bodies are not kept.
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The checked resolver of a webhook request. Node calls it when it connects, so the addresses
 * checked are exactly the ones connected to: a host name that resolves to a public address when
 * the webhook is created and to 127.0.0.1 at send time (DNS rebinding) is refused then.
 */
function checkedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family;
    lookup(hostname, { all: true, family: family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      // The reason never names the address: the delivery log is read by the endpoint's owner, who
      // must not learn what the service's own network calls a name (that "vm" is 127.0.0.1).
      if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
        return callback(new Reason(NOT_PUBLIC), []);
      }
      const first = addresses[0];
      if (first === undefined) return callback(new Reason('the host has no address'), []);
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Why a URL may not be requested at all, or null when it may: the scheme, credentials and an IP
 * literal host. A host name is checked on the addresses it resolves to, when it is requested.
 */
export function refusedUrlReason(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'the URL must be http:// or https://' : 'the URL must be https://';
  }
  if (url.username !== '' || url.password !== '') return 'the URL must not carry credentials';
  const literal = ipLiteralOf(url);
  if (!allowPrivate && literal !== null && !isPublicAddress(literal)) {
    return NOT_PUBLIC;
  }
  return null;
}

/**
 * POSTs one webhook request: 2xx within the time limit is delivered, anything else (another
 * status, a redirect, which is never followed, a refused address, a timeout) is not. Never throws;
 * the error text names the cause without a stack.
 */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostOutcome> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ delivered: false, status: null, error: 'the URL is not valid' });
  }
  const reason = refusedUrlReason(url, options.allowPrivate);
  if (reason !== null) return Promise.resolve({ delivered: false, status: null, error: reason });

  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'TrademarkWatch-Webhooks/1',
      },
      // A fresh connection per request: each one resolves and checks the address again.
      agent: false,
      lookup: checkedLookup(options.allowPrivate),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const fail = (error: unknown) => {
      resolve({ delivered: false, status: null, error: describe(error, options.timeoutMs) });
    };
    request.on('error', fail);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on('error', () => {});
      response.on('close', () => {
        // A 2xx whose answer was cut off by the time limit did not arrive within it.
        const whole = response.complete || received > MAX_ANSWER_BYTES;
        if (status >= 200 && status < 300 && whole) resolve({ delivered: true, status });
        else if (!whole) fail(new Reason('the answer was cut off'));
        else resolve({ delivered: false, status, error: `the endpoint answered ${status}` });
      });
    });
    request.end(body);
  });
}

// What a failed connection is told as: the code and a sentence, never the system's message, which
// names the address connected to (and, when private addresses are allowed, an internal one).
const CONNECT_ERRORS: Record<string, string> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed while sending',
};

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Reason) return error.message;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'the request failed';
  const sentence = CONNECT_ERRORS[code];
  if (sentence !== undefined) return `${sentence} (${code})`;
  // TLS and HTTP parser codes (CERT_HAS_EXPIRED, HPE_INVALID_CONSTANT…) say enough by themselves.
  return /(CERT|TLS|SSL)/.test(code) ? `TLS failed (${code})` : `the request failed (${code})`;
}
