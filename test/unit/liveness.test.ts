import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveOfStatusWord, liveOfUsptoIndicator } from '../../src/register/liveness.ts';
import { parseRegisterRecord } from '../../src/register/record.ts';
import { usptoStatus } from '../../src/register/uspto-status.ts';
import { statusLive } from '../../src/register/wipo-common.ts';

// Live or dead from each office's own code table (src/register/liveness.ts).

describe('live or dead, per office', () => {
  const usCodes: [string, boolean | null][] = [
    ['602', false], // ABANDONED-FAILURE TO RESPOND: Dead/Abandoned
    ['626', false], // CANCELLED SEC. 8: Dead/Cancelled
    ['710', false], // CANCELLED - SECTION 71: Dead/Cancelled
    ['616', true], // REVIVED - AWAITING FURTHER ACTION: Live/Pending
    ['800', true], // REGISTERED AND RENEWED: Live/Registered
    ['686', true], // PUBLISHED FOR OPPOSITION: Live/Pending
    ['715', null], // CANCELLED - RESTORED TO PENDENCY: Indifferent/Cancelled
    ['000', null], // UNKNOWN: Indifferent
    ['999', null], // not in the table
  ];
  for (const [code, live] of usCodes) {
    it(`USPTO status ${code} is ${live === null ? 'neither' : live ? 'live' : 'dead'}, by the office's indicator`, () => {
      assert.equal(usptoStatus(code).live, live);
      assert.equal(statusLive('US', code), live, 'the same through ST.96/ST.66 (TSDR)');
    });
  }

  it('the indicator itself: Live… live, Dead… dead, Indifferent… neither', () => {
    assert.deepEqual(
      ['Live/Registered', 'Live', 'Dead/Expired', 'Dead', 'Indifferent', null].map(
        liveOfUsptoIndicator,
      ),
      [true, true, false, false, null, null],
    );
  });

  const texts: [string, boolean | null][] = [
    ['Registered', true],
    ['Application published', true],
    ['Application opposed', true],
    ['Registration cancellation pending', true],
    ['Application refused', false],
    ['Application withdrawn', false],
    ['Registration surrendered', false],
    ['Expired', false],
    ['Registration opposed', null],
    ['Appeal pending', null],
  ];
  for (const [text, live] of texts) {
    it(`the ST.66 text "${text}" (EUIPO, CIPO, WIPO) is ${live === null ? 'neither' : live ? 'live' : 'dead'}`, () => {
      assert.equal(statusLive('EM', text), live);
      assert.equal(statusLive('CA', text), live);
    });
  }

  it('a JSON Lines record gives live itself, or its status word decides', () => {
    const base = {
      externalId: 'EM500000018000001',
      markText: 'ACME',
      jurisdiction: 'EM',
      filedAt: '2026-01-05',
      classes: [9],
    };
    const read = (extra: Record<string, unknown>) => {
      const r = parseRegisterRecord({ ...base, ...extra });
      assert.ok(r.ok);
      return r.record.live;
    };
    assert.equal(read({ status: 'registered' }), true);
    assert.equal(read({ status: 'abandoned' }), false);
    assert.equal(read({ status: 'in force' }), null, 'not a word of the format');
    assert.equal(read({ status: null }), null);
    assert.equal(read({ status: 'registered', live: false }), false, 'given, it is kept');
    assert.equal(read({ status: 'registered', live: null }), null);
    const bad = parseRegisterRecord({ ...base, status: null, live: 'yes' });
    assert.equal(bad.ok, false);
    assert.equal(liveOfStatusWord('expired'), false);
  });
});
