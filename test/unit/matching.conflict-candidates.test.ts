// An incremental scan reads in full only the candidates that may be conflicts (conflictCandidates,
// mayConflict): live records a text rule finds. Leaving the others out must never drop a conflict.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMarkTexts } from '../../bench/lib/mark-texts.ts';
import { mulberry32 } from '../../bench/lib/random.ts';
import { VARIANT_KINDS, variantGenerators, vocabularyOf } from '../../bench/lib/variants.ts';
import {
  buildCandidateIndex,
  conflictCandidates,
  matchCandidateIndex,
} from '../../src/matching/candidates.ts';
import { decideConflictPrepared, mayConflict, prepareWatch } from '../../src/matching/decide.ts';
import { relatedClassesOf } from '../../src/matching/goods.ts';
import { analyzeMark } from '../../src/matching/normalize.ts';
import { indexRow } from '../helpers/matching.ts';

const texts = readMarkTexts();

const nike = prepareWatch({ name: 'NIKE', niceClasses: [25], designations: ['US'] });

describe('the candidates an incremental scan reads in full', () => {
  it('are the live ones a text rule finds, of those the candidate rule returns', () => {
    const index = buildCandidateIndex([
      indexRow(1, 'NIKE', [25]),
      { ...indexRow(2, 'NIKE', [25]), live: false },
      { ...indexRow(3, 'NYKE', [25]), live: null },
      // BIKE is one edit from NIKE (a key) but a common word: no rule finds the mark.
      indexRow(4, 'PUBLIC BIKE SYSTEM', [25]),
    ]);
    assert.deepEqual(
      matchCandidateIndex(index, nike).sort(),
      [1, 2, 3, 4],
      'the candidate rule is unchanged',
    );
    assert.deepEqual(conflictCandidates(index, nike).sort(), [1, 3]);
  });

  it('keep every record the decision raises, whatever its classes and disclaimed words', () => {
    const brands = ['NIKE', 'Gasparilla', 'Pelikan', 'Quillstone', 'North Face', 'Starbuck'];
    const rand = mulberry32(11);
    const { generators } = variantGenerators(
      {
        pick: <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T,
        int: (n: number) => Math.floor(rand() * n),
      },
      vocabularyOf(texts.slice(0, 2000)),
    );
    let raised = 0;
    let left = 0;
    for (const name of brands) {
      const p = prepareWatch({ name, niceClasses: [32], designations: ['US'] });
      const classSets = [[32], relatedClassesOf([32]).slice(0, 1), [12], []];
      const variants = VARIANT_KINDS.flatMap((kind) =>
        Array.from({ length: 4 }, () => generators[kind](name)).filter(
          (v): v is string => v !== null,
        ),
      );
      for (const markText of [...variants, ...texts.slice(0, 1500)]) {
        const words = analyzeMark(markText).words;
        const may = mayConflict(p, markText, true);
        if (!may) left++;
        for (const classes of classSets) {
          const d = decideConflictPrepared(p, {
            markText,
            classes,
            jurisdiction: 'US',
            disclaimed: words,
          });
          if (!d.conflict) continue;
          raised++;
          assert.ok(may, `${name} / ${markText} in ${classes.join(',')} is raised but left out`);
        }
      }
    }
    assert.ok(raised > 200 && left > 1000, `${raised} raised, ${left} left out`);
  });
});
