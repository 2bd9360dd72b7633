import { runRegisterSyncLoop } from '../mirror/schedule.ts';
import type { BackgroundTask, RoleContext } from './context.ts';
import { runScanLoops } from './scan-loops.ts';
import { runWebhookLoop } from './webhook-loop.ts';

/**
 * The background work of a scanning process, in one place: due scans and the alert e-mail they
 * queue, webhook deliveries, and the daily register sync of REGISTER_FEEDS (its new records reach
 * watches through the ordinary scans). `tmwatch worker` runs it until a signal; `tmwatch serve`
 * with SCHEDULER=on runs the same loops inside the API process.
 */
export async function runBackgroundLoops(
  context: RoleContext & { signal: AbortSignal },
): Promise<void> {
  await Promise.all([runScanLoops(context), runWebhookLoop(context), runRegisterSyncLoop(context)]);
}

/** The in-process scheduler of `tmwatch serve` (SCHEDULER=on); stopped first on shutdown. */
export function startScheduler(context: RoleContext): BackgroundTask {
  const controller = new AbortController();
  const running = runBackgroundLoops({ ...context, signal: controller.signal });
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
