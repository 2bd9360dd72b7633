import type { Queryable } from '../../data/db.ts';
import {
  alertsToReassess,
  type ReassessSelection,
  writeReassessments,
} from '../../data/repositories/alert-assessments.ts';
import { decideConflictPrepared, prepareWatch } from '../../matching/decide.ts';
import { assessAlert } from './assessment.ts';

const BATCH = 2_000;

/**
 * Assesses the selected alerts again, in the caller's transaction, a batch at a time: the decision
 * is made again between the watch as it is now and the record as the hit recorded it. When today's
 * rules no longer see the conflict (the watch was edited, or a rule changed), the rationale says so
 * and the severity is low. Returns how many alerts were assessed.
 */
export async function reassessAlerts(tx: Queryable, which: ReassessSelection): Promise<number> {
  // The hits migration 014 corrected keep the opposition window they were recorded with (their
  // publication dates were not corrected); every other reassessment gives the hit its window too.
  const opposition = which.kind !== 'corrected-hits';
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
      });
      const a = assessAlert(watch, r, decideConflictPrepared(watch, r));
      return {
        id: r.alertId,
        severity: a.severity,
        rationale: a.rationale,
        opposition: a.opposition,
      };
    });
    await writeReassessments(tx, assessed, { opposition });
    assessedCount += rows.length;
    after = last.alertId;
  }
}
