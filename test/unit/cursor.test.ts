import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.ts';

const position = { createdAt: '2026-11-22T09:30:00.123Z', id: 'wat_4Qm2c8VnXr0sKp1LdT9aBz' };
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('cursor', () => {
  it('decodes what it encodes', () => {
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  });

  it('is URL-safe text', () => {
    assert.match(encodeCursor(position), /^[A-Za-z0-9_-]+$/);
  });

  it('does not expose the position as plain text', () => {
    const cursor = encodeCursor(position);
    assert.equal(cursor.includes(position.id), false);
    assert.equal(cursor.includes('2026'), false);
  });

  it('a cursor with a character changed does not decode to a different shape', () => {
    const cursor = encodeCursor(position);
    for (let i = 0; i < cursor.length; i++) {
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      const tampered = `${cursor.slice(0, i)}${replacement}${cursor.slice(i + 1)}`;
      const decoded = decodeCursor(tampered);
      // Either refused, or (rarely) still a well-formed position: never anything else.
      if (decoded !== null) {
        assert.match(decoded.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.match(decoded.id, /^[a-z]{3}_[0-9A-Za-z]+$/);
      }
    }
  });

  it('a cursor cut short is refused', () => {
    const cursor = encodeCursor(position);
    assert.equal(decodeCursor(cursor.slice(0, -3)), null);
  });

  const REFUSED: [string, string][] = [
    ['the empty string', ''],
    ['punctuation', '!!!'],
    ['standard base64 padding', `${encodeCursor(position)}==`],
    ['base64 of plain text', Buffer.from('hello').toString('base64url')],
    ['base64 of an object', encode(position)],
    ['base64 of a one-element array', encode([position.createdAt])],
    ['base64 of a three-element array', encode([position.createdAt, position.id, 1])],
    ['base64 of numbers', encode([1, 2])],
    ['a timestamp without milliseconds', encode(['2026-11-22T09:30:00Z', position.id])],
    ['a timestamp with an offset', encode(['2026-11-22T09:30:00.000+01:00', position.id])],
    ['a date only', encode(['2026-11-22', position.id])],
    ['February 30', encode(['2026-02-30T00:00:00.000Z', position.id])],
    ['month 13', encode(['2026-13-01T00:00:00.000Z', position.id])],
    ['hour 24', encode(['2026-11-22T24:00:00.000Z', position.id])],
    ['year 0', encode(['0000-01-01T00:00:00.000Z', position.id])],
    ['an id without a prefix', encode([position.createdAt, '4Qm2c8VnXr0sKp1LdT9aBz'])],
    ['an id with SQL in it', encode([position.createdAt, "wat_x' OR '1'='1"])],
    ['an id with a NUL character', encode([position.createdAt, 'wat_a\u0000'])],
    ['more than 200 characters', 'A'.repeat(201)],
  ];
  for (const [what, cursor] of REFUSED) {
    it(`refuses ${what}`, () => {
      assert.equal(decodeCursor(cursor), null);
    });
  }
});
