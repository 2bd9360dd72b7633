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
};

const APC_DAILY = /^apc(\d{2})(\d{2})(\d{2})\.zip$/i;

/**
 * The USPTO's daily trademark application files (bulk data product TRTDXFAP, "Trademark Full Text
 * XML Data (No Images) – Daily Applications"): `apcYYMMDD.zip`, each a zip holding one
 * `trademark-applications-daily` XML file. The USPTO serves them from its Open Data Portal since
 * the retirement of bulkdata.uspto.gov.
 */
export const usptoDaily: Feed = {
  name: 'uspto-daily',
  defaultUrl: 'https://data.uspto.gov/bulkdata/datasets/trtdxfap/',
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
