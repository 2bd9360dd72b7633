/**
 * The feeds the mirror can sync from: where an office publishes its register files, and how to
 * tell its files from anything else a listing links to. Adding a feed is adding an entry here.
 */
export type Feed = {
  name: string;
  /**
   * `files`: a listing of zip files, each downloaded and imported once (register_files);
   * `api`: an API asked for the marks filed or changed since the last sync.
   */
  kind: 'files' | 'api';
  /**
   * The office's official location; operators and tests override it (--url, REGISTER_FEEDS).
   * Null when there is none a program can read: the operator must give one.
   */
  defaultUrl: string | null;
  /** The file's date (YYYY-MM-DD) if the name is one of this feed's files, otherwise null. */
  fileDate(name: string): string | null;
  /**
   * Files of a full release (the whole register as of a day), which only a backfill (`--since`)
   * loads; the regular syncs load the updates. A backfill file the feed has recorded but not
   * loaded is loaded again by the later syncs like any other.
   */
  isBackfill?(name: string): boolean;
  /**
   * The order of files of one day, lowest first (EUIPO: the applicant files before the marks that
   * name the applicants by key); files of one rank by name.
   */
  rank?(name: string): number;
  /**
   * The official location is an API that wants a key: the origin that checks it, the header it
   * travels in and the variable the operator sets it in. A sync of that origin without the key
   * fails before any request, with a message naming the variable.
   */
  apiKey?: { origin: string; header: string; variable: string };
  /** What the operator must set for the feed to work at all (for the messages): a sentence. */
  needs?: string;
};

/** `YYYY-MM-DD` if it is a real calendar day, otherwise null. */
function realDay(date: string): string | null {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date) ? date : null;
}

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
  kind: 'files',
  defaultUrl: 'https://api.uspto.gov/api/v1/datasets/products/TRTDXFAP',
  apiKey: { origin: 'https://api.uspto.gov', header: 'X-API-KEY', variable: 'USPTO_API_KEY' },
  fileDate(name) {
    const m = APC_DAILY.exec(name);
    if (!m) return null;
    const [, yy = '', mm = '', dd = ''] = m;
    // The daily product starts in 2000 (annual files carry the earlier cases): YY is 20YY.
    return realDay(`20${yy}-${mm}-${dd}`);
  },
};

const CIPO_WEEKLY = /^WEEKLY_(\d{4}-\d{2}-\d{2})_\d{2}-\d{2}-\d{2}\.zip$/i;
const CIPO_GLOBAL = /^CA-TMK-GLOBAL_(\d{4}-\d{2}-\d{2})_\d+_\d+_\d+\.zip$/i;

/**
 * CIPO's trademark XML (WIPO ST.96 with CIPO's extensions, one application per XML file, plus
 * PNG images), published over plain HTTPS with no login and linked from ISED's page "Trademark
 * data: applications and registrations (XML and PNG)". Weekly updates, `WEEKLY_YYYY-MM-DD_hh-mm-ss.zip`,
 * each re-issue a record whole after any event on it; a full release, split into about 145
 * `CA-TMK-GLOBAL_YYYY-MM-DD_<first>_<last>_<NNN>.zip`, loaded by a backfill only. Other archives
 * the page may link (`CA-TMK-UPDATE…`, `CA-TMK-DELETE…`, CSV datasets) are not read: what they
 * hold was not verified. docs/operations.md says what was checked of the page.
 */
export const cipoWeekly: Feed = {
  name: 'cipo-weekly',
  kind: 'files',
  defaultUrl:
    'https://ised-isde.canada.ca/site/canadian-intellectual-property-office/en/trademark-data-applications-and-registrations-xml-png',
  fileDate(name) {
    const m = CIPO_WEEKLY.exec(name) ?? CIPO_GLOBAL.exec(name);
    return m ? realDay(m[1] ?? '') : null;
  },
  isBackfill: (name) => CIPO_GLOBAL.test(name),
  // A full release and the week's update of the same day: the release first, the update over it.
  rank: (name) => (CIPO_GLOBAL.test(name) ? 0 : 1),
};

/** EUIPO's bulk files: `[DIFF_]EUTMS_YYYYMMDD[_NNNN].zip` and `[DIFF_]APPLICANTS_…` alike. */
const EUIPO_FILE = /^(DIFF_)?(EUTMS|APPLICANTS)_(\d{4})(\d{2})(\d{2})(?:_\d+)?\.zip$/i;

