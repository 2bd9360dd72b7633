// The opposition window of a published trade mark application: until when third parties may
// oppose it at its office. One table of office rules, each with its legal source; pure functions.
//
// Dates are calendar dates: the last day on which a notice of opposition (or a request to extend
// the period) can be filed. Offices usually move a period that ends on a day they are closed to
// the next working day; closures are not modelled, so a date here may be a day early in that case.
// A period of months ends on the same day of the month as the publication, or on the month's last
// day when that month is shorter.

export type OppositionWindow = {
  /** The office that decides oppositions against this record. */
  office: string;
  /** Last day of the opposition period, YYYY-MM-DD. */
  closesAt: string;
  /** Last day to which the period can be extended on request, YYYY-MM-DD; null when it cannot be, or when the office sets no fixed limit. */
  extendableUntil: string | null;
  /** The rule in one sentence, with its source. */
  rule: string;
};

type Period = { days: number } | { months: number };

type OfficeRule = {
  office: string;
  period: Period;
  /** The furthest extension, counted from publication; null: none, or no fixed limit. */
  extendable: Period | null;
  rule: string;
  /**
   * The first publication day (YYYY-MM-DD) the rule applies to: the day it came into force, with
   * its source. A publication before it was under an earlier rule, which is not applied in its
   * place: the window is null and the rationale says why (docs/matching.md).
   */
  inForceFrom: string;
  inForceSource: string;
};

/**
 * The offices whose rule is known, by ST.3 code of the record's jurisdiction. Another rule must
 * not be added without its primary source in the `rule` text.
 */
export const OPPOSITION_RULES: Readonly<Record<string, OfficeRule>> = {
  US: {
    office: 'USPTO',
    period: { days: 30 },
    extendable: { days: 180 },
    rule: 'USPTO: 30 days from publication in the Official Gazette; extensions on request (30 days without cause, 90 days for good cause, then 60 more) never beyond 180 days from publication (15 U.S.C. §1063(a); 37 CFR §2.102(c); TBMP §202–§211).',
    inForceFrom: '2003-11-02',
    inForceSource:
      'the extension limits of 37 CFR §2.102(c) as amended by the Madrid Protocol rules, 68 Fed. Reg. 55748, effective 2003-11-02',
  },
  EM: {
    office: 'EUIPO',
    period: { months: 3 },
    extendable: null,
    rule: 'EUIPO: 3 months from publication of the application, not extendable (EUTMR, Regulation (EU) 2017/1001, Art. 46(1)).',
    inForceFrom: '1996-01-01',
    inForceSource:
      'the same 3 months since the first Community trade mark applications (Regulation (EC) No 40/94, Art. 42(1), applications from 1996-01-01; then Regulation (EC) No 207/2009, Art. 41(1))',
  },
  GB: {
    office: 'UKIPO',
    period: { months: 2 },
    extendable: { months: 3 },
    rule: 'UKIPO: 2 months from publication, extendable to 3 months by filing form TM7A (notice of threatened opposition) within the first 2 months.',
    inForceFrom: '2008-10-01',
    inForceSource:
      'the Trade Marks Rules 2008 (SI 2008/1797), r.17, in force 2008-10-01, which replaced the earlier 3-month period with 2 months and form TM7A',
  },
  CA: {
    office: 'CIPO',
    period: { months: 2 },
    extendable: null,
    rule: 'CIPO: 2 months from advertisement; extensions may be granted on request, with no fixed limit for national applications (Madrid applications: at most 4 months in all) (Trademarks Act s.38(1); Trademarks Regulations s.125).',
    inForceFrom: '1988-12-12',
    inForceSource:
      'the Trade-marks Act, R.S.C. 1985, c. T-13, s.38(1), in force 1988-12-12, whose 2 months from advertisement the present s.38(1) keeps',
  },
  AU: {
    office: 'IP Australia',
    period: { months: 2 },
    extendable: null,
    rule: 'IP Australia: 2 months from advertisement of acceptance; an extension is possible only in limited circumstances (Trade Marks Act 1995 s.52; Trade Marks Regulations 1995 Part 5).',
    inForceFrom: '2013-04-15',
    inForceSource:
      'the Intellectual Property Laws Amendment (Raising the Bar) Act 2012 and the amended Trade Marks Regulations 1995, in force 2013-04-15, which shortened the period from 3 months to 2',
  },
  CN: {
    office: 'CNIPA',
    period: { months: 3 },
    extendable: null,
    rule: 'CNIPA: 3 months from publication of the preliminary approval, not extendable (PRC Trademark Law Art. 33).',
    inForceFrom: '2014-05-01',
    inForceSource: 'the PRC Trademark Law as amended in 2013, Art. 33, in force 2014-05-01',
  },
  DE: {
    office: 'DPMA',
    period: { months: 3 },
    extendable: null,
    rule: 'DPMA: 3 months from publication of the registration (opposition follows registration), not extendable (MarkenG §42(1)).',
    inForceFrom: '1995-01-01',
    inForceSource: 'the Markengesetz of 1994-10-25, §42(1), in force 1995-01-01',
  },
};

/**
 * A USPTO serial number of the 79 series is a Madrid Protocol application (§66(a)): the same
 * periods and limits, but extensions are requested only through ESTTA (TBMP §211.04). The mirror's
 * key is ST.13: US, 50, four digits, then the serial padded to 9 digits.
 */
const US_MADRID_SERIAL = /^US50\d{4}079\d{6}$/;
const US_MADRID_RULE =
  'USPTO, Madrid Protocol application (§66(a), serial 79…): 30 days from publication in the Official Gazette; extensions on the same terms, never beyond 180 days from publication, requested only through ESTTA (15 U.S.C. §1063(a); 37 CFR §2.102(c); TBMP §211.04).';

