import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alertOrigin } from '../../src/domain/alerts/origin.ts';

// New filing or existing mark: the record's filing and publication days against the day the watch
// started looking (docs/matching.md, "New filings and existing marks").

describe('alertOrigin', () => {
  const since = '2026-11-27';
  const cases: [string, string, string | null, 'new_filing' | 'existing_mark'][] = [
    ['filed the day the watch started looking', '2026-11-27T00:00:00.000Z', null, 'new_filing'],
    ['filed later that day', '2026-11-27T23:59:59.999Z', null, 'new_filing'],
    ['filed after', '2026-12-02T00:00:00.000Z', null, 'new_filing'],
    ['filed the day before', '2026-11-26T00:00:00.000Z', null, 'existing_mark'],
    ['filed in 1918, never published', '1918-04-02T00:00:00.000Z', null, 'existing_mark'],
    [
      'filed before, published before',
      '2026-01-05T00:00:00.000Z',
      '2026-06-01T00:00:00.000Z',
      'existing_mark',
    ],
    [
      'filed before, published for opposition after',
      '2026-01-05T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
      'new_filing',
    ],
    [
      'filed before, published that day',
      '2025-03-01T00:00:00.000Z',
      '2026-11-27T00:00:00.000Z',
      'new_filing',
    ],
  ];
  for (const [name, filedAt, publishedAt, origin] of cases) {
    it(`${name}: ${origin}`, () => {
      assert.equal(alertOrigin({ filedAt, publishedAt }, since), origin);
    });
  }
});
