// `npm run bench:plans`: what the candidate query reads, counted in pages and rows rather than
// milliseconds, so that two versions compare on a loaded machine; and the import's CPU per record.
//
//   BENCH_PLANS_STEP   load: create the database BENCH_PLANS_DB (dropped first if it exists),
//                      migrate it, write a synthetic register of BENCH_RECORDS records (bench:scan's
//                      generator and seed) and import it through the real importer;
//                      explain: migrate the database (an older one is upgraded, timed), then
//                      EXPLAIN (ANALYZE, BUFFERS) the candidate query of a fixed set of watches and
//                      of BENCH_PLANS_SAMPLE generated ones; drop: drop the database.
//   BENCH_PLANS_DB     database name (default tmw_bench_plans)
//   BENCH_RECORDS      register size for `load` (default 500000)
//   BENCH_PLANS_INITIAL 1: `load` imports as `marks import --initial` does (indexes built after)
//   BENCH_PLANS_SHOW   names of fixed watches whose plan is printed as text (comma-separated)
//   BENCH_PLANS_SAMPLE generated watches explained besides the fixed ones (default 100)
//   BENCH_PLANS_WARM   0: explain each watch's query on its first run, not after a run that
//                      brings its pages into the cache (default 1)
//   BENCH_PLANS_WORST  1: print the plan of the generated watch whose query dropped the most rows
//                      after reading them (a plan that reads where its index should not)
//   BENCH_SRC          the src/ directory whose migrations, importer and candidate query are used
//                      (default this tree's): another version's, to measure it on the same data
//   BENCH_DATABASE_URL the server (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_SEED         seed (default 20240611)
// Prints one line per watch and a summary; writes nothing into docs.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from '../src/data/db.ts';
import type { PreparedWatch } from '../src/matching/decide.ts';
import { databaseCpu, nodeCpuMs } from './lib/cpu.ts';
import { trainMarkModel } from './lib/markov.ts';
import { mulberry32, random } from './lib/random.ts';
import { registerGenerator, writeRegisterFile } from './lib/register.ts';
import { fmt, quantile } from './lib/stats.ts';
import { isBrandLike } from './lib/variants.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const src = resolve(process.env.BENCH_SRC ?? join(here, '../src'));
const step = process.env.BENCH_PLANS_STEP ?? 'explain';
const dbName = process.env.BENCH_PLANS_DB ?? 'tmw_bench_plans';
const records = Number(process.env.BENCH_RECORDS ?? 500_000);
const sampleSize = Number(process.env.BENCH_PLANS_SAMPLE ?? 100);
const showWorst = process.env.BENCH_PLANS_WORST === '1';
const showPlans = new Set((process.env.BENCH_PLANS_SHOW ?? '').split(',').filter((n) => n !== ''));
const initial = process.env.BENCH_PLANS_INITIAL === '1';
const warm = process.env.BENCH_PLANS_WARM !== '0';
const seed = Number(process.env.BENCH_SEED ?? 20_240_611);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbUrl = serverUrl.replace(/\/[^/?]*(\?|$)/, `/${dbName}$1`);

// The version under test, loaded from BENCH_SRC.
const { openDb } = (await import(`${src}/data/db.ts`)) as typeof import('../src/data/db.ts');
const { migrateDatabase } = (await import(
  `${src}/start/database.ts`
)) as typeof import('../src/start/database.ts');
const { importRecordFiles } = (await import(
  `${src}/mirror/import.ts`
)) as typeof import('../src/mirror/import.ts');
const { queryCandidates } = (await import(
  `${src}/data/repositories/mirror-candidates.ts`
)) as typeof import('../src/data/repositories/mirror-candidates.ts');
const { prepareWatch } = (await import(
  `${src}/matching/decide.ts`
)) as typeof import('../src/matching/decide.ts');

const FIXTURE = join(here, '../test/fixtures/euipo/mark-texts.txt');
const texts = [...new Set(readFileSync(FIXTURE, 'utf8').split('\n'))]
  .map((t) => t.trim())
  .filter((t) => t !== '');
const model = trainMarkModel(texts, 4);

/** The watches explained: fixed ones (short, long, several words), then generated ones. */
function watchSpecs() {
  const fixed = [
    { name: 'BRIO', niceClasses: [5], designations: ['US'] },
    { name: 'NIKE', niceClasses: [25], designations: ['US', 'EM'] },
    { name: 'PELIKAN', niceClasses: [16], designations: ['DE'] },
    { name: 'QUILLSTONE ANALYTICS', niceClasses: [9, 42], designations: ['US', 'EM'] },
    { name: 'BLUE ORCHID BEAUTY', niceClasses: [3], designations: ['EM', 'CA', 'US'] },
  ];
  const rnd = random(mulberry32(seed ^ 0x5eed));
  const generator = registerGenerator(model, random(mulberry32(seed)));
  const names = rnd.shuffle(texts.filter(isBrandLike)).slice(0, sampleSize);
  return [...fixed, ...names.map((name) => generator.watch(name))];
}

