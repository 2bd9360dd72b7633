// What raising the decided conflicts no rule finds would cost (bench/lib/raising-cost.ts): the
// evaluation's argument that the held-out target is out of reach of the texts rests on these counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  closestLikeness,
  costOfRaising,
  descending,
  neededFromUnfound,
  type UnfoundPair,
} from '../../bench/lib/raising-cost.ts';
import { FEATURES, type Features } from '../../src/matching/features.ts';

const pairs: UnfoundPair[] = [
  { score: 0.7, conflict: false },
  { score: 0.6, conflict: true },
  { score: 0.5, conflict: false },
  { score: 0.45, conflict: true },
  { score: 0.45, conflict: true },
  { score: 0.45, conflict: false },
  { score: 0.3, conflict: true },
];
const unrelated = descending([0.2, 0.62, 0.45, 0.5, 0.3, 0.44, 0.61]);

describe('the cost of raising pairs no rule finds by their score', () => {
  it('raises down to the k-th conflict, with every pair and unrelated mark scoring as high', () => {
    assert.deepEqual(costOfRaising(pairs, 1, unrelated), {
      conflicts: 1,
      notConfusing: 1,
      scoreFrom: 0.6,
      falseAlerts: 2,
    });
    assert.deepEqual(costOfRaising(pairs, 4, unrelated), {
      conflicts: 4,
      notConfusing: 3,
      scoreFrom: 0.3,
      falseAlerts: 6,
    });
  });

  it('counts a tie at the lowest score raised: equal scores are raised together', () => {
    const cost = costOfRaising(pairs, 2, unrelated);
    assert.equal(cost?.scoreFrom, 0.45);
    assert.equal(cost?.conflicts, 3);
    assert.equal(cost?.notConfusing, 3);
    // 0.62, 0.61, 0.5 and 0.45 score at least 0.45; 0.44 does not.
    assert.equal(cost?.falseAlerts, 4);
  });

  it('has no cost to give beyond the conflicts there are', () => {
    assert.equal(costOfRaising(pairs, 5, unrelated), null);
    assert.equal(costOfRaising(pairs, 0, unrelated), null);
  });

  it('needs from the pairs no rule finds what the target lacks once the rest is raised', () => {
    // 95 conflicts, 61 raised, 13 more a rule finds: 90% is 86 (85.5 rounded up), so 12.
    assert.equal(neededFromUnfound(95, 61, 13, 0.9), 12);
    // 86.4 is rounded up, not to the nearest.
    assert.equal(neededFromUnfound(96, 0, 0, 0.9), 87);
    assert.equal(neededFromUnfound(10, 9, 0, 0.9), 0);
    assert.equal(neededFromUnfound(10, 5, 10, 0.9), 0);
  });

  it('ranks by likeness as the best of the five likeness features, whatever else holds', () => {
    const none = Object.fromEntries(FEATURES.map((f) => [f, 0])) as Features;
    for (const f of ['whole_text', 'whole_trigram', 'whole_sound', 'word_text', 'word_sound']) {
      assert.equal(closestLikeness({ ...none, [f]: 0.4, rules_more: 1, prefix: 0.9 }), 0.4, f);
    }
  });
});
