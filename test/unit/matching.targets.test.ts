// The evaluation's check of the matching targets (bench/lib/matching-targets.ts, used by
// scripts/eval-matching.ts): each target is met exactly up to its goal and not beyond.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALERTS_PER_WATCH_BEFORE,
  checkTargets,
  type MatchingFigures,
} from '../../bench/lib/matching-targets.ts';

const atGoal: MatchingFigures = {
  heldOutRaised: 0.9,
  heldOutMediumHigh: 0.85,
  heldOutNoConflictHigh: 0.1,
  unrelatedHigh: 0.05,
  falsePer10k: 1,
  worstKind: 0.95,
  alertsDistinctive: ALERTS_PER_WATCH_BEFORE.distinctive * 1.25,
  alertsCommon: ALERTS_PER_WATCH_BEFORE.common * 1.25,
  retrievalMisses: 0,
};

describe('matching targets', () => {
  it('are all met at their goals', () => {
    const rows = checkTargets(atGoal);
    assert.equal(rows.length, 9);
    for (const r of rows) assert.equal(r.met, true, r.target);
  });
  it('each fails just past its goal, and only that one', () => {
    const past: Partial<MatchingFigures>[] = [
      { heldOutRaised: 0.89 },
      { heldOutMediumHigh: 0.84 },
      { heldOutNoConflictHigh: 0.11 },
      { unrelatedHigh: 0.051 },
      { falsePer10k: 1.01 },
      { worstKind: 0.949 },
      { alertsDistinctive: ALERTS_PER_WATCH_BEFORE.distinctive * 1.26 },
      { alertsCommon: ALERTS_PER_WATCH_BEFORE.common * 1.26 },
      { retrievalMisses: 1 },
    ];
    past.forEach((over, k) => {
      const rows = checkTargets({ ...atGoal, ...over });
      assert.deepEqual(
        rows.map((r) => r.met),
        rows.map((_r, j) => j !== k),
        JSON.stringify(over),
      );
    });
  });
});
