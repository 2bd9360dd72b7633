import { flushDueEmails } from '../../email/sender.ts';
import { mailTransportFor } from '../../email/transport.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'emails flush',
  summary:
    'Send the alert e-mails that are due now (new ones, and failed ones whose retry time came)',
  options: {},
  prints: '{"sent":n,"failed":n}',
  examples: [
    'tmwatch emails flush',
    'SMTP_URL=smtp://user:pass@mail.example.com:587 tmwatch emails flush',
  ],
  run: async ({ db, config, logger }) => {
    const transport = mailTransportFor(config);
    try {
      return await flushDueEmails(db, transport, logger);
    } finally {
      transport.close();
    }
  },
});
