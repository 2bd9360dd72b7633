import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MarkBatch, type MarkUpsert } from '../../src/data/repositories/marks.ts';
import { toMarkUpsert } from '../../src/mirror/import.ts';
import { parseRegisterRecord } from '../../src/register/record.ts';
import { makeRecord } from '../helpers/register.ts';

function upsert(overrides: Record<string, unknown>, asOf: string | null = null): MarkUpsert {
  const parsed = parseRegisterRecord(makeRecord(overrides));
  assert.ok(parsed.ok);
  return toMarkUpsert(parsed.record, asOf);
}

const rowsOf = (batch: MarkBatch) => batch.copyRows().toString('utf8').split('\n').slice(0, -1);
const markTextOf = (row: string) => row.split('\t')[2];

describe('MarkBatch', () => {
  it('holds one COPY row per record, in the order added, each ending in a newline', () => {
    const batch = new MarkBatch();
    for (const markText of ['ALPHA', 'Ünïcödé 😀', 'BACK\\SLASH']) batch.add(upsert({ markText }));
    assert.equal(batch.size, 3);
    assert.ok(batch.copyRows().toString('utf8').endsWith('\n'));
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['ALPHA', 'Ünïcödé 😀', 'BACK\\\\SLASH']);
  });

  it('a record added again replaces the earlier row in its place, as the later line wins', () => {
    const batch = new MarkBatch();
    batch.add(upsert({ externalId: 'EM1', markText: 'FIRST' }));
    batch.add(upsert({ externalId: 'EM2', markText: 'SECOND' }));
    batch.add(upsert({ externalId: 'EM1', markText: 'FIRST AGAIN' }));
    batch.add(upsert({ externalId: 'EM3', markText: 'THIRD' }));
    assert.equal(batch.size, 3);
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['FIRST AGAIN', 'SECOND', 'THIRD']);
  });

  it('a record as of an earlier day than the one held is dropped and counted, not replacing it', () => {
    const batch = new MarkBatch();
    batch.add(upsert({ externalId: 'EM1', markText: 'NOVEMBER 2' }, '2026-11-02'));
    batch.add(upsert({ externalId: 'EM1', markText: 'NOVEMBER 1' }, '2026-11-01'));
    batch.add(upsert({ externalId: 'EM1', markText: 'UNDATED' }));
    batch.add(upsert({ externalId: 'EM2', markText: 'SAME DAY' }, '2026-11-02'));
    batch.add(upsert({ externalId: 'EM2', markText: 'SAME DAY LATER' }, '2026-11-02'));
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['UNDATED', 'SAME DAY LATER']);
    assert.equal(batch.stale, 1);
    assert.deepEqual(
      rowsOf(batch).map((row) => row.split('\t').slice(-2)),
      [
        ['\\N', 't'],
        ['2026-11-02', 't'],
      ],
      'the as-of date (\\N when unknown), then live (t, f or \\N) end the row',
    );
  });

  it('a deletion drops the version held and is kept for the mirror; a later version revives it', () => {
    const batch = new MarkBatch();
    batch.add(upsert({ externalId: 'EM1', markText: 'ONE' }, '2026-11-01'));
    batch.add(upsert({ externalId: 'EM2', markText: 'TWO' }));
    batch.delete('EM1', '2026-11-02');
    batch.delete('EM3', null);
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['TWO']);
    assert.equal(batch.size, 1);
    assert.equal(batch.pending, 3);
    assert.deepEqual(batch.deletions, [
      { externalId: 'EM1', asOf: '2026-11-02' },
      { externalId: 'EM3', asOf: null },
    ]);
    // A version older than the deletion stays deleted; a newer one replaces the deletion.
    batch.add(upsert({ externalId: 'EM1', markText: 'ONE OLDER' }, '2026-11-01'));
    assert.equal(batch.stale, 1);
    batch.add(upsert({ externalId: 'EM1', markText: 'ONE AGAIN' }, '2026-11-03'));
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['ONE AGAIN', 'TWO']);
    assert.deepEqual(batch.deletions, [{ externalId: 'EM3', asOf: null }]);
    // An undated deletion takes what is held (EM2); one older than the version held, nothing (EM4).
    batch.delete('EM2', null);
    batch.add(upsert({ externalId: 'EM4', markText: 'FOUR' }, '2026-11-05'));
    batch.delete('EM4', '2026-11-04');
    assert.deepEqual(rowsOf(batch).map(markTextOf), ['ONE AGAIN', 'FOUR']);
    assert.equal(batch.stale, 2);
  });

  it('grows past its first buffer without losing a byte', () => {
    const batch = new MarkBatch();
    const texts = Array.from({ length: 500 }, (_, n) => `MARK ${n}${'Ж'.repeat(n % 300)}`);
    for (const markText of texts) batch.add(upsert({ markText }));
    assert.deepEqual(rowsOf(batch).map(markTextOf), texts);
  });
});