async function admin<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: serverUrl, dataDir: '', maxConnections: 1 });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function load(): Promise<void> {
  await admin(async (db) => {
    await db.exec(`DROP DATABASE IF EXISTS ${dbName}`);
    await db.exec(`CREATE DATABASE ${dbName}`);
  });
  const db = await openDb({ databaseUrl: dbUrl, dataDir: '' });
  const dir = mkdtempSync(join(tmpdir(), 'tmw-bench-plans-'));
  try {
    await migrateDatabase(db);
    const file = join(dir, 'register.jsonl');
    const rnd = random(mulberry32(seed));
    writeRegisterFile(file, records, registerGenerator(model, rnd), [], rnd);
    const backend = databaseCpu(db, true);
    const backend0 = (await backend.sample()) ?? 0;
    const node0 = nodeCpuMs();
    const t0 = performance.now();
    const summary = await importRecordFiles(db, [file], { initial });
    const wall = performance.now() - t0;
    const nodeMs = nodeCpuMs() - node0;
    const backendMs = ((await backend.sample()) ?? 0) - backend0;
    const perRecord = (ms: number) => fmt((ms * 1000) / records, 1);
    console.log(
      `${initial ? 'initial ' : ''}import of ${fmt(records, 0)} records (${summary.imported} new): ${fmt(wall / 1000, 1)} s, ${fmt(
        records / (wall / 1000),
        0,
      )} records/s; CPU µs per record: Node ${perRecord(nodeMs)}, PostgreSQL backends ${perRecord(backendMs)}`,
    );
    const sizes = await db.query<{ name: string; size: string }>(
      `SELECT c.relname AS name, pg_size_pretty(pg_total_relation_size(c.oid)) AS size
         FROM pg_class c WHERE c.relname IN ('marks', 'mark_band', 'mark_keys') ORDER BY 1`,
    );
    console.log(`sizes with indexes: ${sizes.map((s) => `${s.name} ${s.size}`).join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  }
}

type Plan = {
  'Actual Rows': number;
  'Actual Total Time': number;
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Exact Heap Blocks'?: number;
  'Lossy Heap Blocks'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Actual Loops': number;
  Plans?: Plan[];
};

/** Heap pages visited per table, rows dropped after reading them, and the query's own buffers. */
function planFigures(root: Plan) {
  const heap = new Map<string, number>();
  const rowsRead = new Map<string, number>();
  let removed = 0;
  const walk = (p: Plan) => {
    const table = p['Relation Name'];
    if (table !== undefined && p['Node Type'] === 'Bitmap Heap Scan') {
      heap.set(
        table,
        (heap.get(table) ?? 0) + (p['Exact Heap Blocks'] ?? 0) + (p['Lossy Heap Blocks'] ?? 0),
      );
    }
    if (table !== undefined) {
      const read =
        p['Actual Rows'] * p['Actual Loops'] +
        (p['Rows Removed by Filter'] ?? 0) +
        (p['Rows Removed by Index Recheck'] ?? 0);
      rowsRead.set(table, (rowsRead.get(table) ?? 0) + read);
    }
    removed += (p['Rows Removed by Filter'] ?? 0) + (p['Rows Removed by Index Recheck'] ?? 0);
    for (const child of p.Plans ?? []) walk(child);
  };
  walk(root);
  return {
    rows: root['Actual Rows'],
    buffers: root['Shared Hit Blocks'] + root['Shared Read Blocks'],
    /** Of the buffers, those not in shared_buffers: read from the kernel's cache or the disk. */
    readBlocks: root['Shared Read Blocks'],
    heap,
    rowsRead,
    removed,
  };
}

/**
 * Runs the version's own candidate query for `watch`, with EXPLAIN in front of it: the Db handed
 * to queryCandidates passes every statement through but the candidate query's, which it explains.
 */
async function explainCandidates(db: Db, watch: PreparedWatch, toSeq: number, showPlan = false) {
  let plan: { Plan: Plan; 'Execution Time': number; 'Planning Time': number } | undefined;
  let ids: string[] = [];
  const intercept = (tx: Queryable): Queryable => ({
    ...tx,
    async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      if (!/^SELECT m\.external_id/.test(text.trim())) return tx.query<T>(text, params);
      const rows = await tx.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
        params,
      );
      const json = rows[0]?.['QUERY PLAN'];
      plan = (typeof json === 'string' ? JSON.parse(json) : json)[0];
      ids = (await tx.query<{ externalId: string }>(text, params)).map((r) => r.externalId);
      if (showPlan) {
        const lines = await tx.query<Record<string, string>>(
          `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
          params,
        );
        console.log(lines.map((l) => Object.values(l)[0]).join('\n'));
      }
      return [];
    },
  });
  const wrapped = {
    ...db,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      db.transaction((tx) => fn(intercept(tx))),
  } as Db;
  await queryCandidates(wrapped, watch, { fromSeq: 0, toSeq });
  if (plan === undefined) throw new Error('the candidate query was not seen');
  const digest = createHash('sha1').update(ids.sort().join(',')).digest('hex').slice(0, 10);
  return {
    ...planFigures(plan.Plan),
    ms: plan['Execution Time'],
    planMs: plan['Planning Time'],
    digest,
  };
}

