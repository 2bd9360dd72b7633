import type { Logger } from 'pino';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { runBackgroundWork } from './background.ts';
import { openDatabase, shutdownSignal, warnWithoutPublicUrl } from './runtime.ts';

/**
 * `tmwatch worker`: scan workers only, no HTTP. Any number of them may share a PostgreSQL database;
 * on SIGTERM or SIGINT the runner is asked to stop and the process exits once it has.
 */
export async function runWorkerProcess(config: Config, logger: Logger): Promise<number> {
  const signal = shutdownSignal(logger);
  warnWithoutPublicUrl(config, logger);
  const db = await openDatabase(config, logger);
  const controller = new AbortController();
  void signal.then((received) => {
    logger.info({ signal: received }, 'stopping: finishing the scan in hand');
    controller.abort();
  });
  try {
    logger.info({ database: db.kind }, 'worker started');
    await runBackgroundWork({
      config,
      db,
      logger,
      clock: systemClock,
      signal: controller.signal,
    });
  } finally {
    await db.close();
  }
  logger.info('stopped');
  return 0;
}
