import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { copyNumberArray, copyTextArray, copyValue, type Db } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// Db.copyFrom is the importer's way into PostgreSQL (COPY … FROM STDIN, or PGlite's /dev/blob):
// values must come back exactly as written, and a failure must reject, never hang.
describe('Db.copyFrom', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
    db = database.db;
    await db.exec('CREATE TABLE copied (n int, t text, tags text[], nums int[], doc jsonb)');
  });
  after(() => database.drop());

  const awkward = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    'quote " and \\" and \\\\',
    '\\N',
    'NULL',
    '',
    ' spaced ',
    '{braces},commas',
    'Ünïcødé ЖΩ 中文 🙂',
  ];

  it('round-trips text, NULL, arrays and JSON with every character COPY treats specially', async () => {
    const rows = awkward.map((t, i) => ({
      n: i,
      t,
      tags: [t, 'NULL', ''],
      nums: [i + 1, -(i + 1)],
      doc: { t },
    }));
    const data = rows
      .map(
        (r) =>
          `${[
            copyValue(r.n),
            copyValue(r.t),
            copyTextArray(r.tags),
            copyNumberArray(r.nums),
            copyValue(JSON.stringify(r.doc)),
          ].join('\t')}\n`,
      )
      .join('');
    await db.transaction((tx) => tx.copyFrom('copied (n, t, tags, nums, doc)', data));
    await db.transaction((tx) =>
      tx.copyFrom(
        'copied (n, t, tags, nums, doc)',
        `${[99, '\\N', '{}', '{}', '\\N'].join('\t')}\n`,
      ),
    );
    const back = await db.query<{
      n: number;
      t: string | null;
      tags: string[];
      nums: number[];
      doc: unknown;
    }>('SELECT n, t, tags, nums, doc FROM copied ORDER BY n');
    assert.deepEqual(back, [...rows, { n: 99, t: null, tags: [], nums: [], doc: null }]);
  });

  // postgres.js 3.4 alone never settles a COPY the server refuses (porsager/postgres#1173): the
  // timeout turns a regression into a failure instead of a hung test run.
  it('rejects with the database error when a row is refused, and the connection goes on', {
    timeout: 30_000,
  }, async () => {
    // More failures than the pool has connections: none may be left in an aborted transaction.
    for (let i = 0; i < 12; i++) {
      await assert.rejects(
        db.transaction((tx) => tx.copyFrom('copied (n, t)', '1\tfine\nnot a number\tbad\n')),
        /invalid input syntax for type integer/,
      );
    }
    const rows = await db.transaction((tx) =>
      tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM copied WHERE t = 'fine'`),
    );
    assert.equal(rows[0]?.n, 0, 'the refused batches left nothing behind');
  });
});
