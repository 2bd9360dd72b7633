import type { Queryable } from '../../data/db.ts';
import {
  insertHitsWithAlerts,
  type NewAlert,
  type NewHit,
} from '../../data/repositories/alerts.ts';
import type { CandidateRecord } from '../../data/repositories/mirror-candidates.ts';
import { insertOutboxMessage } from '../../data/repositories/outbox.ts';
import type { OwnerMailing } from '../../data/repositories/scans.ts';
import { type AlertEmail, type AlertLine, composeAlertEmail } from '../../email/compose.ts';
import type { Decision, PreparedWatch } from '../../matching/decide.ts';
import type { WordStats } from '../../matching/word-weights.ts';
import { newId } from '../ids.ts';
import { oppositionStatus } from '../opposition.ts';
import { PLANS, type Tier } from '../plans.ts';
import { type Assessment, assessAlert } from './assessment.ts';
import { enqueueAlertEvents } from './events.ts';

// How an alert comes into being: a scan finds conflicts (scan/), and this module turns them into
// hits and alerts with their severity and rationale, the owner's alert e-mail and the alerts'
// `alert.created` webhook events, all written in the scan's transaction.

/** A conflict a scan found: the register record, the decision, and the hit its source makes of it. */
export type Finding = {
  record: CandidateRecord;
  decision: Decision;
  hit: Omit<NewHit, 'id' | 'watchId' | 'opposition'>;
};

type PendingAlert = { row: NewHit & NewAlert; line: AlertLine };

/** What alertsToRaise prepared: the rows to write and the e-mail, drafted for every alert. */
export type AlertsToRaise = {
  watch: { id: string; ownerId: string; name: string };
  alerts: PendingAlert[];
  /** Who the owner's alert e-mail goes to; null when the plan sends none. */
  mailing: OwnerMailing | null;
  draft: AlertEmail | null;
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

/** One e-mail per owner per scan run: the alerts in the order they were found. */
function composeMail(
  to: { watch: { name: string }; publicUrl: string },
  alerts: readonly PendingAlert[],
): AlertEmail {
  return composeAlertEmail(
    to.watch.name,
    alerts.map((a) => a.line),
    to.publicUrl,
  );
}

/**
 * Assesses a scan's findings (severity, rationale, opposition window) and drafts the alert e-mail,
 * before the scan's transaction: pure, no I/O. `stats`: the register's counts of the brand's and
 * the records' words; `mailing`: the owner's, as the scan read it; `now`: when the e-mail's
 * opposition deadlines are counted from.
 */
export function alertsToRaise(input: {
  watch: { id: string; ownerId: string; name: string };
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
    draft: mailing === null ? null : composeMail(input, alerts),
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
 * already has for a record is skipped with its alert), then the owner's e-mail listing the new
 * alerts and their `alert.created` webhook events. Returns how many alerts are new; null when the
 * scan may not commit.
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
  const email =
    toRaise.mailing === null || created.length === 0
      ? null
      : created.length === toRaise.alerts.length
        ? toRaise.draft
        : composeMail(toRaise, created);
  const alertIds = created.map((a) => a.line.alertId);
  await Promise.all([
    ...scan.record(created.length),
    toRaise.mailing !== null && email !== null
      ? insertOutboxMessage(tx, {
          id: newId('eml'),
          ownerId: toRaise.watch.ownerId,
          scanRunId: scan.runId,
          recipients: toRaise.mailing.recipients,
          alertIds,
          subject: email.subject,
          text: email.text,
          html: email.html,
        })
      : null,
    enqueueAlertEvents(tx, 'alert.created', toRaise.watch.ownerId, alertIds),
  ]);
  return created.length;
}
