import type { Logger } from 'pino';
import { type Clock, dateOf, systemClock } from '../clock.ts';
import type { Db } from '../data/db.ts';
import {
  claimDueDeliveries,
  markAttemptFailed,
  markDelivered,
} from '../data/repositories/webhooks.ts';
import { postWebhook } from './http-post.ts';
import { DISABLE_AFTER_FAILING_SECONDS, nextRetryDelaySeconds } from './retry-schedule.ts';
import { signatureHeaders } from './signing.ts';

/** A receiver has this long to answer 2xx. */
export const DELIVERY_TIMEOUT_MS = 10_000;
// Longer than a request can take, so a live sender never loses its claim mid-request.
const LEASE_SECONDS = 60;

export type DeliverOptions = {
  /** WEBHOOK_ALLOW_PRIVATE_URLS */
  allowPrivate: boolean;
  batch?: number;
  timeoutMs?: number;
  /** The time of each attempt, which its signature states. */
  clock?: Clock;
};

export type DeliverResult = { delivered: number; failed: number };

/**
 * Sends every delivery that is due now (`tmwatch webhooks deliver`, and the background loop of
 * `serve` and `worker`). Each claimed batch is sent in parallel; a failed attempt is retried on
 * the schedule of retry-schedule.ts, and `failed` counts the attempts that failed in this pass.
 */
export async function deliverDueWebhooks(
  db: Db,
  logger: Logger,
  options: DeliverOptions,
): Promise<DeliverResult> {
  const result: DeliverResult = { delivered: 0, failed: 0 };
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const clock = options.clock ?? systemClock;
  for (;;) {
    const due = await claimDueDeliveries(db, options.batch ?? 20, LEASE_SECONDS);
    if (due.length === 0) return result;
    await Promise.all(
      due.map(async (delivery) => {
        const headers = signatureHeaders(
          delivery.secret,
          delivery.eventId,
          delivery.body,
          dateOf(clock),
        );
        const outcome = await postWebhook(delivery.url, headers, delivery.body, {
          allowPrivate: options.allowPrivate,
          timeoutMs,
        });
        if (outcome.delivered) {
          await markDelivered(db, delivery, outcome.status);
          result.delivered++;
          return;
        }
        const retryInSeconds = nextRetryDelaySeconds(delivery.attempts);
        const disabled = await markAttemptFailed(db, delivery, {
          status: outcome.status,
          error: outcome.error,
          retryInSeconds,
          disableAfterSeconds: DISABLE_AFTER_FAILING_SECONDS,
        });
        result.failed++;
        logger.warn(
          {
            deliveryId: delivery.id,
            webhookId: delivery.webhookId,
            attempts: delivery.attempts,
            reason: outcome.error,
            retryInSeconds,
          },
          retryInSeconds === null ? 'webhook delivery failed for good' : 'webhook delivery failed',
        );
        if (disabled) logger.warn({ webhookId: delivery.webhookId }, 'webhook endpoint disabled');
      }),
    );
  }
}
