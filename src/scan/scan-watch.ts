import type { Logger } from 'pino';
import { type Clock, dateOf } from '../clock.ts';
import type { Db } from '../data/db.ts';
import {
  type ClaimedWatch,
  completeEmptyScan,
  completeScan,
  holdsLease,
  insertScanRun,
  type OwnerMailing,
  ownerMailings,
  releaseAfterFailure,
  type ScanRun,
} from '../data/repositories/scans.ts';
import { alertsToRaise, type Finding, raiseAlerts } from '../domain/alerts/raise.ts';
import { type AlertOnChangedRecord, reassessChangedRecords } from '../domain/alerts/reassess.ts';
import { newId } from '../domain/ids.ts';
import { type Cadence, cadenceIntervalMs } from '../domain/plans.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  statsWordsOf,
} from '../matching/decide.ts';
import { analyzeMark } from '../matching/normalize.ts';
import type { WordStats } from '../matching/word-weights.ts';
import { logFailure } from '../outage.ts';
import type { AlertedChange, SourceAdapter } from './sources/source-adapter.ts';
import type { WordStatsCache } from './word-stats.ts';

export type ScanDeps = {
  /** The primary: claims, commits and everything the scan writes. */
  db: Db;
  /**
   * Where the scan reads the register mirror (its change sequence, candidates, word counts): a
   * standby or the primary, one of them for the whole batch (data/replica.ts).
   */
  readDb: Db;
  logger: Logger;
  sources: ReadonlyMap<string, SourceAdapter>;
  workerId: string;
  clock: Clock;
  /** Base URL of the dashboard, for the links in alert e-mail. */
  publicUrl: string;
  /** The register's word counts, read once per mirror state (word-stats.ts). */
  wordStats: WordStatsCache;
};

export type ScanOutcome = {
  watchId: string;
  mode: 'full' | 'incremental';
  candidatesExamined: number;
  hitsCreated: number;
  alertsCreated: number;
  error: string | null;
};

type SourceState = { source: SourceAdapter; seq: number };

/**
 * What the watches of one claimed batch share, read once for all of them (readBatch): each
 * source's committed change sequence and each owner's alert mailing. A scan bounded by a sequence
 * read a moment before it starts is as consistent as one that reads it first: the records
 * committed since are the next scan's. A plan or a membership changed while the batch runs (25
 * scans: seconds) applies from the next batch on.
 */
export type BatchReads = {
  seqs: ReadonlyMap<string, number>;
  mailings: ReadonlyMap<string, OwnerMailing>;
  /**
   * Per source, per watch of the batch: the records behind its alerts changed in its range up to
   * the batch's sequence (SourceAdapter.findAlertedChanges), read in one statement for all.
   */
  alertedChanges: ReadonlyMap<string, ReadonlyMap<string, AlertedChange[]>>;
};

/** Where a watch's scan starts: a full scan reads the whole source, an incremental one what changed. */
const scanFromSeq = (watch: ClaimedWatch): number => (watch.needsFullScan ? 0 : watch.scannedSeq);

/** The adapters of these sources with the change sequence each has committed now. */
async function sourceStates(
  deps: ScanDeps,
  codes: readonly string[],
  batchSeqs?: ReadonlyMap<string, number>,
): Promise<SourceState[]> {
  const states: SourceState[] = [];
  for (const code of codes) {
    const source = deps.sources.get(code);
    if (!source) throw new Error(`no adapter for source ${code}`);
    // Read where the candidates are read: on a standby, the highest sequence it has replayed, so
    // that the scan's bookkeeping never passes a record the standby does not hold yet.
    states.push({ source, seq: batchSeqs?.get(code) ?? (await source.currentSeq(deps.readDb)) });
  }
  return states;
}

/** The key of the word counts in the cache: the sources' state (word-stats.ts). */
function wordStatsKey(states: readonly SourceState[]): string {
  return states.map(({ source, seq }) => `${source.code}:${seq}`).join(',');
}

/**
 * Reads what a batch of claimed watches share in a few statements instead of some per watch: the
 * sources' sequences, the owners' mailings, the word counts of all their brands, so that each
 * watch's scan finds its own in the cache (unless an import commits in between: then it reads
 * them again), and the changed records behind the watches' alerts. Those are the same rows each
 * scan would read for itself: every record up to the batch's sequence has committed, and only
 * the watch's own scan, under its lease, writes its hits.
 */