/** An opposition period the office itself gives for one record (CIPO), `YYYY-MM-DD`. */
export type OfficePeriod = { startsAt: string; endsAt: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The office's own opposition period, where a record's raw payload carries one
 * (`rawPayload.oppositionPeriod`, written by the CIPO reader from `OppositionPeriodStartDate` and
 * `OppositionPeriodEndDate`); null otherwise.
 */
export function officeOppositionPeriod(
  rawPayload: Readonly<Record<string, unknown>> | undefined,
): OfficePeriod | null {
  const period = rawPayload?.oppositionPeriod as Partial<OfficePeriod> | null | undefined;
  if (typeof period?.startsAt !== 'string' || typeof period.endsAt !== 'string') return null;
  return DAY.test(period.startsAt) && DAY.test(period.endsAt)
    ? { startsAt: period.startsAt, endsAt: period.endsAt }
    : null;
}

/** Why a record has no opposition window. */
export type NoOppositionReason =
  | 'no_publication_date'
  /** Published before the office's rule held here came into force (OfficeRule.inForceFrom). */
  | 'before_rule_in_force'
  | 'no_opposition_at_office'
  | 'unknown_office';

export type OppositionResult =
  | { window: OppositionWindow }
  | { window: null; reason: NoOppositionReason };

/** `2024-01-31` + 1 month → `2024-02-29`; + 30 days → `2024-03-01`. UTC calendar arithmetic. */
export function addPeriod(date: string, period: Period): string {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  if ('days' in period) {
    return new Date(Date.UTC(y, m - 1, d + period.days)).toISOString().slice(0, 10);
  }
  const month = m - 1 + period.months;
  const last = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, month, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * The opposition window of a record of `jurisdiction` published at `publishedAt` (ISO date or
 * date-time, or null), with its mirror key `externalId` where the office's rule depends on the kind of
 * application. WIPO itself has no opposition: each office a Madrid registration designates applies
 * its own period from its own publication, which the international record does not give (so the
 * EUIPO's period for an international registration, which runs from its republication, is not
 * computed either). Where the office gives the record's period itself (`given`: CIPO), that
 * period is the window, as the office wrote it.
 */
export function oppositionWindow(
  jurisdiction: string,
  publishedAt: string | null,
  externalId?: string,
  given?: OfficePeriod | null,
): OppositionResult {
  const office = jurisdiction.toUpperCase();
  if (office === 'WO') return { window: null, reason: 'no_opposition_at_office' };
  const rule = OPPOSITION_RULES[office];
  if (given && rule !== undefined) {
    return {
      window: {
        office: rule.office,
        closesAt: given.endsAt,
        extendableUntil: null,
        rule: `${rule.office}: the opposition period the office gives for this record, ${given.startsAt} to ${given.endsAt}. ${rule.rule}`,
      },
    };
  }
  if (rule === undefined) return { window: null, reason: 'unknown_office' };
  if (publishedAt === null) return { window: null, reason: 'no_publication_date' };
  // Dates are YYYY-MM-DD first, so text order is date order.
  if (publishedAt.slice(0, 10) < rule.inForceFrom) {
    return { window: null, reason: 'before_rule_in_force' };
  }
  return {
    window: {
      office: rule.office,
      closesAt: addPeriod(publishedAt, rule.period),
      extendableUntil: rule.extendable === null ? null : addPeriod(publishedAt, rule.extendable),
      rule:
        office === 'US' && externalId !== undefined && US_MADRID_SERIAL.test(externalId)
          ? US_MADRID_RULE
          : rule.rule,
    },
  };
}

/** Whole days from `now` until the end of the day `closesAt` (UTC); negative once it has passed. */
export function daysUntilClose(closesAt: string, now: Date): number {
  const end = Date.parse(`${closesAt}T23:59:59.999Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return end < now.getTime() ? -1 : Math.floor((end - today) / 86_400_000);
}

/**
 * The window as of `now`, in the same words in the e-mail and the dashboard: an open one as the
 * action it still is ("closes in 12 days (2026-12-07)", "closes today (…)"), a closed one as past,
 * never as an action ("closed on …; cancellation remains possible": once the period has run, the
 * way against a mark is a cancellation, not an opposition), or why it is not known.
 */
export function oppositionStatus(opposition: OppositionWindow | null, now: Date): string {
  if (opposition === null) return 'not known (see the rationale)';
  const days = daysUntilClose(opposition.closesAt, now);
  if (days < 0) return `closed on ${opposition.closesAt}; cancellation remains possible`;
  const until =
    opposition.extendableUntil === null
      ? ''
      : `; extendable on request to ${opposition.extendableUntil}`;
  if (days === 0) return `closes today (${opposition.closesAt})${until}`;
  return `closes in ${days} day${days === 1 ? '' : 's'} (${opposition.closesAt})${until}`;
}

/** Whether the window is still open on `now`'s day (the last day to file included). */
export function oppositionOpen(opposition: OppositionWindow | null, now: Date): boolean {
  return opposition !== null && daysUntilClose(opposition.closesAt, now) >= 0;
}

/** The rule an office's window is computed with, for a record published before it (the rationale). */
export function ruleInForce(
  jurisdiction: string,
): { office: string; from: string; source: string } | null {
  const rule = OPPOSITION_RULES[jurisdiction.toUpperCase()];
  return rule === undefined
    ? null
    : { office: rule.office, from: rule.inForceFrom, source: rule.inForceSource };
}