async function explain(): Promise<void> {
  const db = await openDb({ databaseUrl: dbUrl, dataDir: '' });
  try {
    const t0 = performance.now();
    const applied = await migrateDatabase(db);
    if (applied.length > 0) {
      console.log(
        `migrated: ${applied.join(', ')} in ${fmt((performance.now() - t0) / 1000, 1)} s`,
      );
      await db.exec('VACUUM ANALYZE');
    }
    const [{ seq } = { seq: 0 }] = await db.query<{ seq: number }>(
      'SELECT coalesce(max(change_seq), 0)::int8 AS seq FROM marks',
    );
    const results: Awaited<ReturnType<typeof explainCandidates>>[] = [];
    for (const spec of watchSpecs()) {
      const watch = prepareWatch(spec);
      // Once to bring the pages in, then measured: buffers count the same either way. Without the
      // first run (BENCH_PLANS_WARM=0) a watch's pages are where the watches before it left them,
      // as in a scan: what the server's cache holds of the register decides the time.
      if (warm) await explainCandidates(db, watch, seq);
      const r = await explainCandidates(db, watch, seq, showPlans.has(spec.name));
      results.push(r);
      if (results.length <= 5) {
        const heap = [...r.heap].map(([t, n]) => `${t} ${n}`).join(', ');
        const read = [...r.rowsRead].map(([t, n]) => `${t} ${n}`).join(', ');
        console.log(
          `${spec.name} (${spec.niceClasses.join(',')}; ${spec.designations.join(',')}): ${r.rows} candidates [${r.digest}]; buffers ${r.buffers}; heap pages ${heap}; rows read ${read}; rows dropped after reading ${r.removed}; execution ${fmt(r.ms, 1)} ms, planning ${fmt(r.planMs, 1)} ms`,
        );
      }
    }
    const sample = results.slice(5);
    const q = (pick: (r: (typeof results)[number]) => number) => {
      const xs = sample.map(pick).sort((a, b) => a - b);
      return `${fmt(quantile(xs, 0.5), 0)}/${fmt(quantile(xs, 0.99), 0)}`;
    };
    const all = createHash('sha1')
      .update(sample.map((r) => r.digest).join(','))
      .digest('hex')
      .slice(0, 10);
    console.log(
      `${sample.length} generated watches, p50/p99: candidates ${q((r) => r.rows)}; buffers ${q((r) => r.buffers)}; rows of marks read ${q((r) => r.rowsRead.get('marks') ?? 0)}; rows dropped after reading ${q((r) => r.removed)}; execution ms ${q((r) => r.ms)}; all candidates digest ${all}`,
    );
    if (showWorst && sample.length > 0) {
      const specs = watchSpecs().slice(5);
      let at = 0;
      sample.forEach((r, i) => {
        if (r.removed > (sample[at]?.removed ?? 0)) at = i;
      });
      const spec = specs[at];
      if (spec !== undefined) {
        console.log(`the most rows dropped after reading: ${spec.name}, ${sample[at]?.removed}`);
        await explainCandidates(db, prepareWatch(spec), seq, true);
      }
    }
    // Sums: a change of a few percent in the index search hides in the rounded quantiles.
    const sum = (pick: (r: (typeof results)[number]) => number) =>
      sample.reduce((total, r) => total + pick(r), 0);
    console.log(
      `${sample.length} generated watches, sums: buffers ${fmt(
        sum((r) => r.buffers),
        0,
      )} (${fmt(
        sum((r) => r.readBlocks),
        0,
      )} not in shared buffers); execution ${fmt(
        sum((r) => r.ms),
        1,
      )} ms; planning ${fmt(
        sum((r) => r.planMs),
        1,
      )} ms`,
    );
  } finally {
    await db.close();
  }
}

if (step === 'load') await load();
else if (step === 'explain') await explain();
else if (step === 'drop') await admin((db) => db.exec(`DROP DATABASE IF EXISTS ${dbName}`));
else throw new Error(`BENCH_PLANS_STEP: load, explain or drop, not ${step}`);
