import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { officeReference } from '../../src/register/office-links.ts';

const shown = (key: string) => {
  const ref = officeReference(key);
  return ref === null
    ? null
    : [ref.label, ref.number, ref.page?.url ?? null, ref.page?.site ?? null];
};

describe('the office number and public page of a mirror key', () => {
  it('ST.13 keys of the USPTO, EUIPO and WIPO: the number as the office writes it, linked', () => {
    assert.deepEqual(shown('US500000079366581'), [
      'US serial',
      '79366581',
      'https://tsdr.uspto.gov/#caseNumber=79366581&caseSearchType=US_APPLICATION&caseType=DEFAULT&searchType=statusSearch',
      'USPTO TSDR',
    ]);
    assert.deepEqual(shown('EM500000018123456'), [
      'EUTM',
      '018123456',
      'https://euipo.europa.eu/eSearch/#details/trademarks/018123456',
      'EUIPO eSearch',
    ]);
    assert.deepEqual(shown('WO500000001234567'), [
      'IR',
      '1234567',
      'https://www3.wipo.int/madrid/monitor/en/showData.jsp?ID=ROM.1234567',
      'WIPO Madrid Monitor',
    ]);
  });

  it('a CIPO record read from ST.96 (CA-1829192) links to the Canadian Trademarks Database', () => {
    assert.deepEqual(shown('CA-1829192'), [
      'CA application',
      '1829192',
      'https://ised-isde.canada.ca/cipo/trademark-search/1829192',
      'Canadian Trademarks Database',
    ]);
  });

  it('an international registration read from ST.96/ST.66 (WO-…) links to Madrid Monitor', () => {
    assert.deepEqual(shown('WO-0987654'), [
      'IR',
      '0987654',
      'https://www3.wipo.int/madrid/monitor/en/showData.jsp?ID=ROM.987654',
      'WIPO Madrid Monitor',
    ]);
  });

  it('any other office: its number as written, without a link rather than a guessed address', () => {
    assert.deepEqual(shown('NZ-1234567'), ['NZ application', '1234567', null, null]);
    assert.deepEqual(shown('AU-2019/123'), ['AU application', '2019/123', null, null]);
    // A CIPO number that is not digits, and EUIPO and USPTO numbers of shapes the keys do not
    // pad: no page is known to take them.
    assert.deepEqual(shown('CA-1234567-01'), ['CA application', '1234567-01', null, null]);
    assert.deepEqual(shown('EM-W01234567'), ['EUTM', 'W01234567', null, null]);
    assert.deepEqual(shown('US-7512345'), ['US serial', '7512345', null, null]);
  });

  it('a key of no known shape gives nothing, not a guess', () => {
    for (const key of ['EM5000000123', 'CA500000123456700', 'sample-1', '', 'ca-1234567', 'CA-']) {
      assert.equal(officeReference(key), null, key);
    }
  });
});
