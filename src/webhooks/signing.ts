import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A signing secret in the Standard Webhooks format: `whsec_` and base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The three headers of the Standard Webhooks specification, signed by its own library:
 * `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret.
 * The timestamp is the time of this attempt (receivers refuse stale ones), the id the event's.
 */
export function signatureHeaders(
  secret: string,
  eventId: string,
  body: string,
  at: Date,
): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}