export async function readBatch(
  deps: ScanDeps,
  watches: readonly ClaimedWatch[],
): Promise<BatchReads> {
  const seqs = new Map<string, number>();
  for (const code of new Set(watches.flatMap((w) => w.sources))) {
    const [state] = await sourceStates(deps, [code]);
    if (state) seqs.set(code, state.seq);
  }
  // The reads below depend on the sequences only, not on each other: they go out together, so
  // that the batch's scans wait for the longest of them rather than for their sum (at 10M records
  // the word counts and the alerted changes took tens of milliseconds each, in every batch).
  const [mailings, alertedChanges] = await Promise.all([
    ownerMailings(deps.db, [...new Set(watches.map((w) => w.ownerId))]),
    alertedChangesOf(deps, watches, seqs),
    brandWordStats(deps, watches, seqs),
  ]);
  return { seqs, mailings, alertedChanges };
}

/** Per source, per watch: the records behind the watches' alerts changed in their ranges. */
async function alertedChangesOf(
  deps: ScanDeps,
  watches: readonly ClaimedWatch[],
  seqs: ReadonlyMap<string, number>,
): Promise<Map<string, Map<string, AlertedChange[]>>> {
  const alertedChanges = new Map<string, Map<string, AlertedChange[]>>();
  for (const [code, seq] of seqs) {
    const source = deps.sources.get(code);
    if (!source) continue;
    const ranges = watches
      .filter((w) => w.sources.includes(code))
      .map((w) => ({ watchId: w.id, fromSeq: scanFromSeq(w) }));
    const byWatch = new Map<string, AlertedChange[]>(ranges.map((r) => [r.watchId, []]));
    for (const change of await source.findAlertedChanges(deps.db, ranges, seq)) {
      byWatch.get(change.watchId)?.push(change);
    }
    alertedChanges.set(code, byWatch);
  }
  return alertedChanges;
}

/** Reads the register's counts of the watches' brand words into the cache, per set of sources. */
async function brandWordStats(
  deps: ScanDeps,
  watches: readonly ClaimedWatch[],
  seqs: ReadonlyMap<string, number>,
): Promise<void> {
  const bySources = new Map<string, string[]>();
  for (const w of watches) {
    const codes = w.sources.join(',');
    const words = bySources.get(codes) ?? [];
    if (words.length === 0) bySources.set(codes, words);
    words.push(...statsWordsOf(w.name));
  }
  for (const [codes, words] of bySources) {
    const states = await sourceStates(deps, codes === '' ? [] : codes.split(','), seqs);
    await deps.wordStats.statsFor(deps.readDb, wordStatsKey(states), words);
  }
}

/** The lease ran out and another worker took the watch over: this worker's result is dropped. */
class LeaseLostError extends Error {}

const RETRY_AFTER_FAILURE_SECONDS = 300;

/** What the search of a watch's sources found, and what it covered. */
type Search = {
  prepared: PreparedWatch;
  /** The register's counts of the brand's words, and of the records' where a rule weighs them. */
  stats: WordStats;
  findings: Finding[];
  /** Alerts of the watch whose record changed in the range: assessed again in the commit. */
  changed: AlertOnChangedRecord[];
  fromSeq: number;
  toSeq: number;
  /** The watch's logo, found on its own application (logoSt13); null when not looked for. */
  logoUrl: string | null;
};

