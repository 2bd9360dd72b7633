import type { Logger } from 'pino';
import { logFailure } from './outage.ts';

/** How often a process looks for due work when none was due (SCAN_POLL_SECONDS's default). */
export const DEFAULT_POLL_SECONDS = 5;

// The one way background work runs: scans, alert e-mail, webhook deliveries and the register
// sync are each a queue of rows in the database, and this module works them. Each queue claims
// its due rows itself, in one statement of its repository (FOR UPDATE SKIP LOCKED, with a lease
// that ends, so that any number of processes share the work, an item is in one process's hands
// at a time and a dead process's items come back); what they share is here: slots kept busy,
// claiming as they free, looking again every poll interval, and stopping (docs/architecture.md).

export type Queue<T, R = unknown> = {
  /** For the logs. */
  name: string;
  /** Items this process works on at once. */
  slots: number;
  /**
   * Claims up to `limit` due items, each under a lease. Fewer than `limit` (or none) means that
   * nothing more is due now.
   */
  claim(limit: number): Promise<T[]>;
  /** Works one claimed item; `signal` aborts when the runner stops, for work that can stop early. */
  work(item: T, signal: AbortSignal): Promise<R>;
};

export type RunOptions = {
  /** How long to wait before looking again when nothing was due (SCAN_POLL_SECONDS). */
  pollMs: number;
  signal: AbortSignal;
  logger: Logger;
};

/** Resolves after `ms` (never, when null), when `wake` is called, or when `signal` aborts. */
function pause(ms: number | null, signal: AbortSignal): { done: Promise<void>; wake(): void } {
  let wake = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = ms === null ? undefined : setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    }
    wake = finish;
    if (signal.aborted) finish();
    else signal.addEventListener('abort', finish, { once: true });
  });
  return { done, wake };
}

type WorkOptions<R> = {
  signal: AbortSignal;
  logger: Logger;
  /** null: look again only once a slot frees. */
  pollMs: number | null;
  /** Whether to stop now; `idle`: nothing more was due and nothing is in hand. */
  until(idle: boolean): boolean;
  /** Receives what the work of each item returned. */
  onResult?(result: R): void;
  /** Claim and work failures: logged and the queue goes on (a running process), or thrown. */
  failures: 'log' | 'throw';
};

/**
 * Works one queue: keeps its slots busy, claiming as many items as slots are free whenever one
 * frees, so that a slow item holds its own slot only, never the others. When a claim finds less
 * than it asked for, nothing more is due: it looks again once a slot frees (the item may have
 * held back others, as the webhook claim's per-owner cap does) or after `pollMs`. Ends when
 * `until` says so, or when the signal aborts, once the items in hand are done.
 */
async function workQueue<T, R>(queue: Queue<T, R>, options: WorkOptions<R>): Promise<void> {
  const { signal, logger } = options;
  const inFlight = new Set<Promise<void>>();
  // What failed, when failures are thrown: the first one is.
  const failed: unknown[] = [];
  const fail = (error: unknown, what: string) => {
    if (options.failures === 'throw') failed.push(error);
    // An outage fails every claim and item the same way until it ends: one line each, no stack.
    else logFailure(logger, error, { queue: queue.name }, what);
  };
  let waiting = { done: Promise.resolve(), wake() {} };
  // Whether an item ended while the runner was claiming: its slot is free and its wake was spent.
  let freed = false;
  while (!signal.aborted && failed.length === 0) {
    freed = false;
    const free = queue.slots - inFlight.size;
    let claimed: T[] = [];
    if (free > 0) {
      try {
        claimed = await queue.claim(free);
      } catch (error) {
        fail(error, 'claiming background work failed');
      }
    }
    for (const item of claimed) {
      const done: Promise<void> = queue
        .work(item, signal)
        .then(
          (result) => options.onResult?.(result),
          (error: unknown) => fail(error, 'background work failed'),
        )
        .finally(() => {
          inFlight.delete(done);
          freed = true;
          waiting.wake();
        });
      inFlight.add(done);
    }
    const allDue = free > 0 && claimed.length === free;
    if (failed.length > 0 || options.until(!allDue && inFlight.size === 0)) break;
    if (freed) continue;
    waiting = pause(allDue || free === 0 ? null : options.pollMs, signal);
    await waiting.done;
  }
  await Promise.all(inFlight);
  if (failed.length > 0) throw failed[0];
}

/**
 * Runs the queues until `signal` aborts (`tmwatch worker`, and `serve` with SCHEDULER=on), then
 * resolves once the work in hand has finished or stopped.
 */
export async function runQueues(
  queues: readonly Queue<unknown>[],
  options: RunOptions,
): Promise<void> {
  await Promise.all(
    queues.map((queue) => workQueue(queue, { ...options, until: () => false, failures: 'log' })),
  );
}

/**
 * Works a queue until nothing is due and nothing is in hand, or until `signal` aborts (the
 * one-shot commands: `tmwatch emails flush`, `webhooks deliver`); returns what the work of each item returned. A failure of a
 * claim or of an item's work stops it: it is thrown once the items in hand are done.
 */
export async function drainQueue<T, R>(
  queue: Queue<T, R>,
  logger: Logger,
  signal: AbortSignal = new AbortController().signal,
): Promise<R[]> {
  const results: R[] = [];
  await workQueue(queue, {
    logger,
    signal,
    pollMs: null,
    until: (idle) => idle,
    onResult: (result) => results.push(result),
    // A command reports a failure (a database gone) rather than a partial count.
    failures: 'throw',
  });
  return results;
}
