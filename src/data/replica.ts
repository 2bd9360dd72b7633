import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import { isDependencyOutage } from '../outage.ts';
import { type Db, openDb, type Queryable } from './db.ts';

/**
 * Where reads that may be a moment stale go: a PostgreSQL hot standby of the primary
 * (DATABASE_REPLICA_URL) while it is reachable and close enough behind, the primary otherwise.
 *
 * `choose()` names the database for one unit of work (a batch of scans), which reads everything it
 * reads from it: the mirror's change sequence that bounds the scan and the candidates within that
 * bound. A standby replays the primary's commits in commit order, and imports commit their change
 * sequence values in increasing order (the import lock), so every record up to the highest
 * sequence a standby shows is on it: a scan bounded there misses nothing, and the records the
 * standby has not replayed yet are the next scan's. Reads that start on the standby may move to the
 * primary (it holds all the standby holds), never the other way within one unit of work.
 */
export type ReadReplica = {
  /**
   * The database for one unit of work. With `replayed`, the standby only if it had replayed that
   * WAL position (a `writePosition()`) when it was last measured: a reader's own write.
   */
  choose(options?: { replayed?: bigint }): Promise<Db>;
  /** The primary's WAL position now, after a write committed; null without a standby. */
  writePosition(): Promise<bigint | null>;
  close(): Promise<void>;
};

/** Without a standby: everything reads the primary. */
export function primaryOnly(primary: Db): ReadReplica {
  return { choose: async () => primary, writePosition: async () => null, close: async () => {} };
}

/** How often the standby's lag is measured (at most; only when a unit of work asks). */
const CHECK_EVERY_MS = 1000;
/**
 * How often a standby that could not be used is tried again: connecting to a host that does not
 * answer waits for the connect time-out, which a batch of scans should not pay every second.
 */
const RECHECK_UNUSABLE_MS = 10_000;
/** Primary positions remembered while the standby has not reached them (the oldest one is kept). */
const MAX_SAMPLES = 64;

export type ReplicaOptions = {
  primary: Db;
  url: string;
  /** Beyond this lag the primary is read instead (DATABASE_REPLICA_MAX_LAG_SECONDS). */
  maxLagSeconds: number;
  clock: Clock;
  logger: Logger;
  /** Connections to the standby. */
  maxConnections?: number;
};

type Sample = { at: number; lsn: bigint };
type Health = { usable: true } | { usable: false; reason: string };

/** A WAL position as PostgreSQL prints it (`16/B374D848`) as a number. */
function lsnOf(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

// The standby cannot answer (down, starting, shutting down, no connection slot, its name does not
// resolve), or cancelled a read because replaying the primary's changes needed its rows (40001,
// "conflict with recovery"): the primary answers instead.
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isDependencyOutage(error) || code === 'ENOTFOUND' || code === '40001';
}

/**
 * The standby's lag, measured without trusting either server's clock or the time of its last
 * replayed commit (an idle primary commits nothing, so that time says nothing about lag): at every
 * check the primary's current WAL position is remembered with the time it was read, and the lag is
 * how long ago the primary was at the oldest position the standby has not replayed yet.
 */
async function measureLag(
  primary: Queryable,
  standby: Queryable,
  samples: Sample[],
  now: number,
): Promise<{ lagMs: number; replayed: bigint } | null> {
  const [state] = await standby.query<{ recovering: boolean; replayed: string | null }>(
    'SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed',
  );
  // Not a standby (promoted, or the wrong server): nothing says it holds the primary's data.
  if (!state?.recovering || state.replayed === null) return null;
  const replayed = lsnOf(state.replayed);
  // A primary that does not answer is not the standby's fault: the lag is then measured against
  // the positions noted before (the scans' own writes will fail and say why).
  const [current] = await primary
    .query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')
    .catch(() => []);
  while (samples.length > 0 && (samples[0] as Sample).lsn <= replayed) samples.shift();
  const lagMs = samples.length === 0 ? 0 : now - (samples[0] as Sample).at;
  const position = current ? lsnOf(current.lsn) : 0n;
  if (position > replayed) {
    samples.push({ at: now, lsn: position });
    if (samples.length > MAX_SAMPLES) samples.splice(1, 1);
  }
  return { lagMs, replayed };
}

