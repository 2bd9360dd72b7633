import type { Logger } from 'pino';
import type { Db } from '../data/db.ts';
import {
  claimDueMessages,
  markFailed,
  markSent,
  type OutboxMessage,
} from '../data/repositories/outbox.ts';
import { drainQueue, type Queue } from '../runner.ts';
import type { MailTransport } from './transport.ts';

/** 30 s, 1 min, 2 min … capped at an hour; a message is retried until it is delivered. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);
}

// Longer than sending one message takes, so a live sender never loses its claim mid-send.
const CLAIM_SECONDS = 120;

export type FlushResult = { sent: number; failed: number };

/** Sends one claimed message; a refusal is recorded and retried later (retryDelaySeconds). */
async function send(
  db: Db,
  transport: MailTransport,
  logger: Logger,
  message: OutboxMessage,
): Promise<'sent' | 'failed'> {
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
    return 'failed';
  }
  await db.transaction((tx) => markSent(tx, message.id, message.alertIds));
  return 'sent';
}

/**
 * The alert e-mail the scans queued (table email_outbox), as a queue of the background runner:
 * one message at a time per process, claimed with a lease.
 */
export function emailQueue(
  db: Db,
  transport: MailTransport,
  logger: Logger,
): Queue<OutboxMessage, 'sent' | 'failed'> {
  return {
    name: 'alert e-mail',
    slots: 1,
    claim: (limit) => claimDueMessages(db, limit, CLAIM_SECONDS),
    work: (message) => send(db, transport, logger, message),
  };
}

/** Sends every message that is due now (`tmwatch emails flush`). */
export async function flushDueEmails(
  db: Db,
  transport: MailTransport,
  logger: Logger,
): Promise<FlushResult> {
  const outcomes = await drainQueue(emailQueue(db, transport, logger), logger);
  return {
    sent: outcomes.filter((o) => o === 'sent').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
