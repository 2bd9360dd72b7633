import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isScope,
  looksLikeApiKey,
  parseBearer,
} from '../../src/domain/api-keys.ts';

describe('API keys', () => {
  it('a key is tmw_ followed by 43 base62 characters (256 bits)', () => {
    for (let i = 0; i < 200; i++) {
      assert.match(generateApiKey().plaintext, /^tmw_[0-9A-Za-z]{43}$/);
    }
  });

  it('keys do not repeat', () => {
    const keys = new Set(Array.from({ length: 5000 }, () => generateApiKey().plaintext));
    assert.equal(keys.size, 5000);
  });

  it('keys use the whole base62 alphabet', () => {
    const seen = new Set(
      Array.from({ length: 200 }, () => generateApiKey().plaintext.slice(4)).join(''),
    );
    assert.equal(seen.size, 62);
  });

  it('the stored hash is the SHA-256 hex digest of the key', () => {
    const { plaintext, hash } = generateApiKey();
    assert.equal(hash, createHash('sha256').update(plaintext).digest('hex'));
    assert.match(hash, /^[0-9a-f]{64}$/);
  });

  it('hashApiKey matches a published SHA-256 test vector', () => {
    assert.equal(
      hashApiKey('abc'),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('the display prefix is the start of the key, far too short to guess the rest', () => {
    const { plaintext, prefix } = generateApiKey();
    assert.equal(prefix, displayPrefix(plaintext));
    assert.ok(plaintext.startsWith(prefix));
    assert.ok(prefix.startsWith('tmw_'));
    assert.ok(prefix.length <= 12);
  });

  it('looksLikeApiKey accepts exactly the generated shape', () => {
    assert.equal(looksLikeApiKey(generateApiKey().plaintext), true);
    assert.equal(looksLikeApiKey(`tmw_${'a'.repeat(42)}`), false);
    assert.equal(looksLikeApiKey(`tmw_${'a'.repeat(44)}`), false);
    assert.equal(looksLikeApiKey(`TMW_${'a'.repeat(43)}`), false);
    assert.equal(looksLikeApiKey(`tmw_${'a'.repeat(42)}-`), false);
    assert.equal(looksLikeApiKey(''), false);
  });

  it('isScope knows the four scopes and nothing else', () => {
    for (const scope of ['watches:read', 'watches:write', 'alerts:read', 'apikeys:read']) {
      assert.equal(isScope(scope), true, scope);
    }
    for (const scope of ['alerts:write', 'watches:admin', 'watches', '']) {
      assert.equal(isScope(scope), false, scope);
    }
  });

  describe('parseBearer', () => {
    it('takes the token of "Bearer <token>"', () => {
      assert.equal(parseBearer('Bearer tmw_abc'), 'tmw_abc');
    });

    const REFUSED: [string, string | undefined][] = [
      ['a missing header', undefined],
      ['an empty header', ''],
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer " with no token', 'Bearer '],
      ['lower-case bearer', 'bearer tmw_abc'],
      ['upper-case BEARER', 'BEARER tmw_abc'],
      ['two spaces', 'Bearer  tmw_abc'],
      ['a tab', 'Bearer\ttmw_abc'],
      ['a leading space', ' Bearer tmw_abc'],
      ['a trailing space', 'Bearer tmw_abc '],
      ['two tokens', 'Bearer tmw_abc tmw_def'],
      ['Basic', 'Basic dXNlcjpwYXNz'],
      ['a bare token', 'tmw_abc'],
      ['a newline in the token', 'Bearer tmw\nabc'],
    ];
    for (const [what, header] of REFUSED) {
      it(`refuses ${what}`, () => {
        assert.equal(parseBearer(header), null);
      });
    }
  });
});
