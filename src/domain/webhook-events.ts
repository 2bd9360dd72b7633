import type { Queryable } from '../data/db.ts';
import { insertDelivery } from '../data/repositories/webhooks.ts';
import { newId } from './ids.ts';

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['alert.created', 'alert.updated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The type of the dashboard's "send a test event": sent to one endpoint whatever it subscribes. */
export const TEST_EVENT = 'webhook.test';

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
