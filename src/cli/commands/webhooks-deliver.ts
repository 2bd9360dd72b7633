import { systemClock } from '../../clock.ts';
import { deliverDueWebhooks } from '../../webhooks/sender.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'webhooks deliver',
  summary:
    'Send the webhook deliveries that are due now (new events, and failed ones whose retry time came)',
  options: {},
  prints: '{"delivered":n,"failed":n}',
  examples: [
    'tmwatch webhooks deliver',
    'WEBHOOK_ALLOW_PRIVATE_URLS=true tmwatch webhooks deliver',
  ],
  run: ({ db, config, logger }) =>
    deliverDueWebhooks(db, logger, {
      allowPrivate: config.webhookAllowPrivateUrls,
      clock: systemClock,
    }),
});
