import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ISO_COUNTRY_CODES,
  isWatchDesignation,
  WATCH_DESIGNATION_CODES,
} from '../../src/matching/countries.ts';
import {
  ARIPO_MEMBER_STATES,
  BENELUX_MEMBER_STATES,
  type CoverageRecord,
  coverageSearch,
  coveredDesignations,
  covers,
  coversAny,
  EU_MEMBER_STATES,
  OAPI_MEMBER_STATES,
} from '../../src/matching/coverage.ts';

const em: CoverageRecord = { jurisdiction: 'EM' };
const wo = (...designations: string[]): CoverageRecord => ({ jurisdiction: 'WO', designations });

/** [record, watch designation, covered?, why] */
const CASES: [CoverageRecord, string, boolean, string][] = [
  [{ jurisdiction: 'DE' }, 'DE', true, 'national record in its own country'],
  [{ jurisdiction: 'US' }, 'CA', false, 'US does not cover CA'],
  [{ jurisdiction: 'US' }, 'US', true, 'US covers US'],
  [{ jurisdiction: 'DE' }, 'EU', false, 'a national EU record does not cover the EU as a whole'],
  [em, 'DE', true, 'EM covers DE'],
  [em, 'FR', true, 'EM covers FR'],
  [em, 'GR', true, 'EM covers GR'],
  [em, 'HR', true, 'EM covers HR'],
  [em, 'EU', true, 'EM covers the watch designation EU'],
  [em, 'CH', false, 'EM does not cover CH'],
  [em, 'NO', false, 'EM does not cover NO'],
  [em, 'GB', false, 'EM does not cover GB (since 2020)'],
  [em, 'IS', false, 'EM does not cover IS'],
  [em, 'TR', false, 'EM does not cover TR'],
  [{ jurisdiction: 'EU' }, 'DE', true, 'EU written for the EUIPO is read as EM'],
  [wo('DE'), 'DE', true, 'WO designating DE covers DE'],
  [wo('CN'), 'DE', false, 'WO designating only CN does not cover DE'],
  [wo('CN', 'US'), 'US', true, 'WO designating CN and US covers US'],
  [wo('EM'), 'DE', true, 'WO designating EM covers DE'],
  [wo('EM'), 'EU', true, 'WO designating EM covers EU'],
  [wo('DE'), 'EU', false, 'WO designating DE does not cover EU'],
  [wo('EM'), 'CH', false, 'WO designating EM does not cover CH'],
  [wo('BX'), 'NL', true, 'WO designating BX covers NL'],
  [wo('OA'), 'CM', true, 'WO designating OA covers CM'],
  [wo('AP'), 'KE', true, 'WO designating AP covers KE'],
  [wo(), 'DE', false, 'WO without designations covers nothing'],
  [{ jurisdiction: 'WO', designations: null }, 'DE', false, 'WO with null designations'],
  [{ jurisdiction: 'BX' }, 'NL', true, 'BX covers NL'],
  [{ jurisdiction: 'BX' }, 'BE', true, 'BX covers BE'],
  [{ jurisdiction: 'BX' }, 'LU', true, 'BX covers LU'],
  [{ jurisdiction: 'BX' }, 'DE', false, 'BX does not cover DE'],
  [{ jurisdiction: 'BX' }, 'EU', false, 'BX does not cover EU'],
  [{ jurisdiction: 'OA' }, 'SN', true, 'OA covers SN'],
  [{ jurisdiction: 'OA' }, 'CI', true, 'OA covers CI'],
  [{ jurisdiction: 'OA' }, 'NG', false, 'OA does not cover NG'],
  [{ jurisdiction: 'AP' }, 'KE', true, 'AP covers KE'],
  [{ jurisdiction: 'AP' }, 'CV', true, 'AP covers CV (member since 2022)'],
  [{ jurisdiction: 'AP' }, 'ZA', false, 'AP does not cover ZA'],
  [{ jurisdiction: 'AP', designations: ['BW', 'TZ'] }, 'TZ', true, 'AP designating TZ'],
  [{ jurisdiction: 'AP', designations: ['BW', 'TZ'] }, 'KE', false, 'AP not designating KE'],
  [{ jurisdiction: 'em' }, 'de', true, 'codes are case-insensitive'],
];

