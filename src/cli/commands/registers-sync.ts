import { feedSettingsOf, type SyncReport, syncFeed } from '../../mirror/sync.ts';
import { FEED_NAMES, findFeed, isHttpUrl } from '../../register/feeds.ts';
import { defineCommand, UsageError } from '../command.ts';
import { retryLine, slowConnectLine, syncProgressBars } from '../sync-progress.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isRealDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const command = defineCommand({
  kind: 'database',
  name: 'registers sync',
  summary:
    "Download the feed's register files not loaded yet (or the API's changes) and import them into the register mirror",
  options: {
    feed: {
      type: 'string',
      choices: FEED_NAMES,
      valueName: 'FEED',
      description: `Which feed (default ${FEED_NAMES[0]})`,
    },
    url: {
      type: 'string',
      valueName: 'URL',
      description:
        "Where the feed's listing is (a mirror; euipo-api: the API's base URL), instead of the feed's URL in REGISTER_FEEDS or the office's location",
    },
    since: {
      type: 'string',
      valueName: 'YYYY-MM-DD',
      description:
        "Load the listed files dated from this day on, a full release's too (a backfill); euipo-api: the marks changed since (default on a first sync: the 7 newest days)",
    },
  },
  prints:
    '{"feed","url","files":[{"name","status":"loaded|failed|skipped","bytes","imported","updated","skipped","errors","deleted"?,"reason"?}]}; exit status 1 if a file failed',
  examples: [
    'tmwatch registers sync',
    'tmwatch registers sync --feed uspto-daily --since 2026-01-01',
    'tmwatch registers sync --feed cipo-weekly',
    'tmwatch registers sync --feed euipo-bulk --url http://mirror.example/euipo/',
    'tmwatch registers sync --url http://mirror.example/trtdxfap/',
  ],
  check: (values) => {
    if (values.since !== undefined && !isRealDay(values.since)) {
      throw new UsageError(`--since must be a date YYYY-MM-DD (got "${values.since}")`);
    }
    if (values.url !== undefined && !isHttpUrl(values.url)) {
      throw new UsageError(`--url must be an http:// or https:// URL (got "${values.url}")`);
    }
  },
  run: async ({ db, values, config, logger, stderr }) => {
    const feed = findFeed(values.feed ?? (FEED_NAMES[0] as string));
    if (!feed) throw new UsageError(`unknown feed "${values.feed}"`);
    // The location the operator gave the feed in REGISTER_FEEDS (a mirror), as the daily sync
    // reads it; --url wins over it, and the feed's official location is the fallback of both.
    const configured = config.registerFeeds.find((entry) => entry.name === feed.name)?.url;
    const { defaultUrl, ...settings } = feedSettingsOf(feed, config);
    // Progress bars only on a terminal: stdout is the JSON report, so the bars go to stderr.
    const bars = syncProgressBars(process.stderr);
    const say = (line: string) => {
      if (bars) bars.log(line);
      else void stderr(`${line}\n`);
    };
    try {
      return await syncFeed(db, {
        feed,
        url: values.url ?? configured ?? defaultUrl ?? undefined,
        ...settings,
        since: values.since,
        logger,
        onProgress: bars?.onProgress,
        // Whether or not stderr is a terminal: a sync waiting to try again says so at once.
        onRetry: (notice) => say(retryLine(notice)),
        onSlowConnect: (notice) => say(slowConnectLine(notice)),
      });
    } finally {
      bars?.stop();
    }
  },
  exitStatus: (result) =>
    (result as SyncReport).files.some((file) => file.status === 'failed') ? 1 : 0,
});
