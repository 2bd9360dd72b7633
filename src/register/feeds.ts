/**
 * The feeds the mirror can sync from: where an office publishes its register files, and how to
 * tell its files from anything else a listing links to. Adding a feed is adding an entry here.
 */
export type Feed = {
  name: string;
  /** The office's official location; operators and tests override it (--url, REGISTER_FEEDS). */
  defaultUrl: string;
  /** The file's date (YYYY-MM-DD) if the name is one of this feed's files, otherwise null. */
  fileDate(name: string): string | null;
  /**
   * The official location is an API that wants a key: the origin that checks it, the header it
   * travels in and the variable the operator sets it in. A sync of that origin without the key
   * fails before any request, with a message naming the variable.
   */
  apiKey?: { origin: string; header: string; variable: string };
};

const APC_DAILY = /^apc(\d{2})(\d{2})(\d{2})\.zip$/i;

/**
 * The USPTO's daily trademark application files (bulk data product TRTDXFAP, "Trademark Full Text
 * XML Data (No Images) – Daily Applications"): `apcYYMMDD.zip`, each a zip holding one
 * `trademark-applications-daily` XML file. The USPTO serves them from its Open Data Portal since
 * the retirement of bulkdata.uspto.gov. The portal's pages (data.uspto.gov/bulkdata/…) are a
 * JavaScript application; programs read the product's files from its API, as JSON, with the key
 * of a USPTO.gov account in `X-API-KEY` (docs/operations.md, "Register sync", says what was
 * verified of it).
 */
export const usptoDaily: Feed = {
  name: 'uspto-daily',
  defaultUrl: 'https://api.uspto.gov/api/v1/datasets/products/TRTDXFAP',
  apiKey: { origin: 'https://api.uspto.gov', header: 'X-API-KEY', variable: 'USPTO_API_KEY' },
  fileDate(name) {
    const m = APC_DAILY.exec(name);
    if (!m) return null;
    const [, yy = '', mm = '', dd = ''] = m;
    // The daily product starts in 2000 (annual files carry the earlier cases): YY is 20YY.
    const date = `20${yy}-${mm}-${dd}`;
    const parsed = new Date(`${date}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date) ? date : null;
  },
};

export const FEEDS: readonly Feed[] = [usptoDaily];

export const FEED_NAMES: readonly string[] = FEEDS.map((feed) => feed.name);

export function findFeed(name: string): Feed | undefined {
  return FEEDS.find((feed) => feed.name === name);
}

/** A feed location must be http(s): the downloads speak nothing else. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether a request to `target` may carry the API key of a feed read from `listing`: only to the
 * listing's own origin (scheme, host and port), the one the operator chose or the office's by
 * default, and there only over HTTPS or to this machine. Never to another host a listing links to
 * or a redirect leads to (the portal answers a file URI with a redirect to where the file is).
 */
export function mayCarryApiKey(target: URL, listing: URL): boolean {
  if (target.origin !== listing.origin) return false;
  return target.protocol === 'https:' || LOOPBACK.test(target.hostname);
}
