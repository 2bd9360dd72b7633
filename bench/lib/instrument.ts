// Per-watch timing of the real scanner without touching it: the scanner gets a Db that forwards
// every call to the real one and notes when each scan's statements run. With concurrency 1 the
// scans run one after another, each ending with the commit of the transaction that records its
// result (which names the watch: its first statement locks the watch row). A scan's time runs from
// the previous scan's commit to its own: nothing is left out, so the first watch of each claimed
// batch also carries the batch's claim and shared reads (sequences, mailings, word counts).
import type { Db, Queryable } from '../../src/data/db.ts';

export type WatchTiming = {
  watchId: string;
  /** From the previous scan's commit (or the first statement of the run) to its own commit. */
  totalMs: number;
  /** The candidate query (including its transaction, when the trigram threshold is set). */
  candidateMs: number;
  /**
   * The recording of the result: the transaction of hits, alerts, e-mail and bookkeeping, commit
   * included, or the one statement of a scan that found nothing.
   */
  commitMs: number;
  /** The rest: the match decisions and assessments in JS, other look-ups, the batch's reads. */
  otherMs: number;
  /** Of the rest, the statements outside transactions (word counts, records, the batch's reads). */
  otherSqlMs: number;
  candidateSql: string;
  candidateParams: readonly unknown[];
};

const CANDIDATE_QUERY = /FROM marks m\s+WHERE[\s\S]*class_keys &&/;
const LEASE_CHECK = /SELECT lease_owner\b[^;]*FROM watches WHERE id = \$1 FOR UPDATE/;
/** A scan that found nothing records its run and bookkeeping in one statement (watch id: $2). */
const EMPTY_SCAN = /^WITH\b[\s\S]*?\bdone AS \(\s*UPDATE watches SET/;

export type InstrumentedDb = {
  db: Db;
  /** `other` timed into the same scans as `db` (see view below). */
  view: (other: Db) => Db;
  timings: WatchTiming[];
  reset: () => void;
};

export function instrument(inner: Db): InstrumentedDb {
  const timings: WatchTiming[] = [];
  let open: {
    start: number;
    candidateMs: number;
    otherSqlMs: number;
    sql: string;
    params: readonly unknown[];
  } | null = null;
  /** When the last scan committed: the next one's time starts there. */
  let lastCommit: number | null = null;
  const now = () => performance.now();

  /** The scan of `watchId` committed at `at`, its recording having taken `commitMs`. */
  const recordTiming = (watchId: string, at: number, commitMs: number) => {
    if (open === null) return;
    const totalMs = at - open.start;
    timings.push({
      watchId,
      totalMs,
      candidateMs: open.candidateMs,
      commitMs,
      otherMs: Math.max(0, totalMs - open.candidateMs - commitMs),
      otherSqlMs: open.otherSqlMs,
      candidateSql: open.sql,
      candidateParams: open.params,
    });
    open = null;
    lastCommit = at;
  };

  const wrap = (
    runner: Queryable,
    inTransaction: { watchId: string | null },
    root = false,
  ): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      if (open === null) {
        open = { start: lastCommit ?? now(), candidateMs: 0, otherSqlMs: 0, sql: '', params: [] };
      }
      if (LEASE_CHECK.test(text)) inTransaction.watchId = String(params[0]);
      const t0 = now();
      const rows = await runner.query<T>(text, params);
      const t1 = now();
      if (CANDIDATE_QUERY.test(text) && open !== null) {
        open.candidateMs += t1 - t0;
        open.sql = text;
        open.params = params;
      }
      if (EMPTY_SCAN.test(text)) recordTiming(String(params[1]), t1, t1 - t0);
      else if (root && !CANDIDATE_QUERY.test(text) && open !== null) open.otherSqlMs += t1 - t0;
      return rows;
    },
    queryBytes: (text: string, params?: readonly unknown[]) => runner.queryBytes(text, params),
    exec: (script: string) => runner.exec(script),
    copyFrom: (target: string, data: string | Uint8Array<ArrayBuffer>) =>
      runner.copyFrom(target, data),
  });

  /**
   * A Db over `runner` that times its statements into the same scans: the scanner's own database,
   * or where a scan reads the mirror from (a standby, through the scanner's `reads`).
   */
  const view = (runner: Db): Db => {
    const root = wrap(runner, { watchId: null }, true);
    const db: Db = {
      kind: runner.kind,
      query: root.query,
      queryBytes: root.queryBytes,
      exec: root.exec,
      copyFrom: root.copyFrom,
      ping: () => runner.ping(),
      // Scans run without a statement deadline; a view with one would bypass the timing.
      withStatementTimeout: () => db,
      async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
        const state = { watchId: null as string | null };
        const t0 = now();
        const isCandidateTx = { value: false };
        const result = await runner.transaction((tx) => {
          const wrapped = wrap(tx, state);
          return fn({
            async query<R>(text: string, params?: readonly unknown[]) {
              if (CANDIDATE_QUERY.test(text)) isCandidateTx.value = true;
              return wrapped.query<R>(text, params);
            },
            queryBytes: wrapped.queryBytes,
            exec: wrapped.exec,
            copyFrom: wrapped.copyFrom,
          });
        });
        const t1 = now();
        // The candidate query's own transaction (set_config + query): count all of it.
        if (isCandidateTx.value && open !== null) {
          // The query time was already added; add the transaction overhead around it.
          open.candidateMs = Math.max(open.candidateMs, t1 - t0);
        }
        if (state.watchId !== null) recordTiming(state.watchId, t1, t1 - t0);
        return result;
      },
      close: () => runner.close(),
    };
    return db;
  };
  const db = view(inner);
  return {
    db,
    view,
    timings,
    reset() {
      timings.length = 0;
      open = null;
      lastCommit = null;
    },
  };
}

