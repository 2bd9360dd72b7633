import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addPeriod,
  daysUntilClose,
  OPPOSITION_RULES,
  oppositionStatus,
  oppositionWindow,
} from '../../src/domain/opposition.ts';

describe('opposition windows, office by office', () => {
  const cases: [string, string, string, string | null][] = [
    // office, published, closes, extendable until
    ['US', '2024-02-20', '2024-03-21', '2024-08-18'], // 30 days; at most 180 days
    ['EM', '2024-01-31', '2024-04-30', null], // 3 months, the shorter month's last day
    ['GB', '2024-03-15', '2024-05-15', '2024-06-15'], // 2 months, to 3 months with TM7A
    ['CA', '2024-12-31', '2025-02-28', null], // 2 months
    ['AU', '2024-07-01', '2024-09-01', null], // 2 months
    ['CN', '2024-11-30', '2025-02-28', null], // 3 months
    ['DE', '2024-05-10', '2024-08-10', null], // 3 months from the registration's publication
  ];
  for (const [office, published, closes, extendable] of cases) {
    it(`${office}: published ${published} closes ${closes}`, () => {
      const result = oppositionWindow(office, `${published}T00:00:00.000Z`);
      assert.ok(result.window);
      assert.equal(result.window.closesAt, closes);
      assert.equal(result.window.extendableUntil, extendable);
      assert.equal(result.window.office, OPPOSITION_RULES[office]?.office);
      assert.match(result.window.rule, /\w.*(§|Art\.|s\.|TM7A|Part)/, 'names its source');
    });
  }

  it('a USPTO Madrid application (serial 79…) has the same window, extended only through ESTTA', () => {
    const madrid = oppositionWindow('US', '2024-02-20', 'US500000079232184');
    const national = oppositionWindow('US', '2024-02-20', 'US500000090123456');
    assert.equal(madrid.window?.closesAt, national.window?.closesAt);
    assert.equal(madrid.window?.extendableUntil, '2024-08-18');
    assert.match(madrid.window?.rule ?? '', /§66\(a\).*ESTTA/);
    assert.doesNotMatch(national.window?.rule ?? '', /ESTTA/);
  });

  it('WIPO has no opposition of its own; an unknown office and a missing date give none', () => {
    assert.deepEqual(oppositionWindow('WO', '2024-01-01'), {
      window: null,
      reason: 'no_opposition_at_office',
    });
    assert.deepEqual(oppositionWindow('JP', '2024-01-01'), {
      window: null,
      reason: 'unknown_office',
    });
    assert.deepEqual(oppositionWindow('US', null), { window: null, reason: 'no_publication_date' });
  });

  it('adds months on the calendar (leap years, month ends) and days across years', () => {
    assert.equal(addPeriod('2024-11-30', { months: 3 }), '2025-02-28');
    assert.equal(addPeriod('2023-11-30', { months: 3 }), '2024-02-29');
    assert.equal(addPeriod('2024-12-15', { days: 30 }), '2025-01-14');
  });

  it('counts the days left until the end of the closing day', () => {
    const window = { office: 'EUIPO', closesAt: '2026-12-07', extendableUntil: null, rule: '' };
    const at = (iso: string) => new Date(iso);
    assert.equal(daysUntilClose('2026-12-07', at('2026-11-25T10:00:00Z')), 12);
    assert.equal(
      oppositionStatus(window, at('2026-11-25T10:00:00Z')),
      'closes in 12 days (2026-12-07)',
    );
    assert.equal(
      oppositionStatus(window, at('2026-12-06T23:00:00Z')),
      'closes in 1 day (2026-12-07)',
    );
    assert.equal(oppositionStatus(window, at('2026-12-07T23:00:00Z')), 'closes today (2026-12-07)');
    assert.equal(
      oppositionStatus(window, at('2026-12-08T00:00:00Z')),
      'closed on 2026-12-07; cancellation remains possible',
    );
    assert.equal(
      oppositionStatus(null, at('2026-12-08T00:00:00Z')),
      'not known (see the rationale)',
    );
  });
});
