// bench:scan's comparison of scans that read the mirror from a hot standby (BENCH_STANDBY_URL)
// with scans that read it from the primary: the same watched names, two new sets of watches, each
// scanned in full by the real scanner one claimed batch at a time, the two sets taking turns (and
// turns about which goes first), so that both meet the same state of the host.
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { systemClock } from '../../src/clock.ts';
import { type Db, openDb } from '../../src/data/db.ts';
import { openReadReplica, type ReadReplica } from '../../src/data/replica.ts';
import { CLAIM_BATCH, createScanner } from '../../src/scan/scanner.ts';
import { instrument, type WatchTiming } from './instrument.ts';
import type { WatchSpec } from './register.ts';
import { fmt, quantile, sum } from './stats.ts';
import { hitsByWatch, insertWatches } from './watches.ts';

/** How long the standby may take to replay the watches just inserted before the run gives up. */
const REPLAY_WAIT_MS = 10 * 60_000;

/** The standby server of `standbyUrl`, at the benchmark's database `database`. */
export function standbyDatabaseUrl(standbyUrl: string, database: string): string {
  const url = new URL(standbyUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Waits until `standby` has replayed the primary's WAL up to now; returns how long it took. */
async function replayed(primary: Db, standby: Db): Promise<number> {
  const [state] = await standby.query<{ recovering: boolean }>(
    'SELECT pg_is_in_recovery() AS recovering',
  );
  if (!state?.recovering) {
    throw new Error('BENCH_STANDBY_URL is not a hot standby: pg_is_in_recovery() is false there');
  }
  const [at] = await primary.query<{ lsn: string }>(
    'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  );
  const t0 = performance.now();
  for (;;) {
    const [row] = await standby.query<{ done: boolean }>(
      'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
      [at?.lsn],
    );
    if (row?.done === true) return performance.now() - t0;
    if (performance.now() - t0 > REPLAY_WAIT_MS) {
      throw new Error(`the standby did not replay the primary's WAL within ${REPLAY_WAIT_MS} ms`);
    }
    await delay(100);
  }
}

const p50p99 = (timings: readonly WatchTiming[], pick: (t: WatchTiming) => number) =>
  `${fmt(quantile(timings.map(pick), 0.5), 1)}/${fmt(quantile(timings.map(pick), 0.99), 1)}`;

/**
 * Scans `specs` through the standby and through the primary (see the top of this file) and
 * returns the report's rows: per-watch times of both, and whether both found the same hits.
 */
export async function standbyAgainstPrimary(options: {
  db: Db;
  standbyUrl: string;
  ownerId: string;
  specs: readonly WatchSpec[];
  logger: Logger;
}): Promise<Array<[metric: string, value: string]>> {
  const { db, ownerId, specs, logger } = options;
  const viaStandby = await insertWatches(db, ownerId, specs, { kind: 'new' });
  const viaPrimary = await insertWatches(db, ownerId, specs, { kind: 'new' });
  const standby = await openDb({ databaseUrl: options.standbyUrl, dataDir: '', maxConnections: 1 });
  let replica: ReadReplica | null = null;
  try {
    const replayMs = await replayed(db, standby);
    replica = await openReadReplica({
      primary: db,
      url: options.standbyUrl,
      maxLagSeconds: 60,
      clock: systemClock,
      logger,
      maxConnections: 2,
    });
    const viaReplica = replica;
    const onStandby = instrument(db);
    let fellBack = 0;
    const reads: ReadReplica = {
      async choose(o) {
        const chosen = await viaReplica.choose(o);
        if (chosen === db) fellBack++;
        return onStandby.view(chosen);
      },
      writePosition: () => viaReplica.writePosition(),
      close: () => viaReplica.close(),
    };
    const onPrimary = instrument(db);
    const common = {
      logger,
      publicUrl: 'http://localhost:3000',
      leaseSeconds: 3600,
      concurrency: 1,
    };
    const runs = {
      standby: {
        scanner: createScanner({ ...common, db: onStandby.db, reads }),
        timing: onStandby,
        ids: viaStandby,
        timings: [] as WatchTiming[],
      },
      primary: {
        scanner: createScanner({ ...common, db: onPrimary.db }),
        timing: onPrimary,
        ids: viaPrimary,
        timings: [] as WatchTiming[],
      },
    };
    for (let i = 0, turn = 0; i < specs.length; i += CLAIM_BATCH, turn++) {
      for (const run of turn % 2 === 0
        ? [runs.standby, runs.primary]
        : [runs.primary, runs.standby]) {
        // A scan's time starts at the previous commit of the same scanner: reset, so that the
        // other set's batch in between is not counted in this one's first watch.
        run.timing.reset();
        await run.scanner.scan({ watchIds: run.ids.slice(i, i + CLAIM_BATCH) });
        run.timings.push(...run.timing.timings);
      }
    }
    const [standbyHits, primaryHits] = await Promise.all([
      hitsByWatch(db, viaStandby),
      hitsByWatch(db, viaPrimary),
    ]);
    const differing = specs.filter(
      (_, i) =>
        (standbyHits.get(viaStandby[i] as string) ?? '') !==
        (primaryHits.get(viaPrimary[i] as string) ?? ''),
    );
    const hitCount = sum([...primaryHits.values()].map((ids) => ids.split(' ').length));
    const s = runs.standby.timings;
    const p = runs.primary.timings;
    return [
      [
        `full scans through a hot standby (BENCH_STANDBY_URL) against the primary, ${fmt(specs.length, 0)} watches each, a claimed batch (${CLAIM_BATCH}) at a time in turn: p50/p99 per watch`,
        `standby ${p50p99(s, (t) => t.totalMs)} ms, primary ${p50p99(p, (t) => t.totalMs)} ms; candidate query standby ${p50p99(s, (t) => t.candidateMs)} ms, primary ${p50p99(p, (t) => t.candidateMs)} ms (the standby had replayed the new watches ${fmt(replayMs / 1000, 1)} s after they were inserted)`,
      ],
      [
        'full scans through the standby: the same hits as through the primary',
        differing.length === 0
          ? `yes, for every watch (${fmt(hitCount, 0)} hits each way); batches that read the primary instead: ${fellBack}`
          : `**no**: ${differing.length} watches differ (${differing
              .slice(0, 5)
              .map((w) => w.name)
              .join(', ')}); batches that read the primary instead: ${fellBack}`,
      ],
    ];
  } finally {
    await replica?.close();
    await standby.close();
  }
}
