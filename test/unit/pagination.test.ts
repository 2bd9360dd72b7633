import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCursor } from '../../src/domain/cursor.ts';
import { nextCursorOf, pageBody, pageItems } from '../../src/domain/pagination.ts';

// A list query returns up to limit + 1 items as the UTF-8 bytes of their JSON; pageBody sends the
// first `limit` of them unchanged, with the cursor of the last one sent when there is more.
const item = (n: number, name = `Brand ${n}`) =>
  Buffer.from(JSON.stringify({ id: `wat_${n}`, name, createdAt: `2026-11-0${n}T08:00:00.000Z` }));

describe('list pages', () => {
  it('a full page with one more row: limit items, the extra row left out, a cursor to the last', () => {
    const rows = [item(3, 'Ünïcødé 中文 🙂'), item(2), item(1)];
    const body = pageBody(rows, 2);
    const parsed = JSON.parse(body.toString('utf8'));
    assert.deepEqual(
      parsed.data.map((x: { id: string }) => x.id),
      ['wat_3', 'wat_2'],
    );
    assert.equal(parsed.data[0].name, 'Ünïcødé 中文 🙂');
    assert.equal(parsed.pagination.limit, 2);
    assert.deepEqual(decodeCursor(parsed.pagination.nextCursor), {
      createdAt: '2026-11-02T08:00:00.000Z',
      id: 'wat_2',
    });
    // The items' bytes go out as they came: the body is their concatenation, byte for byte.
    const expected = Buffer.concat([
      Buffer.from('{"data":['),
      rows[0] as Buffer,
      Buffer.from(','),
      rows[1] as Buffer,
      Buffer.from(`],"pagination":${JSON.stringify(parsed.pagination)}}`),
    ]);
    assert.ok(body.equals(expected));
  });

  it('the last page has no cursor', () => {
    const parsed = JSON.parse(pageBody([item(2), item(1)], 2).toString('utf8'));
    assert.equal(parsed.data.length, 2);
    assert.deepEqual(parsed.pagination, { nextCursor: null, limit: 2 });
    assert.equal(nextCursorOf([item(1)], 5), null);
  });

  it('an empty list is an empty page', () => {
    assert.deepEqual(JSON.parse(pageBody([], 50).toString('utf8')), {
      data: [],
      pagination: { nextCursor: null, limit: 50 },
    });
  });

  it('pageItems parses the page’s items, without the extra row', () => {
    assert.deepEqual(
      pageItems<{ id: string }>([item(2), item(1)], 1).map((x) => x.id),
      ['wat_2'],
    );
  });
});