/** Opens the standby's pool; `choose()` measures its lag at most once a second. */
export async function openReadReplica(options: ReplicaOptions): Promise<ReadReplica> {
  const { primary, clock, logger } = options;
  const standby = await openDb({
    databaseUrl: options.url,
    dataDir: '',
    maxConnections: options.maxConnections ?? 10,
  });
  const samples: Sample[] = [];
  /** The standby's replay position at its last measurement. */
  let replayed = 0n;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let health: Health = { usable: true };
  let checking: Promise<void> | null = null;

  // One warning when the reads leave the standby, one info line when they come back: a lasting
  // outage of the standby must not write a line per scan. No error object, so no stack.
  const setHealth = (next: Health) => {
    if (health.usable && !next.usable) {
      logger.warn(`reading from the primary: ${next.reason}`);
    } else if (!health.usable && next.usable) {
      logger.info('reading from the standby again (DATABASE_REPLICA_URL)');
    }
    health = next;
  };

  const check = async () => {
    const now = clock.now();
    try {
      const measured = await measureLag(primary, standby, samples, now);
      if (measured !== null) replayed = measured.replayed;
      const lagMs = measured?.lagMs ?? null;
      if (lagMs === null) {
        setHealth({ usable: false, reason: 'DATABASE_REPLICA_URL is not a standby in recovery' });
      } else if (lagMs > options.maxLagSeconds * 1000) {
        setHealth({
          usable: false,
          reason: `the standby is ${Math.round(lagMs / 100) / 10} s behind (DATABASE_REPLICA_MAX_LAG_SECONDS=${options.maxLagSeconds})`,
        });
      } else setHealth({ usable: true });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      setHealth({
        usable: false,
        reason: `the standby cannot be reached (DATABASE_REPLICA_URL${typeof code === 'string' ? `: ${code}` : ''})`,
      });
    }
  };

  /** The standby, whose reads move to the primary when it stops answering. */
  const reads = fallingBack(standby, primary, () => {
    checkedAt = clock.now();
    setHealth({ usable: false, reason: 'the standby stopped answering (DATABASE_REPLICA_URL)' });
  });

  return {
    async choose(options = {}) {
      const every = health.usable ? CHECK_EVERY_MS : RECHECK_UNUSABLE_MS;
      if (clock.now() - checkedAt >= every) {
        // Concurrent callers share one measurement.
        checking ??= check().finally(() => {
          checkedAt = clock.now();
          checking = null;
        });
        await checking;
      }
      const { replayed: needed } = options;
      return health.usable && (needed === undefined || replayed >= needed) ? reads : primary;
    },
    async writePosition() {
      // The insert position: with synchronous_commit=off, a commit that has returned may not have
      // been written out yet, and the write position would lie before it.
      const [row] = await primary.query<{ lsn: string }>(
        'SELECT pg_current_wal_insert_lsn()::text AS lsn',
      );
      return row ? lsnOf(row.lsn) : null;
    },
    close: () => standby.close(),
  };
}

/**
 * A Db that reads `standby` and, when the standby cannot answer a read, reads `primary` instead
 * (and says so through `lost`). Scripts and COPY, which write, go to the primary.
 */
function fallingBack(standby: Db, primary: Db, lost: () => void): Db {
  const either = async <T>(read: (db: Db) => Promise<T>): Promise<T> => {
    try {
      return await read(standby);
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      lost();
      return read(primary);
    }
  };
  return {
    kind: 'postgres',
    query: (text, params) => either((db) => db.query(text, params)),
    queryBytes: (text, params) => either((db) => db.queryBytes(text, params)),
    transaction: (fn) => either((db) => db.transaction(fn)),
    exec: (script) => primary.exec(script),
    copyFrom: (target, data) => primary.copyFrom(target, data),
    // Readiness is the primary's: a standby that is down only sends reads back to it.
    ping: () => primary.ping(),
    withStatementTimeout: (ms) =>
      fallingBack(standby.withStatementTimeout(ms), primary.withStatementTimeout(ms), lost),
    close: async () => {},
  };
}

/**
 * Where the API reads an owner's lists (watches, alerts, webhooks), which may be a second stale:
 * the standby, except for an owner who has written something the standby had not replayed when it
 * was last measured. Their lists read the primary until it has, so a client sees its own writes
 * in its lists. Only writes made through this process are known: see docs/operations.md.
 */
export type ListReads = {
  /** The database for one list of `ownerId`'s. */
  forOwner(ownerId: string): Promise<Db>;
  /** After a request of `ownerId`'s that may have written: its position on the primary. */
  wrote(ownerId: string): Promise<void>;
};

/**
 * Owners whose last write is remembered. One forgotten (this many others wrote after it) reads the
 * standby at once, at worst a second stale: the limit bounds memory, about 150 bytes an owner.
 */
const MAX_WRITERS = 50_000;
/** A position no standby reaches: the owner's lists read the primary until its next write. */
const NEVER_REPLAYED = (1n << 64n) - 1n;

export function listReads(reads: ReadReplica, statementTimeoutMs?: number): ListReads {
  const written = new LRUCache<string, bigint>({ max: MAX_WRITERS });
  // One deadline view per database chosen, not one per list: callers key per-database state (the
  // alert list's coalesced version look-up) on the Db they are handed.
  const timed = new WeakMap<Db, Db>();
  const withDeadline = (db: Db): Db => {
    if (statementTimeoutMs === undefined) return db;
    let view = timed.get(db);
    if (view === undefined) {
      view = db.withStatementTimeout(statementTimeoutMs);
      timed.set(db, view);
    }
    return view;
  };
  return {
    forOwner: async (ownerId) =>
      withDeadline(await reads.choose({ replayed: written.get(ownerId) })),
    async wrote(ownerId) {
      // The position cannot be read (the primary is failing): to be safe the owner's lists stay
      // on the primary, which then answers or fails as the write did.
      const position = await reads.writePosition().catch(() => NEVER_REPLAYED);
      if (position !== null) written.set(ownerId, position);
    },
  };
}