/**
 * EUIPO's bulk XML: full (`EUTMS_YYYYMMDD_NNNN.zip`, the whole register of that day, split in
 * parts) and differential (`DIFF_EUTMS_…`, a day's changes) files of trade marks, one XML file per
 * mark, and the Applicant files (`APPLICANTS_…`, `DIFF_APPLICANTS_…`) that give the names behind
 * the applicant keys the marks carry. EUIPO published them on an FTP server whose public login is
 * reported to no longer work: there is no default location, the operator gives a listing (an
 * HTML page linking the zips, e.g. a mirror). The full files are a backfill (`--since`); on each
 * day the applicant files load before the marks, so that the marks find their owners' names.
 */
export const euipoBulk: Feed = {
  name: 'euipo-bulk',
  kind: 'files',
  defaultUrl: null,
  needs:
    'EUIPO publishes no location a program can read: give the listing of a mirror with --url or REGISTER_FEEDS=euipo-bulk=URL',
  fileDate(name) {
    const m = EUIPO_FILE.exec(name);
    if (!m) return null;
    const [, , , yyyy = '', mm = '', dd = ''] = m;
    return realDay(`${yyyy}-${mm}-${dd}`);
  },
  isBackfill: (name) => EUIPO_FILE.exec(name)?.[1] === undefined,
  rank(name) {
    const m = EUIPO_FILE.exec(name);
    const diff = m?.[1] !== undefined ? 1 : 0;
    return (m?.[2]?.toUpperCase() === 'APPLICANTS' ? 0 : 2) + diff;
  },
};

/** The Trademark Search API's two environments (EUIPO_ENVIRONMENT). */
export type EuipoEnvironment = 'sandbox' | 'production';

/**
 * Where the Trademark Search API and its OAuth2 token endpoint are, per environment. Production:
 * the API's published OpenAPI document (servers, and its client-credentials flow's tokenUrl).
 * Sandbox: EUIPO's sandbox portal, as its public clients use it (docs/operations.md).
 */
export const EUIPO_API_LOCATIONS: Record<EuipoEnvironment, { api: string; token: string }> = {
  production: {
    api: 'https://api.euipo.europa.eu/trademark-search',
    token: 'https://euipo.europa.eu/cas-server-webapp/oidc/accessToken',
  },
  sandbox: {
    api: 'https://api-sandbox.euipo.europa.eu/trademark-search',
    token: 'https://auth-sandbox.euipo.europa.eu/oidc/accessToken',
  },
};

/**
 * EUIPO's Trademark Search API: the marks filed or changed since the last sync, asked page by page
 * (`GET /trademarks?query=updateDate>=…`), with an OAuth2 client-credentials token
 * (EUIPO_CLIENT_ID, EUIPO_CLIENT_SECRET). Its default location is the production API; with
 * EUIPO_ENVIRONMENT=sandbox, the sandbox's.
 */
export const euipoApi: Feed = {
  name: 'euipo-api',
  kind: 'api',
  defaultUrl: EUIPO_API_LOCATIONS.production.api,
  needs:
    'the Trademark Search API wants OAuth2 client credentials: set EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET (an application of the EUIPO API portal subscribed to the Trademark search plan)',
  // The API has no files: each sync is recorded as the window of days it asked for.
  fileDate: () => null,
};

export const FEEDS: readonly Feed[] = [usptoDaily, cipoWeekly, euipoBulk, euipoApi];

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

/** Whether a secret may travel to `target` at all: over HTTPS, or to this machine. */
export function isSafeForSecrets(target: URL): boolean {
  return target.protocol === 'https:' || LOOPBACK.test(target.hostname);
}

/**
 * Whether a request to `target` may carry the API key of a feed read from `listing`: only to the
 * listing's own origin (scheme, host and port), the one the operator chose or the office's by
 * default, and there only over HTTPS or to this machine. Never to another host a listing links to
 * or a redirect leads to (the portal answers a file URI with a redirect to where the file is).
 */
export function mayCarryApiKey(target: URL, listing: URL): boolean {
  if (target.origin !== listing.origin) return false;
  return isSafeForSecrets(target);
}
