import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './generated/api.js';

export { WebhookVerificationError };

export type Alert = components['schemas']['Alert'];

/** What Trademark Watch POSTs to a webhook endpoint (the body, once verified). */
export type WebhookEvent =
  | { type: 'alert.created'; timestamp: string; data: Alert }
  | { type: 'alert.updated'; timestamp: string; data: Alert }
  | { type: 'webhook.test'; timestamp: string; data: { webhookId: string; message: string } };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: HeaderBag): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string')
      out[name.toLowerCase()] = value[0];
  }
  return out;
}

/**
 * Checks a webhook request as the receiver got it: `body` must be the raw body, byte for byte,
 * not a re-serialised object. Verifies the `webhook-signature` under the endpoint's `whsec_`
 * secret and that `webhook-timestamp` is within 5 minutes, per Standard Webhooks. Returns the
 * event; throws WebhookVerificationError otherwise. De-duplicate on the `webhook-id` header:
 * a delivery may be retried.
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  body: string | Buffer,
): WebhookEvent {
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
