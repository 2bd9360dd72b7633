import type { Queryable } from '../../data/db.ts';
import { insertAlertDeliveries, subscribedWebhookIds } from '../../data/repositories/webhooks.ts';
import { newId } from '../ids.ts';
import type { WebhookEvent } from '../webhook-events.ts';

/**
 * Records `eventType` for each alert, to every active endpoint of the owner subscribed to it, in
 * the caller's transaction: the transactional outbox. The alerts must be the owner's and already
 * written (the body holds each alert's JSON as the API returns it). One id per event, the same for
 * every endpoint and every attempt: the `webhook-id` receivers de-duplicate on.
 */
export async function enqueueAlertEvents(
  tx: Queryable,
  eventType: WebhookEvent,
  ownerId: string,
  alertIds: readonly string[],
): Promise<void> {
  if (alertIds.length === 0) return;
  const webhookIds = await subscribedWebhookIds(tx, ownerId, eventType);
  if (webhookIds.length === 0) return;
  const rows = alertIds.flatMap((alertId) => {
    const eventId = newId('msg');
    return webhookIds.map((webhookId) => ({ id: newId('whd'), webhookId, eventId, alertId }));
  });
  await insertAlertDeliveries(tx, eventType, rows);
}
