// The decided cases' one split into development and held-out parts (bench/lib/decided-cases.ts):
// a fixed hash of the pair's id, so that no pair moves when cases are added, and the classes a
// pair is compared in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  crossesClasses,
  type DecidedCase,
  pairClasses,
  partOf,
  readDecidedCases,
} from '../../bench/lib/decided-cases.ts';

const pair = (earlier: number[] | null, later: number[] | null): DecidedCase => ({
  id: 'a-b',
  citation: 'x',
  earlier: { text: 'A', classes: earlier },
  later: { text: 'B', classes: later },
  outcome: 'conflict',
  shape: 'other',
});

describe('the split of the decided cases', () => {
  it('is the first 4 bytes of SHA-256(id) mod 3: 0 is held out', () => {
    // sha256("optiroc-optitec") begins 61d0cbce (1641073614 = 3 × 547024538): held out;
    // sha256("true1-truone") begins 4b40ac1a (1262529562, remainder 1): development.
    assert.equal(partOf('optiroc-optitec'), 'held-out');
    assert.equal(partOf('true1-truone'), 'development');
  });

  it('puts every pair of the fixture in one part, about a third held out, both outcomes in each', () => {
    const cases = readDecidedCases();
    const held = cases.filter((c) => c.part === 'held-out');
    assert.ok(
      held.length >= cases.length / 4 && held.length <= cases.length / 2.4,
      `${held.length}`,
    );
    for (const part of ['held-out', 'development']) {
      for (const outcome of ['conflict', 'no_conflict']) {
        assert.ok(
          cases.some((c) => c.part === part && c.outcome === outcome),
          `${part} ${outcome}`,
        );
      }
    }
    // The part depends on the id alone, not on the other cases or their order.
    for (const c of cases) assert.equal(c.part, partOf(c.id));
    assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, 'ids are unique');
  });

  it('compares a pair in its own classes; a mark without classes takes the other one', () => {
    assert.deepEqual(pairClasses(pair([32], [33]), [25]), [[32], [33]]);
    assert.deepEqual(pairClasses(pair(null, [5]), [25]), [[5], [5]]);
    assert.deepEqual(pairClasses(pair(null, null), [25]), [[25], [25]]);
    assert.equal(crossesClasses(pair([32], [33])), true);
    assert.equal(crossesClasses(pair([32, 33], [33])), false);
    assert.equal(crossesClasses(pair(null, [33])), false);
  });
});
