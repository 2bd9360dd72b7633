import { z } from 'zod';
import { nameText } from '../text.ts';
import { WEBHOOK_EVENTS } from './webhook-events.ts';

// Request schemas of webhooks, shared by the API and the dashboard so both say the same thing.
// Whether a URL's scheme and host are allowed depends on WEBHOOK_ALLOW_PRIVATE_URLS: the service
// checks that (webhooks.ts), after this shape check.

const EVENTS_MESSAGE = `Expected one of ${WEBHOOK_EVENTS.join(', ')}.`;

export const webhookUrlSchema = nameText(
  z.string().trim().min(1, 'A URL is required.').max(2048, 'At most 2048 characters.'),
  'url',
).refine((value) => URL.canParse(value), 'Expected an absolute URL.');

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: EVENTS_MESSAGE }))
  .min(1, 'Subscribe to at least one event.')
  .refine((events) => new Set(events).size === events.length, 'Each event may appear only once.');

const descriptionSchema = nameText(
  z.string().trim().max(500, 'At most 500 characters.'),
  'description',
);

export const createWebhookSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  description: descriptionSchema.nullable().optional(),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  active: z.boolean().optional(),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;
