// Where the import time goes, without touching the importer:
// - the importer gets a Db that forwards every call and adds up the time database transactions
//   (the batched upserts: SQL, index maintenance, commit) are open;
// - CPU time per record of this process (the importer's JS; with PGlite also the database) and of
//   the PostgreSQL backends (cpu.ts);
// - the time each statement of a batch's transaction takes (COPY, import lock, word counts, upsert,
//   commit): the statements are pipelined, so a statement's time runs from the later of its call
//   and the previous statement's reply to its own reply;
// - the CPU cost of each JS step of the importer, measured on a sample of the same file.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Db, Queryable } from '../../src/data/db.ts';
import { markCopyRows } from '../../src/data/repositories/marks.ts';
import { toMarkUpsert } from '../../src/mirror/import.ts';
import { parseRegisterRecord, type RegisterRecord } from '../../src/register/record.ts';
import { databaseCpu, nodeCpuMs } from './cpu.ts';

/** The step a batch statement belongs to, from its SQL text. */
function stepOf(sql: string): string {
  if (sql.includes('pg_advisory_xact_lock')) return 'import lock';
  if (sql.includes('INSERT INTO mark_word_deltas')) return 'word counts';
  if (sql.includes('INSERT INTO mark_words') || sql.includes('TRUNCATE mark_word_deltas')) {
    return 'word counts fold';
  }
  if (sql.includes('INSERT INTO marks')) return 'upsert';
  if (sql.startsWith('COPY') || sql.includes('CREATE TEMP TABLE')) return 'COPY';
  return 'other';
}

export function profileImport(inner: Db, localServer: boolean) {
  let transactionMs = 0;
  let transactions = 0;
  let open = 0;
  let openedAt = 0;
  const stepMs = new Map<string, number>();
  const addStep = (step: string, ms: number) => stepMs.set(step, (stepMs.get(step) ?? 0) + ms);
  /** The transaction as the importer sees it, timing each statement (see the header). */
  const timed = (tx: Queryable) => {
    let lastReply = 0;
    const time = <T>(step: string, run: () => Promise<T>): Promise<T> => {
      const called = performance.now();
      return run().then((result) => {
        const now = performance.now();
        addStep(step, now - Math.max(called, lastReply));
        lastReply = now;
        return result;
      });
    };
    const wrapped: Queryable = {
      query: (text, params) => time(stepOf(text), () => tx.query(text, params)),
      queryBytes: (text, params) => time(stepOf(text), () => tx.queryBytes(text, params)),
      exec: (script) => time(stepOf(script), () => tx.exec(script)),
      copyFrom: (target, data) => time('COPY', () => tx.copyFrom(target, data)),
    };
    return { wrapped, lastReply: () => lastReply };
  };
  const db: Db = {
    kind: inner.kind,
    query: (text, params) => inner.query(text, params),
    queryBytes: (text, params) => inner.queryBytes(text, params),
    exec: (script) => inner.exec(script),
    copyFrom: (target, data) => inner.copyFrom(target, data),
    ping: () => inner.ping(),
    // Scans run without a statement deadline; a view with one would bypass the timing.
    withStatementTimeout: () => db,
    async transaction(fn) {
      // With one batch in flight while the next is prepared, count the time any is open.
      if (open++ === 0) openedAt = performance.now();
      try {
        let last = () => 0;
        const result = await inner.transaction((tx) => {
          const t = timed(tx);
          last = t.lastReply;
          return fn(t.wrapped);
        });
        addStep('commit', performance.now() - last());
        return result;
      } finally {
        transactions++;
        if (--open === 0) transactionMs += performance.now() - openedAt;
      }
    },
    close: () => inner.close(),
  };
  const serverCpu = databaseCpu(inner, localServer);
  let start: { node: number; server: number | null; wall: number } | null = null;
  return {
    db,
    async start() {
      start = { node: nodeCpuMs(), server: await serverCpu.sample(), wall: performance.now() };
    },
    /** A sentence on where the time of `records` imported records went. */
    async finish(records: number): Promise<string> {
      if (start === null) throw new Error('profileImport: start() first');
      const wallMs = performance.now() - start.wall;
      const nodeUs = ((nodeCpuMs() - start.node) * 1000) / records;
      const server = await serverCpu.sample();
      const serverUs =
        server === null || start.server === null
          ? null
          : ((server - start.server) * 1000) / records;
      const share = `${((100 * transactionMs) / wallMs).toFixed(0)}%`;
      // Two batches are in flight, so the steps add up to more than the wall time: each share is
      // of the wall time of the import.
      const steps = [...stepMs]
        .filter(([, ms]) => ms >= 0.005 * wallMs)
        .map(([step, ms]) => `${step} ${((100 * ms) / wallMs).toFixed(0)}%`)
        .join(', ');
      return inner.kind === 'postgres'
        ? `upsert transactions open ${share} of the wall time (${transactions} batches; statements: ${steps}); CPU per record: importer (Node) ${nodeUs.toFixed(0)} µs, PostgreSQL backend ${serverUs === null ? 'n/a (remote server)' : `${serverUs.toFixed(0)} µs`}`
        : `upsert transactions open ${share} of the wall time (${transactions} batches; statements: ${steps}); CPU per record (importer and PGlite, one thread): ${nodeUs.toFixed(0)} µs`;
    },
  };
}

function firstLines(path: string, count: number): string[] {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(8 * 1024 * 1024);
    const bytes = readSync(fd, buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, bytes).toString('utf8').split('\n');
    // What follows the last newline read is empty (end of file) or cut off by the buffer.
    return lines.slice(0, Math.min(count, lines.length - 1));
  } finally {
    closeSync(fd);
  }
}

/** CPU µs per record of each JS step of the importer, on the first lines of a JSON Lines file. */
export function importStepCosts(path: string, sample = 20_000): Record<string, number> {
  const lines = firstLines(path, sample);
  const time = <T>(fn: () => T): [T, number] => {
    const t0 = nodeCpuMs();
    const result = fn();
    return [result, ((nodeCpuMs() - t0) * 1000) / lines.length];
  };
  // Once to warm the JIT up, then measured.
  for (const line of lines.slice(0, 2000)) {
    const parsed = parseRegisterRecord(JSON.parse(line));
    if (parsed.ok) toMarkUpsert(parsed.record);
  }
  const [objects, parseUs] = time(() => lines.map((l) => JSON.parse(l) as unknown));
  const [records, validateUs] = time(() =>
    objects.map((o) => {
      const r = parseRegisterRecord(o);
      if (!r.ok) throw new Error(r.error);
      return r.record;
    }),
  );
  const [upserts, keysUs] = time(() => records.map((r: RegisterRecord) => toMarkUpsert(r)));
  const [, copyUs] = time(() => {
    for (let i = 0; i < upserts.length; i += 2000) markCopyRows(upserts.slice(i, i + 2000));
  });
  return {
    'JSON.parse': parseUs,
    'validation (zod, dates)': validateUs,
    'match keys (toMarkUpsert)': keysUs,
    'batch COPY text for the upsert': copyUs,
  };
}