/** Searches the watch's sources for conflicts, outside any transaction. */
async function searchWatch(
  deps: ScanDeps,
  watch: ClaimedWatch,
  outcome: ScanOutcome,
  batch: BatchReads | undefined,
): Promise<Search> {
  // The sources' state first: it bounds the scan, and it names the mirror state whose word
  // counts the scan reads (they change only when the mirror does).
  const sources = await sourceStates(deps, watch.sources, batch?.seqs);
  const statsKey = wordStatsKey(sources);
  // How common the brand's words are in the register decides which of them are distinctive.
  const brandWords = analyzeMark(watch.name).words;
  const prepared = prepareWatch(
    {
      name: watch.name,
      niceClasses: watch.attributes.niceClasses,
      designations: watch.attributes.designations,
      relatedClasses: watch.attributes.relatedClasses,
    },
    await deps.wordStats.statsFor(deps.readDb, statsKey, statsWordsOf(watch.name)),
  );
  const findings: Finding[] = [];
  const changed: AlertOnChangedRecord[] = [];
  const fromSeq = scanFromSeq(watch);
  let toSeq = fromSeq;
  let logoUrl: string | null = null;
  for (const { source, seq } of sources) {
    // Never below what the watch has scanned: a standby behind the primary that served the last
    // scan reports a lower sequence, and the watch's bookkeeping must not go back to it (the range
    // between would be scanned again, and the removals kept for it, mark_removals, may be gone).
    toSeq = Math.max(seq, fromSeq);
    // A watch's own application (logoSt13) is where its logo comes from, never a hit.
    if (watch.logoSt13 !== null && watch.logoUrl === null) {
      logoUrl = (await source.findByExternalId(deps.readDb, watch.logoSt13))?.logoUrl ?? null;
    }
    if (toSeq <= fromSeq) continue;
    const candidates = await source.findCandidates(deps.readDb, prepared, { fromSeq, toSeq });
    outcome.candidatesExamined += candidates.length;
    for (const record of candidates) {
      if (record.externalId === watch.logoSt13) continue;
      // A dead record (abandoned, cancelled, expired…) threatens nobody: no alert. Should it
      // revive, its change brings it into a later scan's range.
      if (record.live === false) continue;
      const decision = decideConflictPrepared(prepared, record);
      if (decision.conflict) findings.push({ record, decision, hit: source.toHit(record) });
    }
    // The batch's sequence is this scan's `toSeq` unless the watch has scanned past it (then the
    // range is empty either way).
    const alerted =
      batch?.alertedChanges.get(source.code)?.get(watch.id) ??
      (await source.findAlertedChanges(deps.db, [{ watchId: watch.id, fromSeq }], toSeq));
    for (const { alertId, hitId, watchId: _, ...record } of alerted) {
      changed.push({ alertId, hitId, record, hit: source.toHit(record) });
    }
  }
  // A shared word's severity and rationale also weigh the record's other words (how common they
  // are): one look-up for the records raised by that rule. No other rule reads a record's words.
  const sharing = findings.filter((c) => c.decision.reasons.some((r) => r.kind === 'shared_word'));
  // The alerts assessed again weigh their records' words the same way.
  const weighed = [...sharing, ...changed];
  const stats =
    weighed.length === 0
      ? prepared.stats
      : await deps.wordStats.statsFor(deps.readDb, statsKey, [
          ...brandWords,
          ...weighed.flatMap((c) => analyzeMark(c.record.markText).words),
        ]);
  return { prepared, stats, findings, changed, fromSeq: Math.min(fromSeq, toSeq), toSeq, logoUrl };
}

/**
 * Records the scan: a scan that found nothing in one statement guarded by the lease; otherwise ONE
 * transaction that re-checks the lease and raises the alerts (hits, alerts, e-mail, webhook
 * events: domain/alerts/raise.ts) with the scan's run and the watch's bookkeeping, and assesses
 * again the alerts whose records changed (domain/alerts/reassess.ts, `alert.updated`).
 */
async function commitScan(
  deps: ScanDeps,
  watch: ClaimedWatch,
  search: Search,
  outcome: ScanOutcome,
  run: (id: string) => ScanRun,
  batch: BatchReads | undefined,
): Promise<void> {
  const completion = {
    watch,
    toSeq: search.toSeq,
    cadenceSeconds: cadenceIntervalMs(watch.scanCadence as Cadence) / 1000,
    logoUrl: search.logoUrl,
  };
  if (search.findings.length === 0 && search.changed.length === 0) {
    if (!(await completeEmptyScan(deps.db, run(newId('scn')), completion))) {
      throw new LeaseLostError();
    }
    return;
  }
  const toRaise = alertsToRaise({
    watch: {
      id: watch.id,
      ownerId: watch.ownerId,
      name: watch.name,
      lookingSince: watch.lookingSince,
    },
    prepared: search.prepared,
    stats: search.stats,
    findings: search.findings,
    mailing: await ownerMailing(deps, watch, batch),
    publicUrl: deps.publicUrl,
    now: dateOf(deps.clock),
  });
  await deps.db.transaction(async (tx) => {
    const runId = newId('scn');
    const raised = await raiseAlerts(tx, toRaise, {
      runId,
      // Sent with the hits: the lease check locks the watch row before the hits are written, and
      // a lost lease rolls everything back.
      mayCommit: () => holdsLease(tx, watch.id, deps.workerId),
      record: (alertsCreated) => {
        outcome.hitsCreated = alertsCreated;
        outcome.alertsCreated = alertsCreated;
        return [insertScanRun(tx, run(runId)), completeScan(tx, completion)];
      },
    });
    if (raised === null) throw new LeaseLostError();
    await reassessChangedRecords(tx, {
      ownerId: watch.ownerId,
      prepared: search.prepared,
      stats: search.stats,
      changed: search.changed,
      now: dateOf(deps.clock),
    });
  });
}

