import type { Queryable } from '../data/db.ts';
import { setAlertState } from '../data/repositories/alerts.ts';
import {
  insertAlertDeliveries,
  insertDelivery,
  subscribedWebhookIds,
} from '../data/repositories/webhooks.ts';
import type { AlertState } from '../domain/alert-types.ts';
import { newId } from '../domain/ids.ts';

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['alert.created', 'alert.updated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The type of the dashboard's "send a test event": sent to one endpoint whatever it subscribes. */
export const TEST_EVENT = 'webhook.test';

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

/**
 * Sets an alert's state (API PATCH and dashboard) and, when it really changed, records its
 * `alert.updated` event in the same transaction. Returns the alert's JSON, or null when the owner
 * has no such alert.
 */
export async function setAlertStateWithEvent(
  tx: Queryable,
  ownerId: string,
  alertId: string,
  state: AlertState,
): Promise<string | null> {
  const before = await tx.query<{ state: string }>(
    'SELECT state FROM alerts WHERE id = $1 AND owner_id = $2 FOR UPDATE',
    [alertId, ownerId],
  );
  const previous = before[0]?.state;
  if (previous === undefined) return null;
  const json = await setAlertState(tx, ownerId, alertId, state);
  if (previous !== state) await enqueueAlertEvents(tx, 'alert.updated', ownerId, [alertId]);
  return json;
}

/** The dashboard's test event for one endpoint. */
export async function enqueueTestEvent(db: Queryable, webhookId: string): Promise<string> {
  const eventId = newId('msg');
  await insertDelivery(db, {
    id: newId('whd'),
    webhookId,
    eventId,
    eventType: TEST_EVENT,
    data: { webhookId, message: 'A test event from Trademark Watch.' },
  });
  return eventId;
}