/** Summed time and count of one kind of statement (statementLabel). */
export type StatementTally = { label: string; n: number; ms: number };

/**
 * A statement's kind for the tallies: its text with whitespace collapsed, cut after 60
 * characters (the scanner's statements differ in their first words), parameters aside.
 */
export function statementLabel(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

/**
 * Counts the watches a scanner has finished, at any concurrency (instrument() assumes one scan at
 * a time): a watch is done when the transaction that recorded its result, the one that locks its
 * row, commits, or the one statement that records a scan that found nothing. It adds no
 * statement. It also sums the time of each kind of statement and of the transactions that record
 * a scan's result, commit included (`statements`): with several scans at once the sums overlap
 * and exceed the wall time, but their shares say which statements the run waited on.
 */
export function countScans(inner: Db): {
  db: Db;
  scanned: () => number;
  statements: () => StatementTally[];
} {
  let scanned = 0;
  const tallies = new Map<string, StatementTally>();
  const tally = (label: string, ms: number) => {
    const t = tallies.get(label) ?? { label, n: 0, ms: 0 };
    t.n++;
    t.ms += ms;
    tallies.set(label, t);
  };
  const timed = async <R>(runner: Queryable, text: string, params?: readonly unknown[]) => {
    const t0 = performance.now();
    const rows = await runner.query<R>(text, params);
    tally(statementLabel(text), performance.now() - t0);
    return rows;
  };
  const db: Db = {
    kind: inner.kind,
    ping: () => inner.ping(),
    // Scans run without a statement deadline; a view with one would bypass the timing.
    withStatementTimeout: () => db,
    async query<R>(text: string, params?: readonly unknown[]) {
      const rows = await timed<R>(inner, text, params);
      if (EMPTY_SCAN.test(text)) scanned++;
      return rows;
    },
    queryBytes: (text, params) => inner.queryBytes(text, params),
    exec: (script) => inner.exec(script),
    copyFrom: (target, data) => inner.copyFrom(target, data),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      let recordsScan = false;
      const t0 = performance.now();
      const result = await inner.transaction((tx) =>
        fn({
          query<R>(text: string, params?: readonly unknown[]) {
            if (LEASE_CHECK.test(text)) recordsScan = true;
            return timed<R>(tx, text, params);
          },
          queryBytes: (text, params) => tx.queryBytes(text, params),
          exec: (script) => tx.exec(script),
          copyFrom: (target, data) => tx.copyFrom(target, data),
        }),
      );
      if (recordsScan) {
        scanned++;
        tally(
          "(the transaction recording a scan's result, commit included)",
          performance.now() - t0,
        );
      }
      return result;
    },
    close: () => inner.close(),
  };
  return {
    db,
    scanned: () => scanned,
    statements: () => [...tallies.values()].sort((a, b) => b.ms - a.ms),
  };
}
