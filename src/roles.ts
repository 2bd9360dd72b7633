import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './data/db.ts';
import { demoAccountStep } from './first-start.ts';
import { runRegisterSyncLoop } from './register/sync/schedule.ts';
import { runScanLoops, sampleMarksStep, startInProcessScheduler } from './scan/roles.ts';
import { runWebhookLoop, startWebhookLoop } from './webhooks/roles.ts';

/**
 * The plug points of the process roles. One codebase runs several roles (`tmwatch serve`,
 * `tmwatch worker`, the one-shot CLI commands); each gets the same services, wired once in
 * server.ts / worker.ts / cli/main.ts. Features that run in the background plug in here.
 */

/** What every role is given: configuration, the open (migrated) database and the logger. */
export type RoleContext = { config: Config; db: Db; logger: Logger };

/** Something running in the background of a process; stopped before the database closes. */
export type BackgroundTask = { stop(): Promise<void> };

/**
 * `tmwatch worker`: runs scans until `signal` aborts, finishes (or abandons safely) the scan in
 * hand, then resolves. The process closes the database and exits 0 afterwards.
 */
export type WorkerRunner = (context: RoleContext & { signal: AbortSignal }) => Promise<void>;

/** `tmwatch serve` with SCHEDULER=on: starts in-process scanning once the server listens. */
export type SchedulerStarter = (context: RoleContext) => Promise<BackgroundTask>;

/** What a first-start step also knows: the address the server answers on. */
export type FirstStartContext = RoleContext & { baseUrl: string };

/**
 * A step of the first start of an empty embedded database, run by `serve` once it listens.
 * The lines it returns are printed in the console banner.
 */
export type FirstStartStep = { name: string; run(context: FirstStartContext): Promise<string[]> };

/**
 * `tmwatch worker`: due scans and the alert e-mail they queue, webhook deliveries, and the daily
 * register sync of REGISTER_FEEDS (its new records reach watches through the ordinary scans).
 */
export const runWorker: WorkerRunner = async (context) => {
  await Promise.all([runScanLoops(context), runWebhookLoop(context), runRegisterSyncLoop(context)]);
};

/** The in-process scheduler of `tmwatch serve` (SCHEDULER=on): the same loops in the API process. */
export const startScheduler: SchedulerStarter = async (context) => {
  const tasks = [await startInProcessScheduler(context), startWebhookLoop(context)];
  const controller = new AbortController();
  const syncing = runRegisterSyncLoop({ ...context, signal: controller.signal });
  return {
    async stop() {
      controller.abort();
      await Promise.all([...tasks.map((task) => task.stop()), syncing]);
    },
  };
};

/**
 * Run in this order on the first start. "First" means the embedded database has no user yet, so
 * the demo account, which creates the first user, must stay the last step: a start that fails
 * in an earlier step is retried in full on the next start. (Loading the register sample goes
 * before it.)
 */
export const firstStartSteps: readonly FirstStartStep[] = [sampleMarksStep, demoAccountStep];
