import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isIdOf, newId, randomBase62 } from '../../src/domain/ids.ts';

describe('ids', () => {
  it('are the prefix and 22 base62 characters', () => {
    const id = newId('alt');
    assert.match(id, /^alt_[0-9A-Za-z]{22}$/);
    assert.equal(isIdOf('alt', id), true);
    assert.equal(isIdOf('hit', id), false);
  });

  it('never repeat, across many refills of the random pool', () => {
    // 20,000 ids take ~440,000 random bytes: the 4 KiB pool is refilled ~100 times. A byte used
    // twice, or a pool not refilled, would repeat ids.
    const ids = Array.from({ length: 20_000 }, () => newId('hit'));
    assert.equal(new Set(ids).size, ids.length);
    const bodies = new Set(ids.map((id) => id.slice(4, 12)));
    assert.equal(bodies.size, ids.length, 'even their first 8 characters differ');
  });

  it('draws every base62 character about equally often', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(620_000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62);
    // 10,000 expected each (a standard deviation of ~100); a modulo bias (bytes 248-255 kept)
    // would give the first 8 characters ~12,100 and the others ~9,700.
    for (const [c, n] of counts) {
      assert.ok(n > 9_500 && n < 10_500, `${c} drawn ${n} times`);
    }
  });
});
