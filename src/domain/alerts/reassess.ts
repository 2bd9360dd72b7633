import type { Queryable } from '../../data/db.ts';
import {
  alertsToReassess,
  type ReassessSelection,
  type RefreshedHit,
  writeReassessments,
  writeRefreshedHits,
} from '../../data/repositories/alert-assessments.ts';
import type { NewHit } from '../../data/repositories/alerts.ts';
import type { CandidateRecord } from '../../data/repositories/mirror-candidates.ts';
import { decideConflictPrepared, type PreparedWatch, prepareWatch } from '../../matching/decide.ts';
import type { WordStats } from '../../matching/word-weights.ts';
import { OPPOSITION_RULES } from '../opposition.ts';
import { assessAlert } from './assessment.ts';
import { enqueueAlertEvents } from './events.ts';

const BATCH = 2_000;

/** How each selection writes the hits' windows (writeReassessments). */
const OPPOSITION_WRITES = {
  // The hits migration 014 corrected keep the window they were recorded with (their publication
  // dates were not corrected).
  'corrected-hits': 'never',
  unassessed: 'where-found',
  // Migration 028: a publication from before its office's rule came into force has no window now.
  'dead-or-before-rule': 'always',
} as const;

/** Each office's first publication day its opposition rule applies to. */
const rulesInForceFrom = (): Record<string, string> =>
  Object.fromEntries(Object.entries(OPPOSITION_RULES).map(([code, r]) => [code, r.inForceFrom]));

/**
 * Assesses the selected alerts again, in the caller's transaction, a batch at a time: the decision
 * is made again between the watch as it is now and the record as the hit recorded it, as of the
 * database's present. When today's rules no longer see the conflict (the watch was edited, or a
 * rule changed), the rationale says so and the severity is low. Returns how many alerts were
 * assessed.
 */
export async function reassessAlerts(tx: Queryable, selection: ReassessSelection): Promise<number> {
  const which: ReassessSelection =
    selection.kind === 'dead-or-before-rule'
      ? { kind: selection.kind, rulesFrom: rulesInForceFrom() }
      : selection;
  let after = '';
  let assessedCount = 0;
  for (;;) {
    const rows = await alertsToReassess(tx, which, after, BATCH);
    const last = rows.at(-1);
    if (last === undefined) return assessedCount;
    const assessed = rows.map((r) => {
      const watch = prepareWatch({
        name: r.watchName,
        niceClasses: r.niceClasses,
        designations: r.watchDesignations,
        relatedClasses: r.relatedClasses,
      });
      const a = assessAlert(
        watch,
        r,
        decideConflictPrepared(watch, r),
        watch.stats,
        new Date(r.assessedAt),
      );
      return {
        id: r.alertId,
        severity: a.severity,
        rationale: a.rationale,
        opposition: a.opposition,
      };
    });
    await writeReassessments(tx, assessed, { opposition: OPPOSITION_WRITES[which.kind] });
    assessedCount += rows.length;
    after = last.alertId;
  }
}

/** An alert whose register record changed since its hit was recorded, and the record now. */
export type AlertOnChangedRecord = {
  alertId: string;
  hitId: string;
  record: CandidateRecord;
  /** The record as a hit (the scan source's toHit). */
  hit: Omit<NewHit, 'id' | 'watchId' | 'opposition'>;
};

/**
 * When a record behind alerts changes (a re-import or a sync brought a new status, a new owner, a
 * mark that died or revived), each alert's hit is written as the record is now, its severity and
 * rationale are assessed again as of `now`, and `alert.updated` goes to the owner's webhooks: in
 * the caller's transaction (the scan's, one watch and so one owner). The assessment is made with
 * the watch as the scan prepared it and the register's word counts. Returns how many alerts.
 */
export async function reassessChangedRecords(
  tx: Queryable,
  input: {
    ownerId: string;
    prepared: PreparedWatch;
    stats: WordStats;
    changed: readonly AlertOnChangedRecord[];
    now: Date;
  },
): Promise<number> {
  if (input.changed.length === 0) return 0;
  const hits: RefreshedHit[] = [];
  const assessed = input.changed.map(({ alertId, hitId, record, hit }) => {
    const decision = decideConflictPrepared(input.prepared, record);
    const a = assessAlert(input.prepared, record, decision, input.stats, input.now);
    hits.push({ ...hit, hitId, opposition: a.opposition });
    return { id: alertId, severity: a.severity, rationale: a.rationale, opposition: null };
  });
  await writeRefreshedHits(tx, hits);
  await writeReassessments(tx, assessed, { opposition: 'never' });
  await enqueueAlertEvents(
    tx,
    'alert.updated',
    input.ownerId,
    input.changed.map((c) => c.alertId),
  );
  return input.changed.length;
}
