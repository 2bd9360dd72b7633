import type { Queryable } from '../db.ts';

export type ClaimedWatch = {
  id: string;
  ownerId: string;
  name: string;
  attributes: { niceClasses: number[]; designations: string[]; relatedClasses?: boolean };
  scanCadence: string;
  sources: string[];
  logoUrl: string | null;
  logoSt13: string | null;
  scannedSeq: number;
  needsFullScan: boolean;
  /**
   * The day (YYYY-MM-DD, UTC) since which the watch has been looking for what it looks for now:
   * its creation, or the last change of its name or classes (migration 030).
   */
  lookingSince: string;
};

export type ClaimFilter = { kind: 'due' } | { kind: 'ids'; ids: string[] };

/**
 * Claims active watches for one worker: rows another worker holds (row lock or unexpired lease)
 * are skipped, never waited for, so any number of workers share the work and a crashed worker's
 * claim lapses when its lease expires. While an initial load of the mirror has not finished (its
 * candidate indexes are missing, migration 025), nothing is claimed: the due watches wait for it.
 */
export async function claimWatches(
  db: Queryable,
  workerId: string,
  leaseSeconds: number,
  filter: ClaimFilter,
  limit: number,
): Promise<ClaimedWatch[]> {
  const condition = filter.kind === 'due' ? 'next_scan_at <= now()' : 'id = ANY($4::text[])';
  const params: unknown[] = [workerId, leaseSeconds, limit];
  if (filter.kind === 'ids') params.push(filter.ids);
  return db.query<ClaimedWatch>(
    `UPDATE watches
        SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2)
      WHERE id IN (
        SELECT id FROM watches
         WHERE active AND ${condition}
           AND (lease_expires_at IS NULL OR lease_expires_at < now())
           AND NOT EXISTS (SELECT 1 FROM mirror_initial_load)
         ORDER BY next_scan_at
         LIMIT $3
         FOR UPDATE SKIP LOCKED)
      RETURNING id, owner_id AS "ownerId", name, attributes, scan_cadence AS "scanCadence",
                sources, logo_url AS "logoUrl", logo_st13 AS "logoSt13",
                scanned_seq AS "scannedSeq", needs_full_scan AS "needsFullScan",
                (coalesce(criteria_changed_at, created_at) AT TIME ZONE 'UTC')::date::text
                  AS "lookingSince"`,
    params,
  );
}

/** True if the lease is still this worker's; locks the row until the transaction ends. */
export async function holdsLease(tx: Queryable, watchId: string, workerId: string) {
  const rows = await tx.query<{ leaseOwner: string | null }>(
    'SELECT lease_owner AS "leaseOwner" FROM watches WHERE id = $1 FOR UPDATE',
    [watchId],
  );
  return rows[0]?.leaseOwner === workerId;
}

export type ScanRun = {
  id: string;
  watchId: string;
  mode: 'full' | 'incremental';
  worker: string;
  startedAt: Date;
  fromSeq: number;
  toSeq: number;
  candidatesExamined: number;
  hitsCreated: number;
  alertsCreated: number;
  error: string | null;
};

const RUN_COLUMNS = `id, watch_id, mode, worker, started_at, from_seq, to_seq, candidates_examined,
  hits_created, alerts_created, error`;

const runValues = (run: ScanRun) => [
  run.id,
  run.watchId,
  run.mode,
  run.worker,
  run.startedAt,
  run.fromSeq,
  run.toSeq,
  run.candidatesExamined,
  run.hitsCreated,
  run.alertsCreated,
  run.error,
];

