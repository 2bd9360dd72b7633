import type { Logger } from 'pino';
import { type Clock, dateOf, systemClock } from '../clock.ts';
import type { Db } from '../data/db.ts';
import {
  claimDueDeliveries,
  type DueDelivery,
  markAttemptFailed,
  markDelivered,
} from '../data/repositories/webhooks.ts';
import { drainQueue, type Queue } from '../runner.ts';
import { postWebhook } from './http-post.ts';
import { DISABLE_AFTER_FAILING_SECONDS, nextRetryDelaySeconds } from './retry-schedule.ts';
import { signatureHeaders } from './signing.ts';

/** A receiver has this long to answer 2xx. */
export const DELIVERY_TIMEOUT_MS = 10_000;
// Longer than a request can take, so a live sender never loses its claim mid-request.
const LEASE_SECONDS = 60;

/** Requests one process has in flight at once. */
export const DELIVERY_SLOTS = 16;
/**
 * Requests one owner has in flight at once, across all processes: an owner's endpoints that never
 * answer hold this many, and everyone else's deliveries go out beside them.
 */
export const OWNER_IN_FLIGHT = 4;

export type DeliverOptions = {
  /** WEBHOOK_ALLOW_PRIVATE_URLS */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** The time of each attempt, which its signature states. */
  clock?: Clock;
};

export type DeliverResult = { delivered: number; failed: number };

/** One attempt at one claimed delivery: signed, sent, and its outcome recorded. */
async function deliver(
  db: Db,
  logger: Logger,
  options: DeliverOptions,
  delivery: DueDelivery,
): Promise<'delivered' | 'failed'> {
  const at = dateOf(options.clock ?? systemClock);
  const headers = signatureHeaders(delivery.secret, delivery.eventId, delivery.body, at);
  const outcome = await postWebhook(delivery.url, headers, delivery.body, {
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });
  if (outcome.delivered) {
    await markDelivered(db, delivery, outcome.status);
    return 'delivered';
  }
  const retryInSeconds = nextRetryDelaySeconds(delivery.attempts);
  const disabled = await markAttemptFailed(db, delivery, {
    status: outcome.status,
    error: outcome.error,
    retryInSeconds,
    disableAfterSeconds: DISABLE_AFTER_FAILING_SECONDS,
  });
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
  return 'failed';
}

/**
 * Webhook deliveries (the outbox the alert module writes) as a queue of the background runner:
 * DELIVERY_SLOTS requests at once per process, each claimed as a slot frees, never more than
 * OWNER_IN_FLIGHT of one owner; a failed attempt is retried on the schedule of retry-schedule.ts.
 */
export function webhookQueue(
  db: Db,
  logger: Logger,
  options: DeliverOptions,
): Queue<DueDelivery, 'delivered' | 'failed'> {
  return {
    name: 'webhook deliveries',
    slots: DELIVERY_SLOTS,
    claim: (limit) =>
      claimDueDeliveries(db, { limit, leaseSeconds: LEASE_SECONDS, perOwner: OWNER_IN_FLIGHT }),
    work: (delivery) => deliver(db, logger, options, delivery),
  };
}

/**
 * Sends every delivery that is due now (`tmwatch webhooks deliver`); `failed` counts the attempts
 * that failed in this pass.
 */
export async function deliverDueWebhooks(
  db: Db,
  logger: Logger,
  options: DeliverOptions,
): Promise<DeliverResult> {
  const outcomes = await drainQueue(webhookQueue(db, logger, options), logger);
  return {
    delivered: outcomes.filter((o) => o === 'delivered').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