describe('covers', () => {
  for (const [record, designation, expected, why] of CASES) {
    it(`${why}`, () => assert.equal(covers(record, designation), expected));
  }
});

describe('coversAny / coveredDesignations', () => {
  it('covers when any watch designation is covered', () => {
    assert.equal(coversAny(em, ['CH', 'DE']), true);
    assert.equal(coversAny(em, ['CH', 'NO', 'GB']), false);
    assert.equal(coversAny(wo('CN'), ['DE', 'EU']), false);
    assert.equal(coversAny(wo('CN', 'EM'), ['EU']), true);
  });
  it('lists the covered designations once, upper case, in watch order', () => {
    assert.deepEqual(coveredDesignations(em, ['ch', 'FR', 'EU', 'DE', 'fr']), ['FR', 'EU', 'DE']);
    assert.deepEqual(coveredDesignations(wo('DE', 'US'), ['EU', 'US', 'DE']), ['US', 'DE']);
  });
});

describe('regional offices', () => {
  it('EM has the 27 EU member states', () => {
    assert.equal(EU_MEMBER_STATES.size, 27);
    for (const c of ['AT', 'BE', 'BG', 'CY', 'CZ', 'DK', 'EE', 'ES', 'FI', 'IE', 'LT', 'LV']) {
      assert.ok(EU_MEMBER_STATES.has(c), c);
    }
    for (const c of ['MT', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'HU', 'IT', 'NL', 'LU']) {
      assert.ok(EU_MEMBER_STATES.has(c), c);
    }
    assert.ok(!EU_MEMBER_STATES.has('GB'));
  });
  it('BX, OA and AP have their members', () => {
    assert.deepEqual([...BENELUX_MEMBER_STATES].sort(), ['BE', 'LU', 'NL']);
    assert.equal(OAPI_MEMBER_STATES.size, 17);
    assert.equal(ARIPO_MEMBER_STATES.size, 22);
    for (const set of [EU_MEMBER_STATES, OAPI_MEMBER_STATES, ARIPO_MEMBER_STATES]) {
      for (const c of set) assert.ok(ISO_COUNTRY_CODES.has(c), c);
    }
  });
});

describe('countries', () => {
  it('has the 249 ISO 3166-1 alpha-2 codes', () => {
    assert.equal(ISO_COUNTRY_CODES.size, 249);
    for (const c of ISO_COUNTRY_CODES) assert.match(c, /^[A-Z]{2}$/);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const c of ISO_COUNTRY_CODES) assert.notEqual(names.of(c), c, `${c} has no region name`);
  });
  it('accepts EU as a watch designation, but not reserved or user-assigned codes', () => {
    assert.equal(WATCH_DESIGNATION_CODES.size, 250);
    assert.equal(isWatchDesignation('EU'), true);
    assert.equal(isWatchDesignation('de'), true);
    for (const c of ['UK', 'EM', 'WO', 'XK', 'ZZ', 'D', 'DEU', '']) {
      assert.equal(isWatchDesignation(c), false, c);
    }
  });
});

describe('coverageSearch', () => {
  it('lists the offices and WO designations that can cover the watch', () => {
    assert.deepEqual(coverageSearch(['de', 'EU']), {
      jurisdictions: ['DE', 'EM', 'EU'],
      woDesignations: ['DE', 'EM', 'EU'],
    });
    assert.deepEqual(coverageSearch(['NL', 'KE', 'SN', 'US']).jurisdictions, [
      'AP',
      'BX',
      'EM',
      'EU',
      'KE',
      'NL',
      'OA',
      'SN',
      'US',
    ]);
  });
  it('is a superset of covers for every case above', () => {
    for (const [record, designation, expected] of CASES) {
      if (!expected) continue;
      const s = coverageSearch([designation]);
      const j = record.jurisdiction.toUpperCase();
      const hit =
        s.jurisdictions.includes(j) ||
        (j === 'WO' && (record.designations ?? []).some((d) => s.woDesignations.includes(d)));
      assert.ok(hit, `${j} ${designation}`);
    }
  });
});
