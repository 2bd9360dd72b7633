import type { Feed } from './feeds.ts';

/**
 * One of a feed's files found in a listing. `backfill`: a file of a full release, which only a
 * backfill loads (see Feed.isBackfill).
 */
export type ListedFile = { name: string; url: string; date: string; backfill: boolean };

/**
 * The shapes of listing a feed reads: a web server's HTML index page, or the JSON the USPTO Open
 * Data Portal's API gives for a bulk data product (docs/operations.md, "Register sync").
 */
export type ListingFormat = 'html' | 'odp-json';

const HREF = /<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeAttribute(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));/gi, (whole, hex, dec, name) => {
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return ENTITIES[(name as string).toLowerCase()] ?? whole;
  });
}

/** `href` resolved against the listing's URL, if it is an http(s) URL; without its fragment. */
function resolveHttp(href: string, pageUrl: string): URL | null {
  let url: URL;
  try {
    url = new URL(href, pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url;
}

/** Oldest first; files of one day by the feed's rank (applicants before marks), then by name. */
function byDate(files: Map<string, ListedFile>, feed: Feed): ListedFile[] {
  const rank = (file: ListedFile) => feed.rank?.(file.name) ?? 0;
  return [...files.values()].sort((a, b) => {
    if (a.date !== b.date) return a.date < b.date ? -1 : 1;
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    return a.name < b.name ? -1 : 1;
  });
}

function listed(feed: Feed, name: string, url: string, date: string): ListedFile {
  return { name, url, date, backfill: feed.isBackfill?.(name) ?? false };
}

/**
 * The feed's files linked from an HTML index page (as a web server's directory listing serves
 * it): each `<a href>` is resolved against the page's URL, relative or absolute, and kept when its
 * last path segment is a name the feed knows. Other links (parent directory, sort orders, other
 * products) are ignored. Sorted by date, oldest first; a name linked twice counts once.
 */
export function parseHtmlListing(html: string, pageUrl: string, feed: Feed): ListedFile[] {
  const files = new Map<string, ListedFile>();
  for (const m of html.matchAll(HREF)) {
    const url = resolveHttp(decodeAttribute(m[1] ?? m[2] ?? m[3] ?? '').trim(), pageUrl);
    if (url === null) continue;
    let name: string;
    try {
      name = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
    } catch {
      continue;
    }
    const date = feed.fileDate(name);
    if (date === null || files.has(name)) continue;
    files.set(name, listed(feed, name, url.toString(), date));
  }
  return byDate(files, feed);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The file entries of an Open Data Portal product answer: `bulkDataProductBag[].productFileBag
 * .fileDataBag[]` (GET /api/v1/datasets/products/{productIdentifier}); a bare product, holding
 * `productFileBag` itself, is read too. Null when the JSON has neither.
 */
function odpFileEntries(json: unknown): unknown[] | null {
  if (!isObject(json)) return null;
  const products = Array.isArray(json.bulkDataProductBag)
    ? json.bulkDataProductBag
    : isObject(json.productFileBag)
      ? [json]
      : null;
  if (products === null) return null;
  const entries: unknown[] = [];
  for (const product of products) {
    if (!isObject(product) || !isObject(product.productFileBag)) continue;
    const bag = product.productFileBag.fileDataBag;
    if (Array.isArray(bag)) entries.push(...bag);
  }
  return entries;
}

/**
 * The feed's files in the JSON the USPTO Open Data Portal gives for a bulk data product: each
 * entry of its `fileDataBag` whose `fileName` is a name the feed knows, downloaded from its
 * `fileDownloadURI` (resolved against the listing's URL, http(s) only). Entries without either
 * field, and other files of the product, are ignored. Sorted by date, oldest first (the portal
 * lists the newest first); a name listed twice counts once. Throws when the text is not JSON or
 * not a product answer: a wrong URL must not read as an empty feed.
 */
export function parseOdpListing(text: string, pageUrl: string, feed: Feed): ListedFile[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the listing is not valid JSON (${(error as Error).message})`);
  }
  const entries = odpFileEntries(json);
  if (entries === null) {
    throw new Error(
      'the JSON listing is not an Open Data Portal product (no bulkDataProductBag[].productFileBag.fileDataBag)',
    );
  }
  const files = new Map<string, ListedFile>();
  for (const entry of entries) {
    if (!isObject(entry)) continue;
    const { fileName, fileDownloadURI } = entry;
    if (typeof fileName !== 'string' || typeof fileDownloadURI !== 'string') continue;
    const date = feed.fileDate(fileName);
    if (date === null || files.has(fileName)) continue;
    const url = resolveHttp(fileDownloadURI.trim(), pageUrl);
    if (url === null) continue;
    files.set(fileName, listed(feed, fileName, url.toString(), date));
  }
  return byDate(files, feed);
}

/**
 * Which format a listing is in: its media type when that says JSON or HTML, otherwise its first
 * character (`{` or `[` is JSON; an HTML page starts with `<`), since servers and mirrors label
 * files carelessly (`text/plain`, `application/octet-stream`, or nothing).
 */
export function listingFormat(text: string, contentType: string | undefined): ListingFormat {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (media === 'application/json' || media.endsWith('+json')) return 'odp-json';
  if (media === 'text/html' || media === 'application/xhtml+xml') return 'html';
  return /^\s*[{[]/.test(text) ? 'odp-json' : 'html';
}

/** The feed's files in a listing of either format (see listingFormat). */
export function parseListing(
  text: string,
  contentType: string | undefined,
  pageUrl: string,
  feed: Feed,
): ListedFile[] {
  return listingFormat(text, contentType) === 'odp-json'
    ? parseOdpListing(text, pageUrl, feed)
    : parseHtmlListing(text, pageUrl, feed);
}
