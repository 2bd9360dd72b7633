import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPageCache } from '../../src/domain/page-cache.ts';

const body = (bytes: number, fill = 'x') => Buffer.from(fill.repeat(bytes));

describe('page cache', () => {
  it('hands a page back only for the version it was kept with', () => {
    const cache = createPageCache(1024 * 1024);
    assert.ok(cache);
    const page = body(10);
    cache.set('k', '7', page);
    assert.deepEqual(cache.get('k', '7'), page);
    assert.equal(cache.get('k', '8'), undefined);
    assert.equal(cache.get('other', '7'), undefined);
  });

  it('a page kept again replaces the one before it', () => {
    const cache = createPageCache(1024 * 1024);
    assert.ok(cache);
    cache.set('k', '1', body(10, 'a'));
    cache.set('k', '2', body(10, 'b'));
    assert.equal(cache.get('k', '1'), undefined);
    assert.equal(cache.get('k', '2')?.toString(), 'b'.repeat(10));
  });

  it('stays within its size, dropping the least recently used pages first', () => {
    // Room for three 300-byte pages with their keys and overhead, not four.
    const cache = createPageCache(1300);
    assert.ok(cache);
    for (const key of ['a', 'b', 'c']) cache.set(key, '1', body(300));
    assert.ok(cache.get('a', '1'), 'a is now the most recently used');
    cache.set('d', '1', body(300));
    assert.equal(cache.get('b', '1'), undefined, 'b was the least recently used');
    for (const key of ['a', 'c', 'd']) assert.ok(cache.get(key, '1'), key);
  });

  it("a small body sliced from Node's shared pool is kept in an allocation of its own", () => {
    const cache = createPageCache(1024 * 1024);
    assert.ok(cache);
    const small = Buffer.concat([body(20), body(35)]);
    assert.ok(small.buffer.byteLength > small.length, 'Node gave a slice of its pool');
    cache.set('k', '1', small);
    const kept = cache.get('k', '1');
    assert.ok(kept);
    assert.equal(kept.buffer.byteLength, 55);
    assert.equal(kept.toString(), small.toString());
  });

  it('a page larger than the whole cache is not kept', () => {
    const cache = createPageCache(1000);
    assert.ok(cache);
    cache.set('big', '1', body(2000));
    assert.equal(cache.get('big', '1'), undefined);
  });

  it('a key is asked for before from its second time on, and while its page is kept', () => {
    const cache = createPageCache(1024 * 1024);
    assert.ok(cache);
    assert.equal(cache.askedBefore('once'), false);
    assert.equal(cache.askedBefore('once'), true);
    cache.set('kept', '1', body(10));
    assert.equal(cache.askedBefore('kept'), true);
  });

  it('remembers keys asked for once within an eighth of its size, the oldest forgotten first', () => {
    // An eighth of 7,200 bytes (900): room for four keys of 100 characters with their 100 bytes of
    // overhead, not five.
    const cache = createPageCache(7200);
    assert.ok(cache);
    const keys = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(100));
    for (const key of keys) assert.equal(cache.askedBefore(key), false);
    assert.equal(cache.askedBefore(keys[0] as string), false, 'the oldest was forgotten');
    assert.equal(cache.askedBefore(keys[4] as string), true);
  });

  it('0 bytes means no cache', () => {
    assert.equal(createPageCache(0), null);
  });
});
