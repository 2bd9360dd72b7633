import type { Queryable } from '../db.ts';
import type { PrincipalAccount } from './accounts.ts';

/** A live session with everything a dashboard request needs to know about its user. */
export type SessionRecord = PrincipalAccount & {
  sessionId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
};

export async function insertSession(
  db: Queryable,
  s: { id: string; tokenHash: string; userId: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $4, $5)`,
    [s.id, s.tokenHash, s.userId, s.now, s.expiresAt],
  );
}

/** The session of a token hash, whatever its age: the caller decides what has expired. */
export async function findSession(db: Queryable, tokenHash: string): Promise<SessionRecord | null> {
  const rows = await db.query<SessionRecord>(
    `SELECT s.id AS "sessionId", s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt",
            s.expires_at AS "expiresAt", u.id AS "userId", u.email,
            u.organization_id AS "organizationId", o.name AS "organizationName",
            coalesce(o.tier, u.tier) AS tier
       FROM dashboard_sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN organizations o ON o.id = u.organization_id
      WHERE s.token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Removes sessions past their absolute expiry or idle for longer than allowed. */
export async function deleteExpiredSessions(
  db: Queryable,
  now: Date,
  idleSince: Date,
): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [
    now,
    idleSince,
  ]);
}

/** Records one failure per bucket and returns the new rows' ids (to withdraw them later). */
export async function insertSignInFailures(
  db: Queryable,
  buckets: string[],
  at: Date,
): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO sign_in_failures (bucket, failed_at)
     SELECT bucket, $2 FROM unnest($1::text[]) AS bucket
     RETURNING id`,
    [buckets, at],
  );
  return rows.map((row) => row.id);
}

export type BucketFailures = {
  bucket: string;
  count: number;
  oldest: Date | null;
  newest: Date | null;
};

/** Failures of each bucket since `since`, with the oldest of them (it decides the retry time). */
export async function countSignInFailures(
  db: Queryable,
  buckets: string[],
  since: Date,
  /** Failures left out of `newest` (the attempt being made, already recorded). */
  notNewest: number[] = [],
): Promise<BucketFailures[]> {
  return db.query<BucketFailures>(
    `SELECT b.bucket, count(f.id)::int AS count, min(f.failed_at) AS oldest,
            max(f.failed_at) FILTER (WHERE f.id <> ALL($3::bigint[])) AS newest
       FROM unnest($1::text[]) AS b (bucket)
       LEFT JOIN sign_in_failures f ON f.bucket = b.bucket AND f.failed_at > $2
      GROUP BY b.bucket`,
    [buckets, since, notNewest],
  );
}

export async function deleteSignInFailures(db: Queryable, ids: number[]): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE id = ANY($1::bigint[])', [ids]);
}

export async function clearSignInFailures(db: Queryable, bucket: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE bucket = $1', [bucket]);
}

export async function deleteOldSignInFailures(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE failed_at <= $1', [before]);
}

/** The user's password hash by e-mail (case-insensitive), or null. */
export async function findPasswordHash(
  db: Queryable,
  email: string,
): Promise<{ id: string; passwordHash: string | null } | null> {
  const rows = await db.query<{ id: string; passwordHash: string | null }>(
    'SELECT id, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0] ?? null;
}
