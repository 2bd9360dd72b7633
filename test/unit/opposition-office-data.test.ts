import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oppositionWindow } from '../../src/domain/opposition.ts';
import { readRecordFile } from '../../src/register/read-records.ts';
import type { RegisterRecord } from '../../src/register/record.ts';
import {
  cipoDesignAsWord,
  collect,
  EUIPO_BULK_NUMBERS,
  euipoBulkFixture,
  onlyRecord,
  records,
} from '../helpers/register-fixtures.ts';

// The offices' opposition rules (src/domain/opposition.ts) held against what the offices did in
// their real files (test/fixtures/euipo-bulk, test/fixtures/cipo; provenance in their
// PROVENANCE.md): the window computed from a record's publication must hold every opposition the
// office received against it, close before the office registered the mark unopposed, and end on
// the day the office itself gives as the end of the period.

const closesAt = (r: RegisterRecord): string => {
  const result = oppositionWindow(r.jurisdiction, r.publishedAt, r.externalId);
  assert.ok(result.window, `${r.externalId}: no window (${JSON.stringify(result)})`);
  return result.window.closesAt;
};

describe('the opposition windows against the offices’ real records', () => {
  it('EUIPO: each opposition filed falls inside the window, each unopposed registration after it', async () => {
    const checked = { oppositions: 0, registrations: 0 };
    for (const number of EUIPO_BULK_NUMBERS) {
      for (const r of records(await collect(readRecordFile(euipoBulkFixture(number))))) {
        if (r.publishedAt === null) continue;
        const published = r.publishedAt.slice(0, 10);
        const closes = closesAt(r);
        const oppositions = (r.rawPayload.oppositions ?? []) as { date: string }[];
        for (const o of oppositions) {
          assert.ok(
            published <= o.date && o.date <= closes,
            `${r.externalId}: opposition of ${o.date} outside ${published}..${closes}`,
          );
          checked.oppositions++;
        }
        if (r.registeredAt !== null && oppositions.length === 0) {
          assert.ok(
            r.registeredAt.slice(0, 10) > closes,
            `${r.externalId}: registered ${r.registeredAt} before the window closed (${closes})`,
          );
          checked.registrations++;
        }
      }
    }
    // 018173409 was opposed (filed 2020-04-16, published 2020-01-20); 018173186 and 018173421
    // were registered on 2020-05-22 (published 2020-01-24 and 2020-02-06).
    assert.deepEqual(checked, { oppositions: 1, registrations: 2 });
  });

  it('EUIPO: the opposition against 018173409 came in the last week of its three months', async () => {
    // A rule of two months would have closed on 2020-03-20, before the opposition was filed.
    const r = onlyRecord(await collect(readRecordFile(euipoBulkFixture('018173409'))));
    assert.equal(r.publishedAt?.slice(0, 10), '2020-01-20');
    assert.equal(closesAt(r), '2020-04-20');
  });

  it("CIPO: two months from the advertisement end on the day the office's own period ends", async () => {
    // DERIVED in memory (cipoDesignAsWord): the period and the advertisement are the office's.
    const r = await cipoDesignAsWord();
    const office = r.rawPayload.oppositionPeriod as { startsAt: string; endsAt: string };
    assert.equal(office.startsAt, r.publishedAt?.slice(0, 10));
    // Computed by the rule alone, without the office's period.
    assert.equal(closesAt(r), office.endsAt);
  });
});
