import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../data/db.ts';
import { flushDueEmails } from '../email/sender.ts';
import { type MailTransport, mailTransportFor } from '../email/transport.ts';
import { scannerFor } from '../scan/scanner.ts';
import type { RoleContext } from './context.ts';

async function emailLoop(
  db: Db,
  transport: MailTransport,
  logger: Logger,
  signal: AbortSignal,
  everyMs: number,
) {
  while (!signal.aborted) {
    try {
      await flushDueEmails(db, transport, logger);
    } catch (error) {
      logger.error({ err: error }, 'alert e-mail pass failed');
    }
    await sleep(everyMs, undefined, { signal }).catch(() => {});
  }
}

/**
 * Due scans, and sending the alert e-mail they queue, every SCAN_POLL_SECONDS. Resolves once
 * `signal` aborts and the scan in hand has committed.
 */
export async function runScanLoops(context: RoleContext & { signal: AbortSignal }): Promise<void> {
  const { config, db, logger, signal } = context;
  const scanner = scannerFor(context);
  const transport = mailTransportFor(config);
  logger.info({ worker: scanner.workerId }, 'scanning due watches');
  try {
    await Promise.all([
      scanner.runUntil(signal, config.scanPollSeconds * 1000),
      emailLoop(db, transport, logger, signal, config.scanPollSeconds * 1000),
    ]);
  } finally {
    transport.close();
  }
}
