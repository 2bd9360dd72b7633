import { z } from 'zod';
import { DEFAULT_PAGE_CACHE_BYTES } from './domain/page-cache.ts';
import { FEED_NAMES, findFeed, isHttpUrl } from './register/feeds.ts';
import { DEFAULT_POLL_SECONDS } from './runner.ts';

// The only module that reads process.env. Everything else receives a Config.
const PORT_MESSAGE = 'must be an integer from 0 to 65535';
const RATE_MESSAGE = 'must be a whole number of requests, at least 1';
const MIB = 1024 * 1024;
const MAX_CACHE_MB = 1024 * 1024;
const CACHE_MESSAGE = `must be a whole number of megabytes from 0 to ${MAX_CACHE_MB}`;
// Values that may carry credentials (a mirror's URL in REGISTER_FEEDS too) are never repeated in
// an error message.
const TIMEOUT_MESSAGE = 'must be a number of seconds from 1 to 3600';
const STATEMENT_TIMEOUT_MESSAGE = 'must be a number of seconds from 0.1 to 3600';
const LAG_MESSAGE = 'must be a number of seconds from 0.1 to 86400';
/**
 * How far behind the primary a standby may be before scans read the primary instead: a scan never
 * misses a record on a lagging standby (its bookkeeping stops at what the standby has replayed), it
 * only finds it later, so the limit is about how late an alert may come, not about correctness.
 */
export const DEFAULT_REPLICA_MAX_LAG_SECONDS = 30;
const CONNECTIONS_MESSAGE = 'must be a whole number of connections, at least 1';
/** The sender of alert e-mail when MAIL_FROM is not set; the .invalid domain cannot receive replies. */
export const DEFAULT_MAIL_FROM = 'Trademark Watch <alerts@trademark-watch.invalid>';
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'DATABASE_REPLICA_URL',
  'REDIS_URL',
  'SMTP_URL',
  'REGISTER_FEEDS',
  'USPTO_API_KEY',
  'EUIPO_CLIENT_ID',
  'EUIPO_CLIENT_SECRET',
]);
/**
 * The unzip limits' defaults, in MB: an entry far above the USPTO's largest daily XML file (a few
 * hundred MB; CIPO's and EUIPO's entries are one mark each, some KB), and a file far above a part
 * of EUIPO's full release (hundreds of thousands of marks). docs/operations.md, "Hostile files".
 */
export const DEFAULT_MAX_ENTRY_MB = 2048;
export const DEFAULT_MAX_UNZIPPED_MB = 20_480;
const UNZIP_MESSAGE = 'must be a whole number of megabytes, at least 1';
const megabytes = (fallback: number) =>
  z.coerce
    .number({ error: UNZIP_MESSAGE })
    .int({ error: UNZIP_MESSAGE })
    .min(1, { error: UNZIP_MESSAGE })
    .max(1024 * 1024 * 1024, { error: UNZIP_MESSAGE })
    .default(fallback);
