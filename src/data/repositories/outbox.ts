import type { Queryable } from '../db.ts';

export type OutboxMessage = {
  id: string;
  recipients: string[];
  alertIds: string[];
  subject: string;
  bodyText: string;
  bodyHtml: string;
  attempts: number;
};

export async function insertOutboxMessage(
  tx: Queryable,
  m: {
    id: string;
    ownerId: string;
    scanRunId: string;
    recipients: string[];
    alertIds: string[];
    subject: string;
    text: string;
    html: string;
  },
) {
  await tx.query(
    `INSERT INTO email_outbox (id, owner_id, scan_run_id, recipients, alert_ids, subject, body_text, body_html)
     VALUES ($1, $2, $3, $4::text[], $5::text[], $6, $7, $8)`,
    [m.id, m.ownerId, m.scanRunId, m.recipients, m.alertIds, m.subject, m.text, m.html],
  );
}

/**
 * Claims up to `limit` due messages for one sender. The claim expires, so a sender that dies
 * mid-send does not keep its messages from being retried; SKIP LOCKED lets senders share the work.
 */
export async function claimDueMessages(
  db: Queryable,
  limit: number,
  claimSeconds: number,
): Promise<OutboxMessage[]> {
  return db.query<OutboxMessage>(
    `UPDATE email_outbox SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM email_outbox
         WHERE sent_at IS NULL AND next_attempt_at <= now()
           AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY next_attempt_at
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
      RETURNING id, recipients, alert_ids AS "alertIds", subject, body_text AS "bodyText",
                body_html AS "bodyHtml", attempts`,
    [limit, claimSeconds],
  );
}

/** The server accepted the message: only now do its alerts get emailedAt. */
export async function markSent(tx: Queryable, id: string, alertIds: string[]) {
  await tx.query(
    'UPDATE email_outbox SET sent_at = now_ms(), claimed_until = NULL, last_error = NULL WHERE id = $1',
    [id],
  );
  await tx.query(
    'UPDATE alerts SET emailed_at = now_ms() WHERE id = ANY($1::text[]) AND emailed_at IS NULL',
    [alertIds],
  );
}

export async function markFailed(db: Queryable, id: string, error: string, retryInSeconds: number) {
  await db.query(
    `UPDATE email_outbox
        SET claimed_until = NULL, last_error = $2,
            next_attempt_at = now_ms() + make_interval(secs => $3)
      WHERE id = $1`,
    [id, error.slice(0, 1000), retryInSeconds],
  );
}
