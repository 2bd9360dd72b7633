// The same distinctive mark in any class (src/matching/any-class.ts): a record whose text is the
// watched brand itself is a candidate whatever its classes, when the brand is distinctive; its
// alert is medium, and the rationale says why an unrelated class is flagged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessAlert } from '../../src/domain/alerts/assessment.ts';
import { anyClassForms, retrievedInAnyClass } from '../../src/matching/any-class.ts';
import { buildCandidateIndex, matchCandidateIndex } from '../../src/matching/candidates.ts';
import { decideConflictPrepared, prepareWatch } from '../../src/matching/decide.ts';
import { relatedClassesOf } from '../../src/matching/goods.ts';
import { matchKeys } from '../../src/matching/normalize.ts';
import { assessSeverity } from '../../src/matching/severity.ts';
import { assessedRecord, indexRow } from '../helpers/matching.ts';

const watch = (name: string, niceClasses: number[], relatedClasses?: boolean) =>
  prepareWatch({ name, niceClasses, designations: ['US'], relatedClasses });
const record = (markText: string, classes: number[]) => ({
  markText,
  classes,
  jurisdiction: 'US',
});
// Class 12 (vehicles) and class 18 (luggage): no relation of goods.ts joins them.
const CARS = [12];
const LUGGAGE = [18];

describe('the same mark in any class', () => {
  it('raises the distinctive brand itself in a class nothing relates, at medium', () => {
    assert.ok(!relatedClassesOf(CARS).includes(18), 'the test needs unrelated classes');
    const p = watch('GASPARILLA', CARS);
    for (const text of ['GASPARILLA', 'Gasparilla', 'GASPAR1LLA']) {
      const d = decideConflictPrepared(p, record(text, LUGGAGE));
      assert.equal(d.conflict, true, text);
      assert.ok(d.reasons.some((r) => r.kind === 'any_class'));
      const level = assessSeverity(p, d.reasons, { markText: text, classes: LUGGAGE });
      assert.equal(level.severity, 'medium', `${text}: ${level.why}`);
      // Lower than the same mark in the watch's own class.
      assert.ok(d.score < decideConflictPrepared(p, record(text, CARS)).score);
    }
  });

  it('leaves out a near form, a longer mark and a common-word brand in such a class', () => {
    const p = watch('GASPARILLA', CARS);
    for (const text of ['GASPARILLO', 'GASPARILLA TRAVEL', 'GASPARILLAS']) {
      assert.equal(decideConflictPrepared(p, record(text, LUGGAGE)).conflict, false, text);
    }
    // GOLD STAR is common words only: the same words in another class are coexistence.
    const gold = watch('GOLD STAR', CARS);
    assert.equal(decideConflictPrepared(gold, record('GOLD STAR', LUGGAGE)).conflict, false);
    assert.deepEqual(anyClassForms(gold), []);
  });

  it('is off when the watch turns related classes off', () => {
    const p = watch('GASPARILLA', CARS, false);
    assert.equal(decideConflictPrepared(p, record('GASPARILLA', LUGGAGE)).conflict, false);
    assert.deepEqual(anyClassForms(p), []);
  });

  it('says in the rationale why an unrelated class is flagged', () => {
    const p = watch('GASPARILLA', CARS);
    const d = decideConflictPrepared(p, record('GASPARILLA', LUGGAGE));
    const a = assessAlert(p, assessedRecord('GASPARILLA', LUGGAGE), d);
    assert.equal(a.severity, 'medium');
    assert.match(a.rationalePlain, /class 12 \(vehicles[^)]*\) watched, class 18 \(leather/);
    assert.match(a.rationalePlain, /the mark is the watched brand itself/);
    assert.match(a.rationalePlain, /Article 8\(5\) EUTMR/);
    assert.match(a.rationalePlain, /15 U\.S\.C\. §1125\(c\)/);
    assert.match(a.rationalePlain, /at most medium/);
  });

  it('is retrieved by the keys in any class, and the in-memory index keeps it', () => {
    const p = watch('GASPARILLA', CARS);
    const index = buildCandidateIndex([
      indexRow(1, 'GASPARILLA', LUGGAGE),
      indexRow(2, 'GASPARILLA TRAVEL', LUGGAGE),
      indexRow(3, 'GASPARILLA', CARS),
      indexRow(4, 'GASPAR1LLA', [45]),
    ]);
    assert.deepEqual(matchCandidateIndex(index, p).sort(), [1, 3, 4]);
    assert.deepEqual(matchCandidateIndex(index, watch('GASPARILLA', CARS, false)), [3]);
    assert.ok(retrievedInAnyClass(p, matchKeys('Gasparilla')));
    assert.ok(!retrievedInAnyClass(p, matchKeys('GASPARILLA TRAVEL')));
  });
});