// Visible ASCII only: credentials travel in an HTTP header or form, where a space or a line break
// would be refused (or split the header) long after the start.
const credential = (what: string) =>
  z.string().regex(/^[\x21-\x7e]+$/, `must be ${what}: visible ASCII characters, no spaces`);

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: PORT_MESSAGE })
    .int({ error: PORT_MESSAGE })
    .min(0, { error: PORT_MESSAGE })
    .max(65535, { error: PORT_MESSAGE })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_MAX_LAG_SECONDS: z.coerce
    .number({ error: LAG_MESSAGE })
    .min(0.1, { error: LAG_MESSAGE })
    .max(86_400, { error: LAG_MESSAGE })
    .default(DEFAULT_REPLICA_MAX_LAG_SECONDS),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SCHEDULER: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: RATE_MESSAGE })
    .int({ error: RATE_MESSAGE })
    .min(1, { error: RATE_MESSAGE })
    .default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.string().url().optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^([^\r\n<>]*<)?[^\s@<>]+@[^\s@<>]+>?$/,
      'must be an e-mail address, optionally with a name: Name <alerts@example.com>',
    )
    .default(DEFAULT_MAIL_FROM),
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => {
      if (value === 'true') return true;
      if (value === 'false') return false;
      const list = value.split(',').map((part) => part.trim());
      if (list.some((part) => !/^[0-9A-Fa-f.:/]+$/.test(part))) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be true, false or a comma list of proxy addresses or CIDR ranges',
        });
        return z.NEVER;
      }
      return list;
    })
    .default(false),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: TIMEOUT_MESSAGE })
    .min(1, { error: TIMEOUT_MESSAGE })
    .max(3600, { error: TIMEOUT_MESSAGE })
    .default(30),
  FAILED_AUTH_PER_MINUTE: z.coerce
    .number({ error: RATE_MESSAGE })
    .int({ error: RATE_MESSAGE })
    .min(1, { error: RATE_MESSAGE })
    .default(300),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce
    .number({ error: STATEMENT_TIMEOUT_MESSAGE })
    .min(0.1, { error: STATEMENT_TIMEOUT_MESSAGE })
    .max(3600, { error: STATEMENT_TIMEOUT_MESSAGE })
    .default(1.5),
  MAX_CONNECTIONS: z.coerce
    .number({ error: CONNECTIONS_MESSAGE })
    .int({ error: CONNECTIONS_MESSAGE })
    .min(1, { error: CONNECTIONS_MESSAGE })
    .default(1000),
  SCAN_LEASE_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds, at least 1' })
    .int({ error: 'must be a whole number of seconds, at least 1' })
    .min(1, { error: 'must be a whole number of seconds, at least 1' })
    .default(300),
  SCAN_POLL_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds from 0.1 to 60' })
    .min(0.1, { error: 'must be a number of seconds from 0.1 to 60' })
    .max(60, { error: 'must be a number of seconds from 0.1 to 60' })
    .default(DEFAULT_POLL_SECONDS),
  ALERT_LIST_CACHE_MB: z.coerce
    .number({ error: CACHE_MESSAGE })
    .int({ error: CACHE_MESSAGE })
    .min(0, { error: CACHE_MESSAGE })
    .max(MAX_CACHE_MB, { error: CACHE_MESSAGE })
    .default(DEFAULT_PAGE_CACHE_BYTES / MIB),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false'),
  REGISTER_SYNC_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a UTC time HH:MM (00:00 to 23:59)')
    .default('06:00'),
  REGISTER_FEEDS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const feeds: RegisterFeedConfig[] = [];
      for (const item of value.split(',').map((part) => part.trim())) {
        if (item === '') continue;
        const [name = '', url] = splitOnce(item, '=');
        if (!FEED_NAMES.includes(name)) {
          ctx.addIssue({
            code: 'custom',
            message: `names an unknown feed "${name}" (known: ${FEED_NAMES.join(', ')})`,
          });
          return z.NEVER;
        }
        if (url !== undefined && !isHttpUrl(url)) {
          ctx.addIssue({ code: 'custom', message: `gives feed ${name} a URL that is not http(s)` });
          return z.NEVER;
        }
        if (url === undefined && findFeed(name)?.defaultUrl === null) {
          ctx.addIssue({
            code: 'custom',
            message: `gives feed ${name} no URL, and it has no default location: write ${name}=URL (the listing of a mirror)`,
          });
          return z.NEVER;
        }
        if (feeds.some((feed) => feed.name === name)) {
          ctx.addIssue({ code: 'custom', message: `names feed ${name} twice` });
          return z.NEVER;
        }
        feeds.push({ name, url });
      }
      return feeds;
    }),
  // Visible ASCII only: it travels in an HTTP header, where a space or a line break would be
  // refused by Node at the first request (or split the header), long after the start.
  USPTO_API_KEY: credential('an API key').optional(),
  EUIPO_CLIENT_ID: credential('a client id').optional(),
  EUIPO_CLIENT_SECRET: credential('a client secret').optional(),
  EUIPO_ENVIRONMENT: z
    .enum(['production', 'sandbox'], { error: 'must be production or sandbox' })
    .default('production'),
  EUIPO_TOKEN_URL: z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  REGISTER_MAX_ENTRY_MB: megabytes(DEFAULT_MAX_ENTRY_MB),
  REGISTER_MAX_UNZIPPED_MB: megabytes(DEFAULT_MAX_UNZIPPED_MB),
});

