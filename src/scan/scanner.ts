import type { Logger } from 'pino';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import { primaryOnly, type ReadReplica } from '../data/replica.ts';
import { initialLoadInProgress } from '../data/repositories/initial-load.ts';
import {
  activeWatchIds,
  type ClaimedWatch,
  type ClaimFilter,
  claimWatches,
  unknownWatchIds,
} from '../data/repositories/scans.ts';
import { ApiError } from '../domain/errors.ts';
import { newWorkerId } from '../domain/ids.ts';
import type { Queue } from '../runner.ts';
import {
  type BatchReads,
  readBatch,
  type ScanDeps,
  type ScanOutcome,
  scanClaimedWatch,
} from './scan-watch.ts';
import { createRegisterMirror } from './sources/register-mirror.ts';
import type { SourceAdapter } from './sources/source-adapter.ts';
import { createWordStatsCache } from './word-stats.ts';

const registerMirror = createRegisterMirror();
const wordStats = createWordStatsCache();

export const SOURCES: ReadonlyMap<string, SourceAdapter> = new Map([
  [registerMirror.code, registerMirror],
]);

export type ScannerOptions = {
  db: Db;
  logger: Logger;
  publicUrl: string;
  /** How long a claim protects a watch; a crashed worker's scan is redone after it. */
  leaseSeconds: number;
  /** Watches scanned at once by this process. */
  concurrency?: number;
  clock?: Clock;
  /** Where scans read the register mirror: a standby when configured (default: `db`). */
  reads?: ReadReplica;
};

export type ScanTotals = { watchesScanned: number; hitsCreated: number; alertsCreated: number };

export const CLAIM_BATCH = 25;

/** Claims, scans and commits watches; shared by `tmwatch scan`, `tmwatch worker` and `serve`. */
export function createScanner(options: ScannerOptions) {
  const shared: ScanDeps = {
    db: options.db,
    readDb: options.db,
    logger: options.logger,
    sources: SOURCES,
    workerId: newWorkerId(),
    clock: options.clock ?? systemClock,
    publicUrl: options.publicUrl,
    wordStats,
  };
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const reads = options.reads ?? primaryOnly(options.db);

  const claimBatch = (filter: ClaimFilter) =>
    claimWatches(options.db, shared.workerId, options.leaseSeconds, filter, CLAIM_BATCH);

  /** Scans claimed watches, `concurrency` at a time, adding what they found to `totals`. */
  async function scanClaimed(claimed: readonly ClaimedWatch[], totals: ScanTotals): Promise<void> {
    if (claimed.length === 0) return;
    // One database to read the mirror from for the whole batch: its change sequence bounds the
    // scans, so their candidates must come from the same place (data/replica.ts).
    const deps = { ...shared, readDb: await reads.choose() };
    // One read of sequences, mailings and word counts for the batch instead of one per watch; a
    // failed one only means that each scan reads its own (and reports the error itself, if the
    // database is down).
    const batch: BatchReads | undefined =
      claimed.length > 1 ? await readBatch(deps, claimed).catch(() => undefined) : undefined;
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const watch = claimed[next++];
        if (!watch) return;
        add(totals, await scanClaimedWatch(deps, watch, batch));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
  }

  async function scanBatch(filter: ClaimFilter, totals: ScanTotals): Promise<number> {
    const claimed = await claimBatch(filter);
    await scanClaimed(claimed, totals);
    return claimed.length;
  }

  /**
   * Due watches as a queue of the background runner. One item is a claimed batch of up to
   * CLAIM_BATCH watches, scanned `concurrency` at a time: the watches of a batch share their
   * reads (readBatch), and the next batch is claimed once this one has committed.
   */
  const queue: Queue<ClaimedWatch[], ScanTotals> = {
    name: 'scans',
    slots: 1,
    async claim() {
      const claimed = await claimBatch({ kind: 'due' });
      return claimed.length === 0 ? [] : [claimed];
    },
    async work(claimed) {
      const totals: ScanTotals = { watchesScanned: 0, hitsCreated: 0, alertsCreated: 0 };
      await scanClaimed(claimed, totals);
      return totals;
    },
  };

  return {
    workerId: shared.workerId,
    queue,

    /** `tmwatch scan`: the given watches, or every active one, or (due) those whose time came. */
    async scan(request: { watchIds?: string[]; due?: boolean }): Promise<ScanTotals> {
      // An id that names no watch is a mistake to report, not a scan of nothing.
      const unknown = request.watchIds?.length
        ? await unknownWatchIds(options.db, request.watchIds)
        : [];
      if (unknown.length > 0) {
        throw new ApiError('not_found', `watch ${unknown.join(', ')} does not exist`);
      }
      const loading = await initialLoadInProgress(options.db);
      if (loading !== null) {
        const how =
          loading.feed === null
            ? '(marks import --initial) has not finished: run it again to complete it'
            : `(the first sync of feed ${loading.feed}) has not finished: run "tmwatch registers sync --feed ${loading.feed}" again to complete it`;
        throw new ApiError('conflict', `an initial load of the register mirror ${how}, then scan`);
      }
      const totals: ScanTotals = { watchesScanned: 0, hitsCreated: 0, alertsCreated: 0 };
      if (request.due && !request.watchIds?.length) {
        while ((await scanBatch({ kind: 'due' }, totals)) > 0) {}
        return totals;
      }
      const ids = request.watchIds?.length ? request.watchIds : await activeWatchIds(options.db);
      for (let i = 0; i < ids.length; i += CLAIM_BATCH) {
        await scanBatch({ kind: 'ids', ids: ids.slice(i, i + CLAIM_BATCH) }, totals);
      }
      return totals;
    },
  };
}

function add(totals: ScanTotals, outcome: ScanOutcome) {
  if (outcome.error !== null) return;
  totals.watchesScanned += 1;
  totals.hitsCreated += outcome.hitsCreated;
  totals.alertsCreated += outcome.alertsCreated;
}

export type Scanner = ReturnType<typeof createScanner>;

/** The scanner of a process, as configured (`tmwatch scan`, the scan loops of serve and worker). */
export function scannerFor(context: {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  reads?: ReadReplica;
}): Scanner {
  const { config, db, logger, clock } = context;
  return createScanner({
    db,
    reads: context.reads,
    logger,
    clock,
    publicUrl: config.publicUrl,
    leaseSeconds: config.scanLeaseSeconds,
    // PGlite runs every query on the event loop: parallel scans only queue behind each other.
    concurrency: db.kind === 'postgres' ? 4 : 1,
  });
}
