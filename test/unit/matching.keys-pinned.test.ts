import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MATCH_KEYS_VERSION, type MatchKeys, matchKeys } from '../../src/matching/normalize.ts';

// The stored keys of a mark must not change without MATCH_KEYS_VERSION: rows keyed by one version
// are searched by the next. These texts (crafted cases, a spread of the EUIPO fixture, synthetic
// register texts) pin every key of each, in order, as the code computed them when they were
// written. A faster matchKeys has to give exactly these; a deliberate change of the keys bumps the
// version and re-pins them with scripts/pin-match-keys.ts.

const pinned = JSON.parse(
  readFileSync(new URL('../fixtures/match-keys/pinned.json', import.meta.url), 'utf8'),
) as { version: number; cases: (MatchKeys & { text: string })[] };

describe('matchKeys: pinned outputs', () => {
  it('were pinned at the current match keys version', () => {
    assert.equal(
      pinned.version,
      MATCH_KEYS_VERSION,
      'the keys version changed: re-pin with node --import tsx scripts/pin-match-keys.ts',
    );
  });

  it(`gives the pinned keys for each of ${pinned.cases.length} texts`, () => {
    for (const { text, ...expected } of pinned.cases) {
      assert.deepEqual(matchKeys(text), expected, JSON.stringify(text));
    }
  });
});
