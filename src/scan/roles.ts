import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import { countMarks } from '../data/repositories/marks.ts';
import { flushDueEmails } from '../email/sender.ts';
import { folderTransport, type MailTransport, smtpTransport } from '../email/transport.ts';
import { importRecordFiles } from '../register/import.ts';
import { SAMPLE_MARKS_PATH } from '../register/sample-marks.ts';
import type { BackgroundTask, FirstStartStep, RoleContext } from '../roles.ts';
import { createScanner } from './scanner.ts';

/** SMTP when SMTP_URL is set; otherwise .eml files in DATA_DIR/outbox (README). */
export function mailTransportFor(config: Config): MailTransport {
  return config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom)
    : folderTransport(join(config.dataDir, 'outbox'), config.mailFrom);
}

export function scannerFor(context: RoleContext) {
  const { config, db, logger } = context;
  return createScanner({
    db,
    logger,
    publicUrl: config.publicUrl,
    leaseSeconds: config.scanLeaseSeconds,
    // PGlite runs every query on the event loop: parallel scans only queue behind each other.
    concurrency: db.kind === 'postgres' ? 4 : 1,
  });
}

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
 * The background work of a scanning process: due scans, and sending the alert e-mail they queue.
 * Resolves once `signal` aborts and the scan in hand has committed.
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

/** `tmwatch serve` with SCHEDULER=on: the same loops inside the API process. */
export async function startInProcessScheduler(context: RoleContext): Promise<BackgroundTask> {
  const controller = new AbortController();
  const running = runScanLoops({ ...context, signal: controller.signal });
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}

/** First start: the bundled sample of real records, so that a newcomer's first watch finds something. */
export const sampleMarksStep: FirstStartStep = {
  name: 'register sample',
  async run({ db }) {
    if ((await countMarks(db)) > 0) return [];
    const summary = await importRecordFiles(db, [SAMPLE_MARKS_PATH]);
    return [
      `Loaded ${summary.imported} sample trademark records (real USPTO cases: a sample, not a register) into the register mirror.`,
    ];
  },
};
