import { setTimeout as sleep } from 'node:timers/promises';
import { deliverDueWebhooks } from '../webhooks/sender.ts';
import type { RoleContext } from './context.ts';

/**
 * Webhook delivery in the background of `serve` (SCHEDULER=on) and `worker`, every
 * SCAN_POLL_SECONDS. Deliveries are claimed in the database, so any number of processes share
 * them and each delivery is in the hands of one at a time. Resolves once `signal` aborts and the
 * requests in hand have finished (10 s at most).
 */
export async function runWebhookLoop(context: RoleContext & { signal: AbortSignal }) {
  const { config, db, logger, signal } = context;
  while (!signal.aborted) {
    try {
      await deliverDueWebhooks(db, logger, {
        allowPrivate: config.webhookAllowPrivateUrls,
        clock: context.clock,
      });
    } catch (error) {
      logger.error({ err: error }, 'webhook delivery pass failed');
    }
    await sleep(config.scanPollSeconds * 1000, undefined, { signal }).catch(() => {});
  }
}