/**
 * Scans one claimed watch against each of its sources. The search happens outside any transaction;
 * the hits, their alerts, the e-mail to send, the scan record and the watch's bookkeeping are then
 * committed in ONE transaction that first re-checks the lease (a scan that found nothing: in one
 * statement, guarded by the lease the same way): a crash at any point loses nothing (the lease
 * lapses and the scan is redone) and duplicates nothing (hits are unique per watch, source and
 * record, and a worker whose lease was taken over commits nothing). `batch`: what the claimed
 * batch read once for all its watches (readBatch); without it the scan reads its own.
 */
export async function scanClaimedWatch(
  deps: ScanDeps,
  watch: ClaimedWatch,
  batch?: BatchReads,
): Promise<ScanOutcome> {
  const startedAt = dateOf(deps.clock);
  const mode = watch.needsFullScan ? 'full' : 'incremental';
  const outcome: ScanOutcome = {
    watchId: watch.id,
    mode,
    candidatesExamined: 0,
    hitsCreated: 0,
    alertsCreated: 0,
    error: null,
  };
  try {
    const search = await searchWatch(deps, watch, outcome, batch);
    const run = (id: string): ScanRun => ({
      id,
      watchId: watch.id,
      mode,
      worker: deps.workerId,
      startedAt,
      fromSeq: search.fromSeq,
      toSeq: search.toSeq,
      candidatesExamined: outcome.candidatesExamined,
      hitsCreated: outcome.hitsCreated,
      alertsCreated: outcome.alertsCreated,
      error: null,
    });
    await commitScan(deps, watch, search, outcome, run, batch);
    return outcome;
  } catch (error) {
    if (error instanceof LeaseLostError) {
      deps.logger.warn({ watchId: watch.id }, 'scan dropped: the lease was taken over');
      return { ...outcome, hitsCreated: 0, alertsCreated: 0, error: 'lease lost' };
    }
    const message = error instanceof Error ? error.message : String(error);
    logFailure(deps.logger, error, { watchId: watch.id }, 'scan failed');
    await recordFailure(deps, watch, mode, startedAt, message);
    return { ...outcome, hitsCreated: 0, alertsCreated: 0, error: message };
  }
}

async function recordFailure(
  deps: ScanDeps,
  watch: ClaimedWatch,
  mode: 'full' | 'incremental',
  startedAt: Date,
  message: string,
) {
  try {
    await deps.db.transaction(async (tx) => {
      await insertScanRun(tx, {
        id: newId('scn'),
        watchId: watch.id,
        mode,
        worker: deps.workerId,
        startedAt,
        fromSeq: watch.scannedSeq,
        toSeq: watch.scannedSeq,
        candidatesExamined: 0,
        hitsCreated: 0,
        alertsCreated: 0,
        error: message.slice(0, 1000),
      });
      await releaseAfterFailure(tx, watch.id, deps.workerId, RETRY_AFTER_FAILURE_SECONDS);
    });
  } catch (error) {
    // The lease will lapse on its own; the scan is retried then.
    logFailure(deps.logger, error, { watchId: watch.id }, 'could not record a failed scan');
  }
}

/** The alert mailing of the watch's owner: the batch's, or read for this scan. */
async function ownerMailing(
  deps: ScanDeps,
  watch: ClaimedWatch,
  batch: BatchReads | undefined,
): Promise<OwnerMailing | undefined> {
  return (
    batch?.mailings.get(watch.ownerId) ??
    (await ownerMailings(deps.db, [watch.ownerId])).get(watch.ownerId)
  );
}
