import type { Queryable } from '../db.ts';

/** One file a feed has listed and tried to load (table register_files). */
export type RegisterFileRecord = {
  feed: string;
  name: string;
  url: string;
  status: 'loading' | 'loaded' | 'failed';
  fileDate: string;
  bytes: number | null;
  sha256: string | null;
  imported: number | null;
  updated: number | null;
  skipped: number | null;
  errors: number | null;
  reason: string | null;
  attempts: number;
  firstSeenAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

const SELECT = `SELECT feed, name, url, status, to_char(file_date, 'YYYY-MM-DD') AS "fileDate",
       bytes, sha256, imported, updated, skipped, errors, reason, attempts,
       first_seen_at AS "firstSeenAt", started_at AS "startedAt", finished_at AS "finishedAt"
  FROM register_files`;

type RawRow = Omit<RegisterFileRecord, 'firstSeenAt' | 'startedAt' | 'finishedAt'> & {
  firstSeenAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function toRow(raw: RawRow): RegisterFileRecord {
  return {
    ...raw,
    firstSeenAt: raw.firstSeenAt.toISOString(),
    startedAt: iso(raw.startedAt),
    finishedAt: iso(raw.finishedAt),
  };
}

/** Every file of one feed (or of all feeds), oldest file date first. */
export async function listRegisterFiles(
  db: Queryable,
  feed?: string,
): Promise<RegisterFileRecord[]> {
  const rows =
    feed === undefined
      ? await db.query<RawRow>(`${SELECT} ORDER BY feed, file_date, name`)
      : await db.query<RawRow>(`${SELECT} WHERE feed = $1 ORDER BY file_date, name`, [feed]);
  return rows.map(toRow);
}

/** A load begins: the file is recorded (or its earlier failed attempt reset) as `loading`. */
export async function startRegisterFile(
  db: Queryable,
  file: { feed: string; name: string; url: string; fileDate: string },
): Promise<void> {
  await db.query(
    `INSERT INTO register_files (feed, name, url, status, file_date, attempts, started_at)
     VALUES ($1, $2, $3, 'loading', $4, 1, now())
     ON CONFLICT (feed, name) DO UPDATE
        SET url = excluded.url, status = 'loading', attempts = register_files.attempts + 1,
            started_at = now(), finished_at = NULL, reason = NULL, bytes = NULL, sha256 = NULL,
            imported = NULL, updated = NULL, skipped = NULL, errors = NULL`,
    [file.feed, file.name, file.url, file.fileDate],
  );
}

/** How a load ended: the fields of the row it sets. */
export type RegisterFileOutcome = Pick<
  RegisterFileRecord,
  'bytes' | 'sha256' | 'imported' | 'updated' | 'skipped' | 'errors' | 'reason'
> & { status: 'loaded' | 'failed' };

export async function finishRegisterFile(
  db: Queryable,
  feed: string,
  name: string,
  outcome: RegisterFileOutcome,
): Promise<void> {
  await db.query(
    `UPDATE register_files
        SET status = $3, bytes = $4, sha256 = $5, imported = $6, updated = $7, skipped = $8,
            errors = $9, reason = $10, finished_at = now()
      WHERE feed = $1 AND name = $2`,
    [
      feed,
      name,
      outcome.status,
      outcome.bytes,
      outcome.sha256,
      outcome.imported,
      outcome.updated,
      outcome.skipped,
      outcome.errors,
      outcome.reason,
    ],
  );
}

/**
 * Takes the feed's lease for `holder` unless another holder's lease is still running (the holder's
 * own is extended). True when taken: the caller may sync the feed until the lease expires (renew it
 * while working).
 */
export async function claimFeedLease(
  db: Queryable,
  feed: string,
  holder: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO register_feeds (feed, lease_owner, lease_expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (feed) DO UPDATE
        SET lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at
      WHERE register_feeds.lease_owner IS NULL OR register_feeds.lease_expires_at < now()
         OR register_feeds.lease_owner = excluded.lease_owner
     RETURNING feed`,
    [feed, holder, seconds],
  );
  return rows.length === 1;
}

/** Extends the holder's lease; false if it is no longer the holder's. */
export async function renewFeedLease(
  db: Queryable,
  feed: string,
  holder: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE register_feeds SET lease_expires_at = now() + make_interval(secs => $3)
      WHERE feed = $1 AND lease_owner = $2 RETURNING feed`,
    [feed, holder, seconds],
  );
  return rows.length === 1;
}

export async function releaseFeedLease(db: Queryable, feed: string, holder: string) {
  await db.query(
    `UPDATE register_feeds SET lease_owner = NULL, lease_expires_at = NULL
      WHERE feed = $1 AND lease_owner = $2`,
    [feed, holder],
  );
}

/** One attempt at a feed's scheduled sync of a day, as claimScheduledSync handed it out. */
export type ScheduledAttempt = { feed: string; day: string; attempt: number; holder: string };

/**
 * Claims the next attempt at the scheduled sync of `day` (UTC, YYYY-MM-DD) for the feed, with the
 * feed's lease for `holder`, in one statement: the first attempt of a day not claimed yet, or a
 * further one once the day's retry is due (scheduled_retry_at, on the caller's clock `now`) and
 * fewer than `maxAttempts` were made; and only while no other holder's lease runs. Null for every
 * other caller, however many processes ask at once.
 */
export async function claimScheduledSync(
  db: Queryable,
  claim: {
    feed: string;
    day: string;
    now: Date;
    holder: string;
    leaseSeconds: number;
    maxAttempts: number;
  },
): Promise<ScheduledAttempt | null> {
  await db.query('INSERT INTO register_feeds (feed) VALUES ($1) ON CONFLICT (feed) DO NOTHING', [
    claim.feed,
  ]);
  const rows = await db.query<{ attempt: number }>(
    `UPDATE register_feeds
        SET scheduled_attempts = CASE WHEN last_scheduled_on = $2::date
                                      THEN scheduled_attempts + 1 ELSE 1 END,
            last_scheduled_on = $2::date,
            scheduled_retry_at = $3::timestamptz + make_interval(secs => $5),
            lease_owner = $4, lease_expires_at = now() + make_interval(secs => $5)
      WHERE feed = $1
        AND (lease_owner IS NULL OR lease_expires_at < now())
        AND (last_scheduled_on IS NULL OR last_scheduled_on < $2::date
             OR (last_scheduled_on = $2::date AND scheduled_retry_at <= $3::timestamptz
                 AND scheduled_attempts < $6))
     RETURNING scheduled_attempts AS attempt`,
    [claim.feed, claim.day, claim.now, claim.holder, claim.leaseSeconds, claim.maxAttempts],
  );
  const row = rows[0];
  return row
    ? { feed: claim.feed, day: claim.day, attempt: row.attempt, holder: claim.holder }
    : null;
}

/**
 * How an attempt ended: `done` (the day needs nothing more), `retry` at the given time (it failed),
 * or `interrupted` (the process is stopping: the attempt is not counted and the day is due again
 * at once, for another process or this one when it restarts).
 */
export type ScheduledOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; at: Date }
  | { kind: 'interrupted'; now: Date };

/** Records the end of `attempt`, unless a later attempt (or day) has been claimed since. */
export async function finishScheduledSync(
  db: Queryable,
  attempt: ScheduledAttempt,
  outcome: ScheduledOutcome,
): Promise<void> {
  const retryAt =
    outcome.kind === 'retry' ? outcome.at : outcome.kind === 'interrupted' ? outcome.now : null;
  await db.query(
    `UPDATE register_feeds
        SET scheduled_retry_at = $4::timestamptz, scheduled_attempts = scheduled_attempts - $5
      WHERE feed = $1 AND last_scheduled_on = $2::date AND scheduled_attempts = $3`,
    [attempt.feed, attempt.day, attempt.attempt, retryAt, outcome.kind === 'interrupted' ? 1 : 0],
  );
}
