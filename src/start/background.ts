import { emailQueue } from '../email/sender.ts';
import { mailTransportFor } from '../email/transport.ts';
import { registerSyncQueue } from '../mirror/schedule.ts';
import { type Queue, runQueues } from '../runner.ts';
import { scannerFor } from '../scan/scanner.ts';
import { webhookQueue } from '../webhooks/sender.ts';
import type { BackgroundTask, RoleContext } from './context.ts';
import { openReads } from './runtime.ts';

/**
 * The background work of a scanning process, in one place: due scans, the alert e-mail they queue,
 * webhook deliveries, and the daily register sync of REGISTER_FEEDS (its new records reach watches
 * through the ordinary scans), each a queue of the one runner (src/runner.ts), which looks for due
 * work every SCAN_POLL_SECONDS. `tmwatch worker` runs it until a signal; `tmwatch serve` with
 * SCHEDULER=on runs the same inside the API process. Resolves once `signal` aborts and the work in
 * hand has finished: the scans in hand have committed, the requests in hand have ended (10 s at
 * most), and a register sync has stopped between two chunks or batches.
 */
export async function runBackgroundWork(
  context: RoleContext & { signal: AbortSignal },
): Promise<void> {
  const { config, db, logger, clock, signal } = context;
  const reads = await openReads(context);
  const scanner = scannerFor({ ...context, reads });
  const transport = mailTransportFor(config);
  const queues: Queue<unknown>[] = [
    scanner.queue,
    emailQueue(db, transport, logger),
    webhookQueue(db, logger, { allowPrivate: config.webhookAllowPrivateUrls, clock }),
  ];
  const registerSync = registerSyncQueue(context);
  if (registerSync !== null) {
    queues.push(registerSync);
    logger.info(
      { feeds: config.registerFeeds.map((feed) => feed.name), at: config.registerSyncAt },
      'register sync scheduled daily (UTC)',
    );
  }
  logger.info({ worker: scanner.workerId }, 'scanning due watches');
  try {
    await runQueues(queues, { pollMs: config.scanPollSeconds * 1000, signal, logger });
  } finally {
    transport.close();
    await reads.close();
  }
}

/** The in-process scheduler of `tmwatch serve` (SCHEDULER=on); stopped first on shutdown. */
export function startScheduler(context: RoleContext): BackgroundTask {
  const controller = new AbortController();
  const running = runBackgroundWork({ ...context, signal: controller.signal });
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
