import type { Queryable } from '../../data/db.ts';
import {
  insertHitsWithAlerts,
  type NewAlert,
  type NewHit,
} from '../../data/repositories/alerts.ts';
import type { CandidateRecord } from '../../data/repositories/mirror-candidates.ts';
import { insertOutboxMessage } from '../../data/repositories/outbox.ts';
import type { OwnerMailing } from '../../data/repositories/scans.ts';
import {
  type AlertEmail,
  type AlertLine,
  composeAlertEmail,
  composeExistingMarksEmail,
} from '../../email/compose.ts';
import type { Decision, PreparedWatch } from '../../matching/decide.ts';
import type { WordStats } from '../../matching/word-weights.ts';
import { newId } from '../ids.ts';
import { oppositionStatus } from '../opposition.ts';
import { PLANS, type Tier } from '../plans.ts';
import { type Assessment, assessAlert } from './assessment.ts';
import { enqueueAlertEvents } from './events.ts';
import { alertOrigin } from './origin.ts';
import type { AlertOrigin } from './types.ts';

// How an alert comes into being: a scan finds conflicts (scan/), and this module turns them into
// hits and alerts with their severity and rationale, the owner's alert e-mail and the alerts'
// `alert.created` webhook events, all written in the scan's transaction.

/** A conflict a scan found: the register record, the decision, and the hit its source makes of it. */
export type Finding = {
  record: CandidateRecord;
  decision: Decision;
  hit: Omit<NewHit, 'id' | 'watchId' | 'opposition'>;
};

type PendingAlert = { row: NewHit & NewAlert & { origin: AlertOrigin }; line: AlertLine };

/** The watch whose alerts are raised; `lookingSince`: the day it started looking (origin.ts). */
export type RaisingWatch = { id: string; ownerId: string; name: string; lookingSince: string };

/** An e-mail of the scan run and the alerts it tells the owner of. */
type DraftedMail = { email: AlertEmail; alertIds: string[] };

/** What alertsToRaise prepared: the rows to write and the e-mails, drafted for every alert. */
export type AlertsToRaise = {
  watch: RaisingWatch;
  alerts: PendingAlert[];
  /** Who the owner's alert e-mail goes to; null when the plan sends none. */
  mailing: OwnerMailing | null;
  drafts: DraftedMail[] | null;
  publicUrl: string;
};

/**
 * Who gets the alert e-mail of an owner: no one when the owner's plan sends none (Free) or the
 * owner has no address (an organization without members).
 */
function mailingOf(mailing: OwnerMailing | undefined): OwnerMailing | null {
  if (!mailing || !PLANS[mailing.tier as Tier]?.alertEmail || mailing.recipients.length === 0) {
    return null;
  }
  return mailing;
}

/** One alert as its e-mail lists it. */
function alertLine(
  alertId: string,
  record: CandidateRecord,
  assessment: Assessment,
  now: Date,
): AlertLine {
  return {
    alertId,
    markText: record.markText,
    ownerName: record.ownerName,
    ownerCountryCode: record.ownerCountryCode,
    status: record.status,
    live: record.live,
    classes: record.classes,
    jurisdiction: record.jurisdiction,
    filedAt: record.filedAt,
    externalId: record.externalId,
    publishedAt: record.publishedAt,
    severity: assessment.severity,
    rationalePlain: assessment.rationalePlain,
    rationaleHtml: assessment.rationaleHtml,
    opposition: oppositionStatus(assessment.opposition, now),
  };
}

/**
 * The e-mails of one watch's scan run, with the alerts each covers: the new filings, each listed
 * in the order they were found; the existing marks (the register as it stood when the watch
 * started looking: mostly the first scan's) in one summary linking to their list, since a
 * "newly filed" e-mail per mark of a register's past buries the new filings under it.
 */
function composeMails(
  to: { watch: RaisingWatch; publicUrl: string },
  alerts: readonly PendingAlert[],
): DraftedMail[] {
  const newFilings = alerts.filter((a) => a.row.origin === 'new_filing');
  const existing = alerts.filter((a) => a.row.origin === 'existing_mark');
  const mails: DraftedMail[] = [];
  if (newFilings.length > 0) {
    mails.push({
      email: composeAlertEmail(
        to.watch.name,
        newFilings.map((a) => a.line),
        to.publicUrl,
      ),
      alertIds: newFilings.map((a) => a.line.alertId),
    });
  }
  if (existing.length > 0) {
    mails.push({
      email: composeExistingMarksEmail(
        { id: to.watch.id, name: to.watch.name },
        existing.map((a) => a.line),
        to.publicUrl,
      ),
      alertIds: existing.map((a) => a.line.alertId),
    });
  }
  return mails;
}

