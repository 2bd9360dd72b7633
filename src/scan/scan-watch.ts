import type { Logger } from 'pino';
import { type Clock, dateOf } from '../clock.ts';
import type { Db } from '../data/db.ts';
import { insertHitsWithAlerts } from '../data/repositories/alerts.ts';
import type { CandidateRecord } from '../data/repositories/mirror-candidates.ts';
import { insertOutboxMessage } from '../data/repositories/outbox.ts';
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
import { type Assessment, assessAlert } from '../domain/alert-assessment.ts';
import { newId } from '../domain/ids.ts';
import { type Cadence, cadenceIntervalMs, PLANS, type Tier } from '../domain/plans.ts';
import { composeAlertEmail } from '../email/compose.ts';
import {
  type Decision,
  decideConflictPrepared,
  prepareWatch,
  statsWordsOf,
} from '../matching/decide.ts';
import { analyzeMark } from '../matching/normalize.ts';
import { enqueueAlertEvents } from '../webhooks/events.ts';
import type { SourceAdapter } from './sources/source-adapter.ts';
import type { WordStatsCache } from './word-stats.ts';

export type ScanDeps = {
  db: Db;
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
};

/** The adapters of these sources with the change sequence each has committed now. */
async function sourceStates(
  deps: ScanDeps,
  codes: readonly string[],
  batch?: BatchReads,
): Promise<SourceState[]> {
  const states: SourceState[] = [];
  for (const code of codes) {
    const source = deps.sources.get(code);
    if (!source) throw new Error(`no adapter for source ${code}`);
    states.push({ source, seq: batch?.seqs.get(code) ?? (await source.currentSeq(deps.db)) });
  }
  return states;
}

/** The key of the word counts in the cache: the sources' state (word-stats.ts). */
function wordStatsKey(states: readonly SourceState[]): string {
  return states.map(({ source, seq }) => `${source.code}:${seq}`).join(',');
}

/**
 * Reads what a batch of claimed watches share in a few statements instead of some per watch: the
 * sources' sequences, the owners' mailings, and the word counts of all their brands, so that each
 * watch's scan finds its own in the cache (unless an import commits in between: then it reads
 * them again).
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
  const mailings = await ownerMailings(deps.db, [...new Set(watches.map((w) => w.ownerId))]);
  const batch = { seqs, mailings };
  const bySources = new Map<string, string[]>();
  for (const w of watches) {
    const codes = w.sources.join(',');
    const words = bySources.get(codes) ?? [];
    if (words.length === 0) bySources.set(codes, words);
    words.push(...statsWordsOf(w.name));
  }
  for (const [codes, words] of bySources) {
    const states = await sourceStates(deps, codes === '' ? [] : codes.split(','), batch);
    await deps.wordStats.statsFor(deps.db, wordStatsKey(states), words);
  }
  return batch;
}

/** The lease ran out and another worker took the watch over: this worker's result is dropped. */
class LeaseLostError extends Error {}