/** A feed the scheduler syncs: `name`, or `name=URL` for a mirror of the office's location. */
export type RegisterFeedConfig = { name: string; url: string | undefined };

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * A hot standby of DATABASE_URL (DATABASE_REPLICA_URL) that scans read the register mirror
   * from, and the API its lists; every write still goes to DATABASE_URL. Unset: everything reads
   * the primary.
   */
  databaseReplicaUrl: string | undefined;
  /** Beyond this lag (or when it cannot be reached) the standby's reads go to the primary. */
  replicaMaxLagSeconds: number;
  dataDir: string;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  scheduler: boolean;
  rateLimitPerMinute: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** LOG_LEVEL was set: one-shot commands then log at it, otherwise only warnings and errors. */
  logLevelSet: boolean;
  /** Base URL used in links of emails; defaults to http://localhost:PORT. */
  publicUrl: string;
  /** PUBLIC_URL was set: without it, e-mail links only work on this machine (a warning at start). */
  publicUrlSet: boolean;
  /** The From of alert e-mail (MAIL_FROM). */
  mailFrom: string;
  /** Fastify's trustProxy: true, false or the proxies' addresses (TRUST_PROXY). */
  trustProxy: boolean | string[];
  /** A request not fully received in this time gets 408 and its connection is closed. */
  requestTimeoutMs: number;
  /** API requests with a missing or unknown key one client address may make per minute. */
  failedAuthPerMinute: number;
  /** Connections one process holds at most; further ones are closed at once. */
  maxConnections: number;
  /**
   * How long each PostgreSQL statement of an API or dashboard request may wait (for a connection
   * and for its answer) before the request gets 503: a frozen server must not hang requests.
   */
  statementTimeoutMs: number;
  /** How long a worker's claim on a watch lasts; a crashed worker's scan is redone after it. */
  scanLeaseSeconds: number;
  /** How often scanning processes look for due watches and due e-mail (≤ 60 s: a new watch's first scan starts within a minute). */
  scanPollSeconds: number;
  /** Memory for the GET /alerts pages an API process keeps between requests; 0: none. */
  alertListCacheBytes: number;
  /** Webhook URLs may be http:// and reach loopback, private and link-local addresses. */
  webhookAllowPrivateUrls: boolean;
  /** The UTC time of day (`HH:MM`) of the daily register sync of serve (SCHEDULER=on) and worker. */
  registerSyncAt: string;
  /** The feeds that daily sync covers; empty (the default): no sync, no outbound request. */
  registerFeeds: RegisterFeedConfig[];
  /**
   * The Open Data Portal API key (USPTO_API_KEY) the uspto-daily feed sends to its official
   * location. A secret: never logged nor repeated in a message.
   */
  usptoApiKey: string | undefined;
  /** EUIPO's Trademark Search API client credentials (euipo-api); secrets, like usptoApiKey. */
  euipoClientId: string | undefined;
  euipoClientSecret: string | undefined;
  /** Which of the API's environments euipo-api reads (EUIPO_ENVIRONMENT). */
  euipoEnvironment: 'production' | 'sandbox';
  /** The token endpoint, when not the environment's own (EUIPO_TOKEN_URL: a proxy, a test). */
  euipoTokenUrl: string | undefined;
  /** The most one entry of a feed's zip may unzip to, in bytes (REGISTER_MAX_ENTRY_MB). */
  registerMaxEntryBytes: number;
  /** The most all entries of one feed's zip may unzip to, in bytes (REGISTER_MAX_UNZIPPED_MB). */
  registerMaxUnzippedBytes: number;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset so `FOO= cmd` behaves like an absent variable.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    const value = cleaned[name];
    const got =
      value === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
    throw new ConfigError(
      `invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${got}`.replace(/\s+/g, ' '),
    );
  }
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URL !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError(
      'invalid configuration: DATABASE_REPLICA_URL needs DATABASE_URL (a standby of the embedded database cannot exist)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    replicaMaxLagSeconds: e.DATABASE_REPLICA_MAX_LAG_SECONDS,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    scheduler: e.SCHEDULER === 'on',
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    logLevelSet: cleaned.LOG_LEVEL !== undefined,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    publicUrlSet: e.PUBLIC_URL !== undefined,
    mailFrom: e.MAIL_FROM,
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: Math.round(e.REQUEST_TIMEOUT_SECONDS * 1000),
    maxConnections: e.MAX_CONNECTIONS,
    statementTimeoutMs: Math.round(e.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000),
    failedAuthPerMinute: e.FAILED_AUTH_PER_MINUTE,
    scanLeaseSeconds: e.SCAN_LEASE_SECONDS,
    scanPollSeconds: e.SCAN_POLL_SECONDS,
    alertListCacheBytes: e.ALERT_LIST_CACHE_MB * MIB,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
    registerSyncAt: e.REGISTER_SYNC_AT,
    registerFeeds: e.REGISTER_FEEDS,
    usptoApiKey: e.USPTO_API_KEY,
    euipoClientId: e.EUIPO_CLIENT_ID,
    euipoClientSecret: e.EUIPO_CLIENT_SECRET,
    euipoEnvironment: e.EUIPO_ENVIRONMENT,
    euipoTokenUrl: e.EUIPO_TOKEN_URL,
    registerMaxEntryBytes: e.REGISTER_MAX_ENTRY_MB * MIB,
    registerMaxUnzippedBytes: e.REGISTER_MAX_UNZIPPED_MB * MIB,
  };
}