/**
 * Assesses a scan's findings (severity, rationale, opposition window) and drafts the alert e-mail,
 * before the scan's transaction: pure, no I/O. `stats`: the register's counts of the brand's and
 * the records' words; `mailing`: the owner's, as the scan read it; `now`: when the e-mail's
 * opposition deadlines are counted from.
 */
export function alertsToRaise(input: {
  watch: RaisingWatch;
  prepared: PreparedWatch;
  stats: WordStats;
  findings: readonly Finding[];
  mailing: OwnerMailing | undefined;
  publicUrl: string;
  now: Date;
}): AlertsToRaise {
  const alerts = input.findings.map(({ hit, record, decision }) => {
    const assessment = assessAlert(input.prepared, record, decision, input.stats, input.now);
    const row = {
      ...hit,
      opposition: assessment.opposition,
      id: newId('hit'),
      watchId: input.watch.id,
      alertId: newId('alt'),
      severity: assessment.severity,
      rationale: assessment.rationale,
      origin: alertOrigin(record, input.watch.lookingSince),
    };
    return { row, line: alertLine(row.alertId, record, assessment, input.now) };
  });
  const mailing = alerts.length === 0 ? null : mailingOf(input.mailing);
  return {
    watch: input.watch,
    alerts,
    mailing,
    // Written before the transaction, for every alert found: inside it, only when some of them
    // turn out to be recorded already (a full scan again after the watch changed).
    drafts: mailing === null ? null : composeMails(input, alerts),
    publicUrl: input.publicUrl,
  };
}

/** The scan's part of the transaction that raises its alerts. */
export type ScanCommit = {
  /** The scan run the e-mail belongs to. */
  runId: string;
  /**
   * Sent first, with the hits: whether the scan may still commit (its lease, whose check locks the
   * watch row before the hits are written). False: nothing more is written, the caller rolls back.
   */
  mayCommit: () => Promise<boolean>;
  /**
   * The scan's own rows, given the number of new alerts: sent first in the round trip of the
   * e-mail and the events (its run, which the e-mail refers to, and the watch's bookkeeping).
   */
  record: (alertsCreated: number) => Promise<unknown>[];
};

/**
 * Raises the alerts, in the scan's transaction `tx`: the hits and their alerts (a hit the watch
 * already has for a record is skipped with its alert), then the owner's e-mails of the new alerts
 * (the new filings listed, the existing marks in one summary) and their `alert.created` webhook
 * events. Returns how many alerts are new; null when the scan may not commit.
 */
export async function raiseAlerts(
  tx: Queryable,
  toRaise: AlertsToRaise,
  scan: ScanCommit,
): Promise<number | null> {
  const [mayCommit, inserted] = await Promise.all([
    scan.mayCommit(),
    insertHitsWithAlerts(
      tx,
      toRaise.alerts.map((a) => a.row),
    ),
  ]);
  if (!mayCommit) return null;
  const recorded = new Map(inserted.map((r) => [r.hitId, r.alertId]));
  // In the order the candidates were found (the e-mail lists them so).
  const created = toRaise.alerts.flatMap((a) => {
    const alertId = recorded.get(a.row.id);
    return alertId === undefined ? [] : [{ ...a, line: { ...a.line, alertId } }];
  });
  const { mailing } = toRaise;
  const mails =
    mailing === null || created.length === 0
      ? []
      : created.length === toRaise.alerts.length
        ? (toRaise.drafts ?? [])
        : composeMails(toRaise, created);
  const alertIds = created.map((a) => a.line.alertId);
  await Promise.all([
    ...scan.record(created.length),
    ...mails.map(({ email, alertIds: covered }) =>
      mailing === null
        ? null
        : insertOutboxMessage(tx, {
            id: newId('eml'),
            ownerId: toRaise.watch.ownerId,
            scanRunId: scan.runId,
            recipients: mailing.recipients,
            alertIds: covered,
            subject: email.subject,
            text: email.text,
            html: email.html,
          }),
    ),
    enqueueAlertEvents(tx, 'alert.created', toRaise.watch.ownerId, alertIds),
  ]);
  return created.length;
}