const RETRY_AFTER_FAILURE_SECONDS = 300;

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
    // The sources' state first: it bounds the scan, and it names the mirror state whose word
    // counts the scan reads (they change only when the mirror does).
    const sources = await sourceStates(deps, watch.sources, batch);
    const statsKey = wordStatsKey(sources);
    // How common the brand's words are in the register decides which of them are distinctive.
    const brandWords = analyzeMark(watch.name).words;
    const prepared = prepareWatch(
      {
        name: watch.name,
        niceClasses: watch.attributes.niceClasses,
        designations: watch.attributes.designations,
      },
      await deps.wordStats.statsFor(deps.db, statsKey, statsWordsOf(watch.name)),
    );
    const conflicts: { source: SourceAdapter; record: CandidateRecord; decision: Decision }[] = [];
    let fromSeq = mode === 'full' ? 0 : watch.scannedSeq;
    let toSeq = fromSeq;
    let logoUrl: string | null = null;
    for (const { source, seq } of sources) {
      toSeq = seq;
      // A watch's own application (logoSt13) is where its logo comes from, never a hit.
      if (watch.logoSt13 !== null && watch.logoUrl === null) {
        logoUrl = (await source.findByExternalId(deps.db, watch.logoSt13))?.logoUrl ?? null;
      }
      if (toSeq <= fromSeq) continue;
      const candidates = await source.findCandidates(deps.db, prepared, { fromSeq, toSeq });
      outcome.candidatesExamined += candidates.length;
      for (const record of candidates) {
        if (record.externalId === watch.logoSt13) continue;
        const decision = decideConflictPrepared(prepared, record);
        if (decision.conflict) conflicts.push({ source, record, decision });
      }
    }
    // A shared word's severity and rationale also weigh the record's other words (how common they
    // are): one look-up for the records raised by that rule. No other rule reads a record's words.
    const sharing = conflicts.filter((c) =>
      c.decision.reasons.some((r) => r.kind === 'shared_word'),
    );
    const stats =
      sharing.length === 0
        ? prepared.stats
        : await deps.wordStats.statsFor(deps.db, statsKey, [
            ...brandWords,
            ...sharing.flatMap((c) => analyzeMark(c.record.markText).words),
          ]);
    fromSeq = Math.min(fromSeq, toSeq);
    const hits = conflicts.map(({ source, record, decision }) => {
      const assessment = assessAlert(prepared, record, decision, stats);
      return {
        hit: {
          ...source.toHit(record),
          opposition: assessment.opposition,
          id: newId('hit'),
          watchId: watch.id,
          alertId: newId('alt'),
          severity: assessment.severity,
          rationale: assessment.rationale,
        },
        record,
        assessment,
      };
    });
    // The e-mail is written before the transaction, for every alert found: inside it, only when
    // some of them turn out to be recorded already (a full scan again after the watch changed).
    const mailing = hits.length > 0 ? await alertMailing(deps, watch, batch) : null;
    const draft =
      mailing === null
        ? null
        : composeAlertMail(
            deps,
            watch,
            hits.map(({ hit, record, assessment }) => ({
              alertId: hit.alertId,
              record,
              assessment,
            })),
          );

    const run = (id: string): ScanRun => ({
      id,
      watchId: watch.id,
      mode,
      worker: deps.workerId,
      startedAt,
      fromSeq,
      toSeq,
      candidatesExamined: outcome.candidatesExamined,
      hitsCreated: outcome.hitsCreated,
      alertsCreated: outcome.alertsCreated,
      error: null,
    });
    const completion = {
      watch,
      toSeq,
      cadenceSeconds: cadenceIntervalMs(watch.scanCadence as Cadence) / 1000,
      logoUrl,
    };
    if (hits.length === 0) {
      if (!(await completeEmptyScan(deps.db, run(newId('scn')), completion))) {
        throw new LeaseLostError();
      }
      return outcome;
    }
    await deps.db.transaction(async (tx) => {
      // Sent together: the lease check locks the watch row before the hits are written, and a
      // lost lease rolls everything back.
      const [leaseHeld, inserted] = await Promise.all([
        holdsLease(tx, watch.id, deps.workerId),
        insertHitsWithAlerts(
          tx,
          hits.map((h) => h.hit),
        ),
      ]);
      if (!leaseHeld) throw new LeaseLostError();
      const recorded = new Map(inserted.map((r) => [r.hitId, r.alertId]));
      // In the order the candidates were found (the e-mail lists them so).
      const newAlerts = hits.flatMap(({ hit, record, assessment }) => {
        const alertId = recorded.get(hit.id);
        return alertId === undefined ? [] : [{ alertId, record, assessment }];
      });
      outcome.hitsCreated = newAlerts.length;
      outcome.alertsCreated = newAlerts.length;
      const runId = newId('scn');
      const email =
        mailing === null || newAlerts.length === 0
          ? null
          : newAlerts.length === hits.length
            ? draft
            : composeAlertMail(deps, watch, newAlerts);
      await Promise.all([
        insertScanRun(tx, run(runId)),
        mailing !== null && email !== null
          ? insertOutboxMessage(tx, {
              id: newId('eml'),
              ownerId: watch.ownerId,
              scanRunId: runId,
              recipients: mailing.recipients,
              alertIds: newAlerts.map((a) => a.alertId),
              subject: email.subject,
              text: email.text,
              html: email.html,
            })
          : null,
        enqueueAlertEvents(
          tx,
          'alert.created',
          watch.ownerId,
          newAlerts.map((a) => a.alertId),
        ),
        completeScan(tx, completion),
      ]);
    });
    return outcome;
  } catch (error) {
    if (error instanceof LeaseLostError) {
      deps.logger.warn({ watchId: watch.id }, 'scan dropped: the lease was taken over');
      return { ...outcome, hitsCreated: 0, alertsCreated: 0, error: 'lease lost' };
    }
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.error({ err: error, watchId: watch.id }, 'scan failed');
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
    deps.logger.error({ err: error, watchId: watch.id }, 'could not record a failed scan');
  }
}

/** Who gets the alert e-mail of this watch's owner: null when the plan sends none. */
async function alertMailing(deps: ScanDeps, watch: ClaimedWatch, batch?: BatchReads) {
  const mailing =
    batch?.mailings.get(watch.ownerId) ??
    (await ownerMailings(deps.db, [watch.ownerId])).get(watch.ownerId);
  if (!mailing || !PLANS[mailing.tier as Tier]?.alertEmail || mailing.recipients.length === 0) {
    return null;
  }
  return mailing;
}

/** One e-mail per owner per scan run: the alerts in the order they were found. */
function composeAlertMail(
  deps: ScanDeps,
  watch: ClaimedWatch,
  alerts: { alertId: string; record: CandidateRecord; assessment: Assessment }[],
) {
  return composeAlertEmail(
    watch.name,
    alerts.map(({ alertId, record, assessment }) => ({
      alertId,
      markText: record.markText,
      ownerName: record.ownerName,
      ownerCountryCode: record.ownerCountryCode,
      status: record.status,
      classes: record.classes,
      jurisdiction: record.jurisdiction,
      filedAt: record.filedAt,
      externalId: record.externalId,
      publishedAt: record.publishedAt,
      severity: assessment.severity,
      rationalePlain: assessment.rationalePlain,
      rationaleHtml: assessment.rationaleHtml,
      opposition: assessment.opposition,
    })),
    deps.publicUrl,
    dateOf(deps.clock),
  );
}
