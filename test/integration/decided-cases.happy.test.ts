import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  crossesClasses,
  decidedRecord,
  pairClasses,
  readDecidedCases,
} from '../../bench/lib/decided-cases.ts';
import { readMarkTexts } from '../../bench/lib/mark-texts.ts';
import type { Db } from '../../src/data/db.ts';
import { highestChangeSeq } from '../../src/data/repositories/marks.ts';
import {
  decideConflictPrepared,
  prepareWatch,
  type RecordInput,
} from '../../src/matching/decide.ts';
import { analyzeMark } from '../../src/matching/normalize.ts';
import { countWords } from '../../src/matching/word-weights.ts';
import { createRegisterMirror } from '../../src/scan/sources/register-mirror.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';

// The decided cases (test/fixtures/decided-cases) through the database a scan reads: each later
// mark is a record of the register, in its classes with the decision's goods, and each earlier
// mark a watch in its own. The matching evaluation (npm run eval:matching) decides the pairs in
// memory; a scan decides only the records the candidate query of its engine (PGlite, or
// PostgreSQL with DATABASE_URL) returns. So that the evaluation's held-out figures hold for a scan
// on either engine, the query must return every pair the decision raises, and the scan's decision
// on the record as the database returns it must be the evaluation's.

const CLASSES = [25];
const cases = readDecidedCases();
// The evaluation's word counts (those of its register, the EUIPO texts), so that each watch, its
// keys and its decisions are the evaluation's.
const stats = countWords(readMarkTexts().map((t) => analyzeMark(t).words));
const idOf = (i: number) => `EM0${String(700_000_000 + i)}`;

/**
 * The later mark as the evaluation gives it to the decision (scripts/eval-matching.ts), with a
 * filing date, which a register record must have: the decisions seldom give one, and the later
 * mark was filed by the year of its decision.
 */
function recordOf(c: (typeof cases)[number]): RecordInput & { filedAt: string } {
  return { ...decidedRecord(c, CLASSES), filedAt: `${c.year ?? 2000}-01-01` };
}

describe('the decided cases through the candidate query', () => {
  let database: TestDatabase;
  let db: Db;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    const imported = await importRecords(
      db,
      cases.map((c, i) => {
        const r = recordOf(c);
        return makeRecord({
          externalId: idOf(i),
          markText: r.markText,
          classes: r.classes,
          filedAt: r.filedAt,
          goods:
            c.later.goods == null
              ? []
              : r.classes.map((niceClass) => ({
                  class: niceClass,
                  text: c.later.goods,
                  language: 'en',
                })),
        });
      }),
    );
    assert.deepEqual(imported.errors, []);
    assert.equal(imported.imported, cases.length);
  });
  after(() => database.drop());

  it('returns every pair the decision raises, which the scan then raises too', async () => {
    const mirror = createRegisterMirror();
    const toSeq = await highestChangeSeq(db);
    const raised = { memory: new Map<string, number>(), database: new Map<string, number>() };
    const count = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
    const missed: string[] = [];
    for (const [i, c] of cases.entries()) {
      const p = prepareWatch(
        { name: c.earlier.text, niceClasses: pairClasses(c, CLASSES)[0], designations: ['DE'] },
        stats,
      );
      const key = `${c.part}|${c.outcome}|${crossesClasses(c) ? 'cross' : 'same'}`;
      const inMemory = decideConflictPrepared(p, recordOf(c));
      if (inMemory.conflict) count(raised.memory, key);
      const candidates = await mirror.findCandidates(db, p, { fromSeq: 0, toSeq });
      const record = candidates.find((r) => r.externalId === idOf(i));
      if (record === undefined) {
        if (inMemory.conflict) missed.push(`${c.earlier.text} / ${c.later.text}`);
        continue;
      }
      const scanned = decideConflictPrepared(p, record);
      assert.equal(scanned.score, inMemory.score, `${c.earlier.text} / ${c.later.text}`);
      if (scanned.conflict) count(raised.database, key);
    }
    assert.deepEqual(missed, [], 'raised in memory, not returned by the candidate query');
    assert.deepEqual(
      [...raised.database].sort(),
      [...raised.memory].sort(),
      'raised pairs by part, outcome and classes',
    );
    // Both parts and both outcomes have raised pairs, in the same and in related classes.
    for (const part of ['held-out', 'development']) {
      for (const outcome of ['conflict', 'no_conflict']) {
        for (const classes of ['same', 'cross']) {
          const key = `${part}|${outcome}|${classes}`;
          assert.ok((raised.database.get(key) ?? 0) > 0, `${key}: none raised`);
        }
      }
    }
  });
});
