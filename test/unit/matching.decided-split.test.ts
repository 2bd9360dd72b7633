// The decided cases' one split into development and held-out parts (bench/lib/decided-cases.ts):
// a fixed hash of the pair's id, so that no pair moves when cases are added, and the classes a
// pair is compared in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  crossesClasses,
  DECIDED_COUNTS_MARKERS,
  DECIDED_SHAPES,
  type DecidedCase,
  decidedCountsMarkdown,
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

  it('is large and varied enough to measure generalization: 300+ pairs, a third across classes, a third not conflicts', () => {
    const cases = readDecidedCases();
    assert.ok(cases.length >= 300, `${cases.length} pairs`);
    const crossing = cases.filter(crossesClasses).length;
    assert.ok(crossing * 3 >= cases.length, `${crossing} of ${cases.length} cross classes`);
    const negatives = cases.filter((c) => c.outcome === 'no_conflict').length;
    assert.ok(negatives * 3 >= cases.length, `${negatives} of ${cases.length} not conflicts`);
  });

  it('is counted in its README as the fixture holds it (npm run decided:counts)', () => {
    const readme = readFileSync(
      new URL('../fixtures/decided-cases/README.md', import.meta.url),
      'utf8',
    );
    const [start, end] = DECIDED_COUNTS_MARKERS;
    const section = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end));
    assert.ok(readme.includes(start) && readme.includes(end), 'the README has the markers');
    assert.equal(section.trim(), decidedCountsMarkdown(readDecidedCases()));
  });

  it('gives every pair its citation, source, quote, outcome and shape, and classes from a stated origin', () => {
    const shapes = new Set<string>(DECIDED_SHAPES);
    for (const c of readDecidedCases()) {
      assert.match(c.id, /^[a-z0-9]+(-[a-z0-9]+)+$/, c.id);
      for (const field of ['citation', 'tribunal', 'source', 'evidence'] as const)
        assert.ok((c[field] ?? '').trim().length > 0, `${c.id}: ${field}`);
      // A page's address, or a public repository's file that mirrors the page (github:owner/repo/path).
      assert.match(c.source ?? '', /^(https?:\/\/|github:)\S/, `${c.id}: source`);
      assert.ok(['conflict', 'no_conflict'].includes(c.outcome), `${c.id}: outcome`);
      assert.ok(shapes.has(c.shape), `${c.id}: shape ${c.shape}`);
      for (const mark of [c.earlier, c.later]) {
        assert.ok(mark.text.trim().length > 0, `${c.id}: text`);
        // The word element only: a figurative mark's "(and design)" is no word a watch compares.
        assert.doesNotMatch(
          mark.text,
          /(\band|&)\s*design\b|\bstyli[sz]ed\b|[()[\]]/i,
          `${c.id}: text`,
        );
        // Classes are either absent (with no origin) or taken from the decision or its goods.
        if (mark.classes === null) assert.ok(mark.classesFrom == null, `${c.id}: classesFrom`);
        else {
          assert.ok(mark.classesFrom === 'decision' || mark.classesFrom === 'goods', c.id);
          for (const n of mark.classes) assert.ok(Number.isInteger(n) && n >= 1 && n <= 45, c.id);
        }
      }
    }
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
