import type { Feed } from './feeds.ts';

/** One of a feed's files found in a listing. */
export type ListedFile = { name: string; url: string; date: string };

const HREF = /<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeAttribute(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));/gi, (whole, hex, dec, name) => {
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return ENTITIES[(name as string).toLowerCase()] ?? whole;
  });
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
    const href = decodeAttribute(m[1] ?? m[2] ?? m[3] ?? '').trim();
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    let name: string;
    try {
      name = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
    } catch {
      continue;
    }
    const date = feed.fileDate(name);
    if (date === null || files.has(name)) continue;
    url.hash = '';
    files.set(name, { name, url: url.toString(), date });
  }
  return [...files.values()].sort((a, b) =>
    a.date === b.date ? (a.name < b.name ? -1 : 1) : a.date < b.date ? -1 : 1,
  );
}