export async function insertScanRun(tx: Queryable, run: ScanRun) {
  await tx.query(
    `INSERT INTO scan_runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    runValues(run),
  );
}

/**
 * The watch's bookkeeping after a successful scan, its parameters numbered from `$first`: toSeq,
 * name, attributes, cadence in seconds, logo URL (completionValues). If the name or the attributes
 * changed while the scan ran, the next scan stays a full one and is due at once.
 */
function completeScanSql(first: number): string {
  const [seq, name, attributes, cadence, logo] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
  const changed = `name IS DISTINCT FROM ${name} OR attributes IS DISTINCT FROM ${attributes}::text::jsonb`;
  return `UPDATE watches SET
       scanned_seq = ${seq},
       last_scanned_at = now_ms(),
       needs_full_scan = (${changed}),
       next_scan_at = CASE WHEN ${changed}
                           THEN now_ms() ELSE now_ms() + make_interval(secs => ${cadence}) END,
       logo_url = coalesce(logo_url, ${logo}),
       lease_owner = NULL,
       lease_expires_at = NULL`;
}

type Completion = {
  watch: { id: string; name: string; attributes: unknown };
  toSeq: number;
  cadenceSeconds: number;
  logoUrl: string | null;
};

const completionValues = (c: Completion) => [
  c.toSeq,
  c.watch.name,
  JSON.stringify(c.watch.attributes),
  c.cadenceSeconds,
  c.logoUrl,
];

/**
 * A scan that found nothing to record: its run and the watch's bookkeeping in one statement (and
 * so one transaction), done only while `worker` still holds the lease, which the UPDATE checks and
 * locks. Most scans of an incremental run find nothing; this spares them a transaction's four
 * round trips. False when the lease was lost: then nothing is written.
 *
 * Its commit does not wait for the WAL to reach the disk (synchronous_commit off, for this
 * transaction only): a crash can lose no more than this bookkeeping, and the watch's next scan then
 * covers the same range again and finds the same nothing. Waiting for the flush cost more than the
 * rest of such a scan (docs/benchmarks.md). A scan that raises alerts commits synchronously: its
 * alerts may be sent out as soon as they are committed.
 */
export async function completeEmptyScan(
  db: Queryable,
  run: ScanRun,
  completion: Completion,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true)),
     done AS (
       ${completeScanSql(12)}
        WHERE id = $2 AND lease_owner = $4 AND EXISTS (SELECT FROM unflushed)
        RETURNING id)
     INSERT INTO scan_runs (${RUN_COLUMNS})
     SELECT $1, done.id, $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM done
     RETURNING id`,
    [...runValues(run), ...completionValues(completion)],
  );
  return rows.length > 0;
}

/** The watch's bookkeeping of a successful scan, in the transaction that records its hits. */
export async function completeScan(tx: Queryable, completion: Completion) {
  await tx.query(`${completeScanSql(2)} WHERE id = $1`, [
    completion.watch.id,
    ...completionValues(completion),
  ]);
}

/** A failed scan: release the claim and try again after `retrySeconds`. */
export async function releaseAfterFailure(
  db: Queryable,
  watchId: string,
  workerId: string,
  retrySeconds: number,
) {
  await db.query(
    `UPDATE watches SET lease_owner = NULL, lease_expires_at = NULL,
            next_scan_at = now_ms() + make_interval(secs => $3)
      WHERE id = $1 AND lease_owner = $2`,
    [watchId, workerId, retrySeconds],
  );
}

/** Who an owner's alert e-mail goes to, and the plan that decides whether it is sent. */
export type OwnerMailing = { tier: string; recipients: string[] };

/**
 * The mailing of each of these owners (users and organizations), in one statement: the watches a
 * scanner claims together often share owners. An owner that no longer exists is absent.
 */
export async function ownerMailings(
  db: Queryable,
  ownerIds: readonly string[],
): Promise<Map<string, OwnerMailing>> {
  const rows = await db.query<OwnerMailing & { ownerId: string }>(
    `SELECT o.id AS "ownerId", o.tier,
            coalesce(array_agg(u.email ORDER BY u.email) FILTER (WHERE u.id IS NOT NULL), '{}') AS recipients
       FROM organizations o LEFT JOIN users u ON u.organization_id = o.id
      WHERE o.id = ANY($1::text[]) GROUP BY o.id, o.tier
     UNION ALL
     SELECT u.id, coalesce(o.tier, u.tier), ARRAY[u.email]
       FROM users u LEFT JOIN organizations o ON o.id = u.organization_id
      WHERE u.id = ANY($1::text[])`,
    [ownerIds],
  );
  return new Map(rows.map(({ ownerId, tier, recipients }) => [ownerId, { tier, recipients }]));
}

/** The ids among `ids` that name no watch at all. */
export async function unknownWatchIds(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM unnest($1::text[]) AS given(id) WHERE NOT EXISTS (SELECT 1 FROM watches w WHERE w.id = given.id)',
    [ids],
  );
  return rows.map((r) => r.id);
}

export async function activeWatchIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM watches WHERE active ORDER BY next_scan_at, id',
  );
  return rows.map((r) => r.id);
}
