import type { Logger } from 'pino';
import type { Db } from '../data/db.ts';
import { claimDueMessages, markFailed, markSent } from '../data/repositories/outbox.ts';
import type { MailTransport } from './transport.ts';

/** 30 s, 1 min, 2 min … capped at an hour; a message is retried until it is delivered. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);
}

export type FlushResult = { sent: number; failed: number };

/** Sends every message that is due now (`tmwatch emails flush`, and the background loop). */
export async function flushDueEmails(
  db: Db,
  transport: MailTransport,
  logger: Logger,
  options: { batch?: number } = {},
): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, failed: 0 };
  for (;;) {
    const due = await claimDueMessages(db, options.batch ?? 20, 120);
    if (due.length === 0) return result;
    for (const message of due) {
      try {
        await transport.send({
          messageId: `<${message.id}@trademark-watch>`,
          to: message.recipients,
          subject: message.subject,
          text: message.bodyText,
          html: message.bodyHtml,
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const delay = retryDelaySeconds(message.attempts);
        logger.warn(
          { outboxId: message.id, attempts: message.attempts, reason, retryInSeconds: delay },
          'alert e-mail not sent',
        );
        await markFailed(db, message.id, reason, delay);
        result.failed++;
        continue;
      }
      await db.transaction((tx) => markSent(tx, message.id, message.alertIds));
      result.sent++;
    }
  }
}
