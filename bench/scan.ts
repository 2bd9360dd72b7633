// `npm run bench:scan`: the register mirror and the scanner on a realistic synthetic register, on
// PostgreSQL (1,000,000 records) and on PGlite (200,000). It measures the import rate through the
// real importer, a full scan of 1,000 watches through the real scanner (per-watch p50/p99), an
// incremental run of 10,000 watches after a 50,000-record import (with where its time goes: the
// CPU of both sides, the event loop's delay and the statements it waited on), and in the same run two
// baselines on a sample of the watches: the plain pg_trgm query and a naive scorer that decides
// every record in JS. Recall is measured on variants of the watched names (every variant kind of
// docs/matching.md) planted in the register. It also reports the database's size on disk after
// the import, the memory of the service (this process) and of the PostgreSQL backends during the
// import and the scans, and the server settings that shape them. It prints a table (backend,
// metric, value, target, met?) and writes it to docs/benchmarks.md between
// <!-- bench:scan:start/end -->. It asserts nothing: timings depend on the machine.
//
// Register scale (10M records: BENCH_BACKENDS=postgres BENCH_RECORDS=10000000). Memory does not
// grow with the register: records are generated into the file, imported and read back in batches,
// and only the watches, their planted variants and per-watch figures are kept. Disk does: the file
// takes ~240 bytes per record (removed after the import), the database ~2.5 KB per record as
// measured on small registers (the run reports the real figure), and the server's WAL may grow to
// its max_wal_size besides; the free space is checked before the generation. Each phase prints
// its start and elapsed time, long ones a line per tenth with the rate, and the baselines default
// to fewer watches above 2,000,000 records (see their settings).
//
// Environment (all optional):
//   BENCH_DATABASE_URL          server for the scratch database tmw_bench_scan_<random>, dropped at
//                               the end (default: the local server through its Unix-domain socket in
//                               /var/run/postgresql if there is one, else 127.0.0.1:5432)
//   BENCH_BACKENDS              postgres,pglite (default both, in that order)
//   BENCH_RECORDS               register size on PostgreSQL (default 1000000)
//   BENCH_PGLITE_RECORDS        register size on PGlite (default 200000)
//   BENCH_WATCHES               watches of the full scan, each with planted variants (default 1000)
//   BENCH_INCREMENTAL_RECORDS   records imported before the incremental run (default 50000)
//   BENCH_INCREMENTAL_WATCHES   watches of the incremental run (default 10000)
//   BENCH_INCREMENTAL_PLANTED   watches with variants planted in that import (default 250)
//   BENCH_TRGM_SAMPLE           watches queried with the plain pg_trgm query (default 50; 20 above
//                               2,000,000 records, where its trigram index on every record takes
//                               minutes to build; 0 skips it, index included)
//   BENCH_NAIVE_WATCHES         watches scored by the naive scorer over every record (default 6;
//                               2 above 2,000,000 records: it decides every record for each, ~3 s
//                               per watch per million records; 0 skips it)
//   BENCH_SCAN_CONCURRENCY      scanner concurrency of the incremental run (default: the
//                               service's, 4 on PostgreSQL and 1 on PGlite; the full scan runs
//                               at 1 so that per-watch times are one scan's latency)
//   BENCH_BATCH                 importer batch size (default: the importer's own)
//   BENCH_SEED                  seed of every random draw (default 20240611)
//   BENCH_MARKOV_ORDER          order of the character model (default 4)
//   BENCH_EXPLAIN               1 (default): EXPLAIN ANALYZE the slowest candidate query; 0: skip
//   BENCH_INITIAL               0: the first import is an ordinary one, not `marks import
//                               --initial` (default 1: the indexes built after the load)
//   BENCH_DOCS                  0: do not write docs/benchmarks.md
//   BENCH_STANDBY_URL           a hot standby of the PostgreSQL server (streaming from it; the
//                               database name in the URL is replaced by the run's): the full scan
//                               is also measured reading the mirror from it, against the primary,
//                               on BENCH_STANDBY_WATCHES watches (default 200; lib/standby.ts)
//   BENCH_WORK_DIR              where the register files and PGlite's database are written, in a
//                               directory of their own removed at the end (default: the system's
//                               temporary directory; 10M records make a ~2.3 GB file)
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectPostgres, type Db, openDb } from '../src/data/db.ts';
import { highestChangeSeq } from '../src/data/repositories/marks.ts';
import { CANDIDATE_SETTINGS } from '../src/data/repositories/mirror-candidates.ts';
import { createLogger } from '../src/logger.ts';
import { bandThreshold } from '../src/matching/candidates.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
} from '../src/matching/decide.ts';
import { importRecordFiles } from '../src/mirror/import.ts';
import { liveOfStatusWord } from '../src/register/liveness.ts';
import { createScanner } from '../src/scan/scanner.ts';
import { migrateDatabase } from '../src/start/database.ts';
import {
  type BaselineWatch,
  naiveScorer,
  PLAIN_TRGM_THRESHOLD,
  plainTrigram,
} from './lib/baselines.ts';
import { onCleanup, runCleanups } from './lib/cleanups.ts';
import { databaseCpu, nodeCpuMs } from './lib/cpu.ts';
import {
  bytesText,
  type DatabaseSize,
  databaseSize,
  freeBytes,
  serverDataDirectory,
} from './lib/disk.ts';
import { FINDINGS } from './lib/findings.ts';
import { importStepCosts, profileImport } from './lib/import-profile.ts';
import { countScans, instrument, type WatchTiming } from './lib/instrument.ts';
import { readMarkTexts } from './lib/mark-texts.ts';
import { table, writeSection } from './lib/markdown.ts';
import { type MarkModel, trainMarkModel } from './lib/markov.ts';
import { backendPidsOf, type PhaseMemory, sampleMemory } from './lib/memory.ts';
import { benchServerUrl, connectionLabel, isLocalServer } from './lib/postgres-server.ts';
import { duration, phase, pollProgress, stamp, tenths } from './lib/progress.ts';
import { mulberry32, random } from './lib/random.ts';
import {
  registerGenerator,
  type SyntheticRecord,
  type WatchSpec,
  writeRegisterFile,
} from './lib/register.ts';
import { machineDescription, type ResultRow, resultsTable } from './lib/report.ts';
import { standbyAgainstPrimary, standbyDatabaseUrl } from './lib/standby.ts';
import { fmt, mean, pct, quantile, sum } from './lib/stats.ts';
import {
  isBrandLike,
  VARIANT_KINDS,
  type VariantKind,
  variantGenerators,
  vocabularyOf,
} from './lib/variants.ts';
import { insertOwner, insertWatches, pairsWithHits } from './lib/watches.ts';

type Backend = 'postgres' | 'pglite';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return Math.floor(value);
}

const settings = {
  serverUrl: benchServerUrl(),
  backends: (process.env.BENCH_BACKENDS ?? 'postgres,pglite')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== ''),
  records: {
    postgres: envNumber('BENCH_RECORDS', 1_000_000),
    pglite: envNumber('BENCH_PGLITE_RECORDS', 200_000),
  },
  watches: envNumber('BENCH_WATCHES', 1000),
  incrementalRecords: envNumber('BENCH_INCREMENTAL_RECORDS', 50_000),
  incrementalWatches: envNumber('BENCH_INCREMENTAL_WATCHES', 10_000),
  incrementalPlanted: envNumber('BENCH_INCREMENTAL_PLANTED', 250),
  concurrency: process.env.BENCH_SCAN_CONCURRENCY
    ? Math.max(1, envNumber('BENCH_SCAN_CONCURRENCY', 1))
    : null,
  batch: process.env.BENCH_BATCH ? envNumber('BENCH_BATCH', 2000) : undefined,
  seed: envNumber('BENCH_SEED', 20_240_611),
  order: Math.max(1, envNumber('BENCH_MARKOV_ORDER', 4)),
  explain: process.env.BENCH_EXPLAIN !== '0',
  docs: process.env.BENCH_DOCS !== '0',
  initial: process.env.BENCH_INITIAL !== '0',
  standbyUrl: process.env.BENCH_STANDBY_URL || null,
  standbyWatches: envNumber('BENCH_STANDBY_WATCHES', 200),
};
for (const b of settings.backends) {
  if (b !== 'postgres' && b !== 'pglite') throw new Error(`BENCH_BACKENDS: unknown backend ${b}`);
}

/**
 * Above this many records the baselines default to smaller samples. Both grow with the register
 * and measure nothing the service does: the naive scorer decides every record for each of its
 * watches (~3 s per watch per million records), and the plain query needs a trigram index on every
 * record, built for it alone. Their per-watch figures need only a few watches.
 */
const LARGE_REGISTER = 2_000_000;

/** A baseline's number of watches and, unless it is the usual default, where it comes from. */
type BaselineSize = { count: number; why: string };

function baselineSize(name: string, usual: number, large: number, records: number): BaselineSize {
  const raw = process.env[name];
  if (raw !== undefined && raw !== '') {
    const count = Math.min(envNumber(name, usual), settings.watches);
    return { count, why: `${name}=${count}` };
  }
  return records > LARGE_REGISTER
    ? {
        count: Math.min(large, settings.watches),
        why: `the default above ${fmt(LARGE_REGISTER, 0)} records; ${name} sets it, 0 skips`,
      }
    : { count: Math.min(usual, settings.watches), why: '' };
}

const baselineSizes = (records: number) => ({
  trgm: baselineSize('BENCH_TRGM_SAMPLE', 50, 20, records),
  naive: baselineSize('BENCH_NAIVE_WATCHES', 6, 2, records),
});
// Read now, so that a bad value stops the run before anything is generated.
const baselines = {
  postgres: baselineSizes(settings.records.postgres),
  pglite: baselineSizes(settings.records.pglite),
};
const because = (why: string) => (why === '' ? '' : ` (${why})`);

const TARGETS = {
  importRate: 20_000,
  p50: 20,
  p99: 100,
  incrementalSeconds: 60,
  speedup: 20,
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(root, 'docs/benchmarks.md');

const log = (line = '') => console.log(line);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// The register file (~240 bytes per record) and PGlite's data go here: a /tmp in RAM (tmpfs) would
// hold a 10M-record file in memory, hence the setting.
const workParent = process.env.BENCH_WORK_DIR || tmpdir();
mkdirSync(workParent, { recursive: true });
const workDir = mkdtempSync(join(workParent, 'tmw-bench-scan-'));
// Not a cleanup: those run after each backend, and the next backend still needs the directory.
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------------------
// The model and the watched names, shared by both backends.

const texts = readMarkTexts();
const trainStart = performance.now();
const model: MarkModel = trainMarkModel(texts, settings.order);
const vocabulary = vocabularyOf(texts);
const trainMs = performance.now() - trainStart;

/** Watched names: brand-like real texts in a seeded order, then generated brand-like ones. */
function watchNames(count: number): string[] {
  const rnd = random(mulberry32(settings.seed ^ 0x5eed));
  const names = rnd.shuffle(texts.filter(isBrandLike));
  while (names.length < count) {
    const t = model.text(rnd.next);
    if (isBrandLike(t)) names.push(t);
  }
  return names.slice(0, count);
}

type Planted = {
  watchIndex: number;
  kind: VariantKind;
  externalId: string;
  text: string;
  record: SyntheticRecord;
};

/** One variant per kind (those that apply) of each given watch, as register records. */
function plantVariants(
  specs: readonly WatchSpec[],
  watchIndexes: readonly number[],
  generator: ReturnType<typeof registerGenerator>,
  rnd: ReturnType<typeof random>,
): { records: SyntheticRecord[]; planted: Planted[]; dead: Planted[] } {
  const { generators, applies } = variantGenerators(rnd, vocabulary);
  const records: SyntheticRecord[] = [];
  const planted: Planted[] = [];
  const dead: Planted[] = [];
  for (const watchIndex of watchIndexes) {
    const spec = specs[watchIndex] as WatchSpec;
    for (const kind of VARIANT_KINDS) {
      for (let attempt = 0; attempt < 6; attempt++) {
        const text = generators[kind](spec.name);
        if (text === null || !applies(kind, spec.name, text)) continue;
        const record = generator.plantFor(spec, text);
        records.push(record);
        // A variant on a refused, withdrawn or expired record threatens nobody: the scan must
        // raise nothing for it, so it counts apart from the recall.
        const variant = { watchIndex, kind, externalId: record.externalId, text, record };
        (liveOfStatusWord(record.status) === false ? dead : planted).push(variant);
        break;
      }
    }
  }
  return { records, planted, dead };
}

type KindRecall = Map<VariantKind, { total: number; found: number }>;

function recallByKind(planted: readonly Planted[], found: (p: Planted) => boolean): KindRecall {
  const out: KindRecall = new Map(VARIANT_KINDS.map((k) => [k, { total: 0, found: 0 }]));
  for (const p of planted) {
    const s = out.get(p.kind) as { total: number; found: number };
    s.total++;
    if (found(p)) s.found++;
  }
  return out;
}
const totalOf = (r: KindRecall) => sum([...r.values()].map((s) => s.total));
const foundOf = (r: KindRecall) => sum([...r.values()].map((s) => s.found));
const recallText = (r: KindRecall) =>
  `${pct(foundOf(r), totalOf(r))} (${foundOf(r)}/${totalOf(r)})`;

// ---------------------------------------------------------------------------------------------
// Databases.

let postgresVersion: string | null = null;

/**
 * The server settings that shape an import and scans of this size: memory for the shared cache,
 * sorts and index builds, how often and how much WAL is written and flushed. And autovacuum, which
 * decides whether anything vacuums the mirror between the import and the scans.
 */
const RUN_SETTINGS = [
  'shared_buffers',
  'work_mem',
  'maintenance_work_mem',
  'max_wal_size',
  'checkpoint_timeout',
  'wal_compression',
  'synchronous_commit',
  'autovacuum',
];
const runSettings = new Map<Backend, Map<string, string>>();

async function readRunSettings(db: Db, backend: Backend): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; value: string }>(
    'SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name',
    [RUN_SETTINGS],
  );
  const values = new Map(rows.map((r) => [r.name, r.value]));
  runSettings.set(backend, values);
  return values;
}

const settingsText = (values: Map<string, string>) =>
  [...values].map(([name, value]) => `${name} ${value}`).join(', ');

type OpenedBackend = {
  db: Db;
  /** PGlite's data directory (its size is the database's size on disk); null on a server. */
  pgliteDir: string | null;
  /** The server processes serving the scratch database; null for PGlite or a remote server. */
  backendPids: (() => Promise<number[]>) | null;
  /** The scratch database's name on the server; null for PGlite. */
  name: string | null;
};

async function openBackend(backend: Backend): Promise<OpenedBackend> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(join(workDir, 'pglite-'));
    const db = await openDb({ dataDir: dir });
    onCleanup(() => db.close());
    await migrateDatabase(db);
    return { db, pgliteDir: dir, backendPids: null, name: null };
  }
  const admin = connectPostgres(settings.serverUrl, { max: 1, onnotice: () => {} });
  const name = `tmw_bench_scan_${randomBytes(6).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  onCleanup(async () => {
    const t0 = performance.now();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end({ timeout: 5 });
    log(`[${stamp()}] dropped database ${name} in ${duration(performance.now() - t0)}`);
  });
  const url = new URL(settings.serverUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), dataDir: '' });
  onCleanup(() => db.close());
  const version = await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  postgresVersion = version[0]?.v ?? null;
  await migrateDatabase(db);
  log(`scratch database ${name}`);
  const backendPids = isLocalServer(settings.serverUrl)
    ? backendPidsOf(
        async (sql, params) =>
          Array.from(await admin.unsafe(sql, params as never[])) as { pid: number }[],
        name,
      )
    : null;
  return { db, pgliteDir: null, backendPids, name };
}

/** What "the rest" of the database size is: its largest tables, and PGlite's WAL. */
function restText(size: DatabaseSize): string {
  const parts: string[] = [];
  if (size.others.length > 0) {
    parts.push(
      `largest: ${size.others.map((o) => `${o.name} ${bytesText(o.bytes)}`).join(', ')}, each with its indexes`,
    );
  }
  if (size.pgliteWal !== null) parts.push(`PGlite’s WAL ${bytesText(size.pgliteWal)}`);
  return parts.join('; ');
}

/** Register file bytes per record (238 on the 1M-record runs). */
const FILE_BYTES_PER_RECORD = 240;
/**
 * Database bytes per record, marks and its indexes (2,200-2,700 measured on 20,000-30,000
 * records): only a guess for a large register, whose figure the run itself reports.
 */
const DB_BYTES_PER_RECORD = 2500;

/** Says how much disk the run will want and where it is free; warns when it looks short. */
async function checkDisk(db: Db, backend: Backend, records: number, localServer: boolean) {
  const fileNeed = records * FILE_BYTES_PER_RECORD;
  const dbNeed = records * DB_BYTES_PER_RECORD;
  const dataDir =
    backend === 'pglite' ? workDir : localServer ? await serverDataDirectory(db) : null;
  const places = [{ what: 'register file', path: workDir, need: fileNeed }];
  if (dataDir !== null) places.push({ what: 'database', path: dataDir, need: dbNeed });
  // Places on one file system share its free space.
  const byDevice = new Map<
    number,
    { free: number | null; need: number; what: string[]; paths: Set<string> }
  >();
  for (const p of places) {
    let dev: number;
    try {
      dev = statSync(p.path).dev;
    } catch {
      continue;
    }
    const entry = byDevice.get(dev) ?? {
      free: freeBytes(p.path),
      need: 0,
      what: [],
      paths: new Set<string>(),
    };
    entry.need += p.need;
    entry.what.push(p.what);
    entry.paths.add(p.path);
    byDevice.set(dev, entry);
  }
  for (const entry of byDevice.values()) {
    const short = entry.free !== null && entry.free < entry.need;
    log(
      `[${stamp()}] disk: ${entry.free === null ? 'free space unknown' : `${bytesText(entry.free)} free`} for the ${entry.what.join(' and the ')} (${[...entry.paths].join(', ')}); this run wants about ${bytesText(entry.need)} there (${FILE_BYTES_PER_RECORD} bytes per record for the file, ~${fmt(DB_BYTES_PER_RECORD, 0)} for the database${backend === 'postgres' ? ', and the server’s WAL may grow to max_wal_size besides' : ''})${short ? ' — WARNING: that looks short' : ''}`,
    );
  }
}

/** EXPLAIN ANALYZE of a candidate query as the scanner ran it (same SQL, parameters, threshold). */
async function explain(db: Db, timing: WatchTiming, threshold: number): Promise<string> {
  const rows = await db.transaction(async (tx) => {
    await tx.query(CANDIDATE_SETTINGS, [String(threshold)]);
    return tx.query<Record<string, string>>(
      `EXPLAIN (ANALYZE, BUFFERS) ${timing.candidateSql}`,
      timing.candidateParams,
    );
  });
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

const MEMORY_NOTE = `How to read the memory rows. The service's RSS is sampled every 0.5 s, and the process's lifetime peak (maxRSS) counts for a phase when it rose during it. The PostgreSQL rows come from /proc/<pid>/status of the server processes serving the benchmark's database (pids from pg_stat_activity), sampled every 0.5 s. RssAnon is memory a backend holds alone (sorts and hashes up to work_mem, catalog and plan caches, COPY buffers): it is summed, since every connection adds its own, and a backend keeps it until it exits, so a later phase on the same connections includes what earlier ones left. RssShmem is the part of the server's shared memory (shared_buffers, mostly) that a backend has touched: all backends count the same pages, so it is not summed; the largest backend's figure is a floor of the shared memory in use and shared_buffers its ceiling, allocated once for the whole server.`;

/** The memory rows: the service, then the server's private and shared memory. */
function memoryRows(
  backend: Backend,
  phases: readonly PhaseMemory[],
  sharedBuffers: string,
  serverSampled: boolean,
): [string, string][] {
  const each = (pick: (m: PhaseMemory) => number) =>
    phases.map((m) => bytesText(pick(m))).join(' / ');
  const during = 'peak in import / full scan / incremental run';
  const rows: [string, string][] = [
    [
      `service memory (RSS of this process: importer and scanner): ${during}`,
      `${each((m) => m.service.peakRss)} (V8 heap used at most ${each((m) => m.service.peakHeapUsed)}; outside it ${backend === 'pglite' ? '(PGlite’s WebAssembly memory, buffers)' : '(buffers)'} ${each((m) => m.service.peakExternal)}; RSS ${bytesText((phases[0] as PhaseMemory).service.startRss)} before the import${backend === 'pglite' ? '; PGlite’s PostgreSQL runs in this process and is counted here' : ''})`,
    ],
  ];
  if (backend === 'pglite') return rows;
  const pg = phases.map((m) => m.postgres);
  if (!serverSampled || pg.some((p) => p === null)) {
    rows.push([
      'PostgreSQL memory',
      `not measured (${serverSampled ? '/proc of the server processes not readable' : 'the server is not on this machine'}); shared_buffers ${sharedBuffers}`,
    ]);
    return rows;
  }
  const of = (pick: (p: NonNullable<PhaseMemory['postgres']>) => number, text = bytesText) =>
    pg.map((p) => text(pick(p as NonNullable<PhaseMemory['postgres']>))).join(' / ');
  rows.push(
    [
      `PostgreSQL private memory (RssAnon summed over the benchmark’s backends): ${during}`,
      `${of((p) => p.privatePeak)} (backends at once, at most: ${of((p) => p.backends, String)}; the largest one ${of((p) => p.privateLargest)})`,
    ],
    [
      `PostgreSQL shared memory touched (RssShmem of the largest backend): ${during}`,
      `${of((p) => p.sharedLargest)} (shared_buffers ${sharedBuffers}, allocated once for the whole server)`,
    ],
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------

type BackendResult = { rows: ResultRow[]; notes: string[] };

async function runBackend(backend: Backend): Promise<BackendResult> {
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const row = (metric: string, value: string, target = '', met: boolean | null = null) => {
    rows.push({ backend, metric, value, target, met });
    log(`  ${metric}: ${value}${target ? `  (target ${target}: ${met ? 'met' : 'MISSED'})` : ''}`);
  };
  const targeted = backend === 'postgres';
  const total = settings.records[backend];
  const rnd = random(mulberry32(settings.seed));
  const generator = registerGenerator(model, rnd);
  log(`\n=== ${backend}: ${total.toLocaleString('en')} records ===`);

  // Watches: the first `watches` are scanned in full; the incremental run covers all of them.
  const watchCount = Math.max(settings.watches, settings.incrementalWatches);
  let step = phase(`watched names and planted variants (${fmt(watchCount, 0)} watches)`);
  const specs = watchNames(watchCount).map((name) => generator.watch(name));
  const fullIndexes = specs.slice(0, settings.watches).map((_, i) => i);
  const initial = plantVariants(specs, fullIndexes, generator, rnd);
  step.done(`${initial.records.length} planted variants`);

  // 1. Generate the register file, then import it through the real importer. The database is
  // opened first: a server that cannot be reached, or a disk too small, is better known before a
  // long generation than after it.
  const file = join(workDir, `${backend}-register.jsonl`);
  const localServer = isLocalServer(settings.serverUrl);
  step = phase(`open the ${backend} database and migrate`);
  const { db, pgliteDir, backendPids, name: databaseName } = await openBackend(backend);
  step.done();
  const serverSettings = await readRunSettings(db, backend);
  log(
    `[${stamp()}] ${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'} settings: ${settingsText(serverSettings)}`,
  );
  await checkDisk(db, backend, total, localServer);
  step = phase(`generate the register file (${fmt(total, 0)} records) in ${file}`);
  const bytes = writeRegisterFile(
    file,
    total,
    generator,
    initial.records,
    rnd,
    tenths('generate', total, 'records'),
  );
  const generateMs = step.done(`${fmt(bytes / 2 ** 20, 0)} MiB`);
  row(
    'generate register (JSON Lines)',
    `${seconds(generateMs)} (${fmt(bytes / 2 ** 20, 0)} MiB, ${fmt(total / (generateMs / 1000), 0)} records/s, ${initial.records.length} planted variants)`,
  );

  const profiled = profileImport(db, localServer);
  await profiled.start();
  step = phase(`import ${fmt(total, 0)} records through the real importer`);
  // The reader reports bytes; records are estimated from them (lines are of similar length).
  const importProgress = tenths('import (records estimated from the bytes read)', total, 'records');
  let fileRead = false;
  const importSampler = sampleMemory(backendPids);
  let t0 = performance.now();
  const summary = await importRecordFiles(profiled.db, [file], {
    batchSize: settings.batch,
    initial: settings.initial,
    onProgress: (p) => {
      importProgress((p.bytesRead / Math.max(1, p.totalBytes)) * total);
      if (p.bytesRead >= p.totalBytes && !fileRead) {
        fileRead = true;
        log(
          `[${stamp()}]   import: file read after ${duration(performance.now() - t0)}; the last batches, ${settings.initial ? 'the index build and the word count' : 'the GIN pending-list merge'} and ANALYZE follow`,
        );
      }
    },
  });
  const importMs = performance.now() - t0;
  const importMemory = await importSampler.stop();
  step.done();
  const importProfile = await profiled.finish(total);
  if (summary.errors.length > 0 || summary.imported !== total) {
    throw new Error(
      `import: ${summary.imported} of ${total} imported, errors ${JSON.stringify(summary.errors.slice(0, 3))}`,
    );
  }
  const importRate = total / (importMs / 1000);
  row(
    settings.initial
      ? 'import rate (marks import --initial; includes building the indexes, counting the words and ANALYZE)'
      : 'import rate (real importer; includes its final GIN pending-list merge and ANALYZE)',
    `${fmt(importRate, 0)} records/s (${seconds(importMs)})`,
    targeted ? `≥ ${fmt(TARGETS.importRate, 0)} records/s` : '',
    targeted ? importRate >= TARGETS.importRate : null,
  );
  row('import: where the time goes', importProfile);
  const tenthRates = importProgress.perTenth();
  if (tenthRates.length >= 2) {
    // Whether the rate holds as the table and its indexes grow, or falls once they outgrow the
    // cache: the average alone cannot tell.
    row(
      'import: records/s in each tenth of the file, as read (the last batches, GIN merge and ANALYZE after)',
      tenthRates.map((r) => fmt(r, 0)).join(', '),
    );
  }
  step = phase('database size on disk');
  const size = await databaseSize(db, pgliteDir);
  step.done();
  row(
    `database size on disk after the import (${pgliteDir === null ? 'pg_database_size' : 'PGlite’s data directory'})`,
    `${bytesText(size.total)}: marks table ${bytesText(size.marksTable)}, its ${size.indexes.length} indexes ${bytesText(size.marksIndexes)}, the rest ${bytesText(size.rest)} (${restText(size)}); ${fmt(size.total / total, 0)} bytes per record${size.serverWal === null ? '' : ` (besides the server’s WAL, shared by its databases: ${bytesText(size.serverWal)})`}`,
  );
  const indexSizes = `Indexes of marks on ${backend} after importing ${fmt(total, 0)} records: ${size.indexes.map((i) => `${i.name} ${bytesText(i.bytes)}`).join(', ')}.`;
  log(`  ${indexSizes}`);
  notes.push(indexSizes);
  step = phase('CPU cost of the importer’s JS steps, on the first 20,000 records');
  const steps = importStepCosts(file);
  rmSync(file, { force: true });
  step.done();
  const stepText = Object.entries(steps)
    .map(([step, us]) => `${step} ${us.toFixed(1)}`)
    .join(', ');
  row('import: CPU µs per record of the importer’s JS steps', stepText);
  if (targeted && importRate < TARGETS.importRate) {
    notes.push(
      `Import on ${backend} below target: ${importProfile}. The importer's JS steps cost (CPU µs per record): ${stepText}.`,
    );
  }

  // 2. Full scan of the first watches through the real scanner, one at a time.
  step = phase(`insert ${fmt(settings.watches, 0)} watches`);
  const ownerId = await insertOwner(db);
  const fullSpecs = specs.slice(0, settings.watches);
  const fullIds = await insertWatches(db, ownerId, fullSpecs, { kind: 'new' });
  step.done();
  const instrumented = instrument(db);
  const logger = createLogger('error');
  const fullScanner = createScanner({
    db: instrumented.db,
    logger,
    publicUrl: 'http://localhost:3000',
    leaseSeconds: 3600,
    concurrency: 1,
  });
  step = phase(`full scan of ${fmt(fullIds.length, 0)} watches, one at a time`);
  const stopFullProgress = pollProgress(
    () => instrumented.timings.length,
    tenths('full scan', fullIds.length, 'watches'),
  );
  const fullSampler = sampleMemory(backendPids);
  t0 = performance.now();
  const fullTotals = await fullScanner.scan({ watchIds: fullIds }).finally(stopFullProgress);
  const fullMs = performance.now() - t0;
  const fullMemory = await fullSampler.stop();
  step.done();
  const timings = instrumented.timings;
  const per = timings.map((t) => t.totalMs);
  const p50 = quantile(per, 0.5);
  const p99 = quantile(per, 0.99);
  if (fullTotals.watchesScanned !== fullIds.length || timings.length !== fullIds.length) {
    throw new Error(
      `full scan: ${fullTotals.watchesScanned} of ${fullIds.length} watches scanned, ${timings.length} timed`,
    );
  }
  const candidates = (
    await db.query<{ n: number }>(
      `SELECT candidates_examined AS n FROM scan_runs WHERE mode = 'full' AND error IS NULL`,
    )
  ).map((r) => r.n);
  row(
    `full scan of ${fullIds.length} watches: total`,
    `${seconds(fullMs)} (${fmt(fullTotals.alertsCreated, 0)} alerts)`,
  );
  row(
    'full scan: p50 per watch',
    `${fmt(p50, 1)} ms`,
    targeted ? `≤ ${TARGETS.p50} ms` : '',
    targeted ? p50 <= TARGETS.p50 : null,
  );
  row(
    'full scan: p99 per watch',
    `${fmt(p99, 1)} ms`,
    targeted ? `≤ ${TARGETS.p99} ms` : '',
    targeted ? p99 <= TARGETS.p99 : null,
  );
  const p50p99 = (pick: (t: WatchTiming) => number) =>
    `${fmt(quantile(timings.map(pick), 0.5), 1)}/${fmt(quantile(timings.map(pick), 0.99), 1)}`;
  const phases =
    `candidate query ${p50p99((t) => t.candidateMs)} ms, commit ${p50p99((t) => t.commitMs)} ms, ` +
    `decisions and rest ${p50p99((t) => t.otherMs)} ms (p50/p99; of it other statements ${p50p99((t) => t.otherSqlMs)} ms); candidates per watch ` +
    `${fmt(quantile(candidates, 0.5), 0)}/${fmt(quantile(candidates, 0.99), 0)}/${fmt(Math.max(...candidates), 0)} (p50/p99/max)`;
  row('full scan: where the time goes', phases);

  step = phase('recall on the planted variants');
  const plantedIds = initial.planted.map((p) => p.externalId);
  const hitPairs = await pairsWithHits(db, plantedIds);
  const scanFound = (p: Planted) => hitPairs.has(`${fullIds[p.watchIndex]}|${p.externalId}`);
  const scanRecall = recallByKind(initial.planted, scanFound);
  row('full scan: recall on planted variants', recallText(scanRecall));
  const deadHits = await pairsWithHits(
    db,
    initial.dead.map((p) => p.externalId),
  );
  row(
    'full scan: planted variants on dead records (refused, withdrawn, expired), which must raise nothing',
    `${initial.dead.length} planted, ${initial.dead.filter((p) => deadHits.has(`${fullIds[p.watchIndex]}|${p.externalId}`)).length} raised`,
  );
  // Every planted variant the decision accepts must have been found: otherwise the candidate
  // query missed it (the keys must retrieve a superset of what the decision accepts).
  const preparedCache = new Map<number, PreparedWatch>();
  const preparedOf = (index: number): PreparedWatch => {
    let p = preparedCache.get(index);
    if (p === undefined) {
      const spec = specs[index] as WatchSpec;
      p = prepareWatch({
        name: spec.name,
        niceClasses: spec.niceClasses,
        designations: spec.designations,
      });
      preparedCache.set(index, p);
    }
    return p;
  };
  const accepted = (p: Planted) =>
    decideConflictPrepared(preparedOf(p.watchIndex), {
      ...p.record,
      designations: p.record.designations ?? [],
    }).conflict;
  const decisionRecall = recallByKind(initial.planted, accepted);
  const missedByQuery = initial.planted.filter((p) => accepted(p) && !scanFound(p));
  row(
    'full scan: planted variants the decision accepts but the candidate query missed',
    missedByQuery.length === 0
      ? `none (decision alone: ${recallText(decisionRecall)})`
      : `**${missedByQuery.length}**: ${missedByQuery
          .slice(0, 8)
          .map((p) => `${(specs[p.watchIndex] as WatchSpec).name} / ${p.text}`)
          .join('; ')}`,
  );
  step.done();

  // 2b. The same full scans reading the mirror from a hot standby, against the primary.
  if (settings.standbyUrl !== null && databaseName !== null && settings.standbyWatches > 0) {
    const standbySpecs = fullSpecs.slice(0, settings.standbyWatches);
    step = phase(
      `full scans of ${fmt(standbySpecs.length, 0)} watches through the standby and the primary, in turn`,
    );
    const compared = await standbyAgainstPrimary({
      db,
      standbyUrl: standbyDatabaseUrl(settings.standbyUrl, databaseName),
      ownerId,
      specs: standbySpecs,
      logger,
    });
    step.done();
    for (const [metric, value] of compared) row(metric, value);
  }

  // 3. Baselines on a sample of the same watches and their planted variants.
  const sizes = baselines[backend];
  log(
    `[${stamp()}] baselines on ${backend}: plain pg_trgm on ${sizes.trgm.count} watches${because(sizes.trgm.why)}, naive scorer on ${sizes.naive.count}${because(sizes.naive.why)}`,
  );
  const sample = (n: number): BaselineWatch[] =>
    fullSpecs.slice(0, n).map((spec, i) => ({
      watchId: fullIds[i] as string,
      prepared: prepareWatch({
        name: spec.name,
        niceClasses: spec.niceClasses,
        designations: spec.designations,
      }),
    }));
  const inSample = (ids: Set<string>) => (p: Planted) => ids.has(fullIds[p.watchIndex] as string);
  const trgmWatches = sample(sizes.trgm.count);
  const trgmSet = new Set(trgmWatches.map((w) => w.watchId));
  const trgmPlanted = initial.planted.filter(inSample(trgmSet));
  const scanOnTrgmSample = recallByKind(trgmPlanted, scanFound);
  let trgmRecall: KindRecall | null = null;
  if (trgmWatches.length === 0) {
    row('plain pg_trgm query', `skipped${because(sizes.trgm.why)}`);
  } else {
    // The plain query needs a trigram index on all of compact_text (the service's own trigram
    // indexes are partial, by length bucket): built for the comparison, dropped after it.
    step = phase('plain pg_trgm baseline: build its trigram index on all of compact_text');
    await db.exec(
      'CREATE INDEX bench_plain_trgm_idx ON marks USING gin (compact_text gin_trgm_ops)',
    );
    const plainIndexMs = step.done();
    step = phase(`plain pg_trgm baseline: query ${trgmWatches.length} watches`);
    const trgm = await plainTrigram(db, trgmWatches);
    await db.exec('DROP INDEX bench_plain_trgm_idx');
    step.done();
    const trgmFound = new Map(trgm.map((r) => [r.watchId, r.externalIds]));
    const recall = recallByKind(trgmPlanted, (p) =>
      (trgmFound.get(fullIds[p.watchIndex] as string) as Set<string>).has(p.externalId),
    );
    trgmRecall = recall;
    const trgmMs = trgm.map((r) => r.ms);
    const sampleScanMs = timings.filter((t) => trgmSet.has(t.watchId)).map((t) => t.totalMs);
    row(
      `plain pg_trgm query (% at ${PLAIN_TRGM_THRESHOLD} + classes &&), ${trgm.length} watches${because(sizes.trgm.why)}: p50/p99`,
      `${fmt(quantile(trgmMs, 0.5), 1)}/${fmt(quantile(trgmMs, 0.99), 1)} ms (the real scan on the same watches: ${fmt(quantile(sampleScanMs, 0.5), 1)}/${fmt(quantile(sampleScanMs, 0.99), 1)} ms; its full trigram index built in ${seconds(plainIndexMs)})`,
    );
    row('plain pg_trgm query: recall on the same planted variants', recallText(recall));
    const betterRecall = foundOf(scanOnTrgmSample) > foundOf(recall);
    row(
      'real scan: recall on the same planted variants',
      recallText(scanOnTrgmSample),
      targeted ? 'higher than pg_trgm' : '',
      targeted ? betterRecall : null,
    );
  }

  const naiveWatches = sample(sizes.naive.count);
  if (naiveWatches.length === 0) {
    row('naive scorer', `skipped${because(sizes.naive.why)}`);
  } else {
    const naiveSet = new Set(naiveWatches.map((w) => w.watchId));
    step = phase(`naive scorer: every record against ${naiveWatches.length} watches`);
    const naive = await naiveScorer(db, naiveWatches, tenths('naive scorer', total, 'records'));
    step.done();
    const naivePerWatch = naive.wallMs / naiveWatches.length;
    const scanOnNaive = timings.filter((t) => naiveSet.has(t.watchId)).map((t) => t.totalMs);
    const speedup = naivePerWatch / mean(scanOnNaive);
    const naivePlanted = initial.planted.filter(inSample(naiveSet));
    const naiveRecall = recallByKind(naivePlanted, (p) =>
      (naive.hits.get(fullIds[p.watchIndex] as string) as Set<string>).has(p.externalId),
    );
    const scanOnNaiveSample = recallByKind(naivePlanted, scanFound);
    const decisionOnTrgmSample = recallByKind(trgmPlanted, accepted);
    row(
      `naive scorer (decideConflictPrepared on all ${fmt(naive.records, 0)} records), ${naiveWatches.length} watches${because(sizes.naive.why)}`,
      `${fmt(naivePerWatch / 1000, 2)} s per watch (${fmt((1000 * naive.decideMs) / (naive.records * naiveWatches.length), 2)} µs per decision)`,
    );
    row(
      'naive scorer: recall on its watches’ planted variants',
      `${recallText(naiveRecall)}; real scan ${recallText(scanOnNaiveSample)}${trgmWatches.length > 0 ? `; on the ${trgmWatches.length}-watch sample the naive scorer’s decision finds ${recallText(decisionOnTrgmSample)}` : ''}`,
    );
    row(
      'speed-up of the real scan over the naive scorer (same watches)',
      `${fmt(speedup, 0)}×`,
      targeted ? `≥ ${TARGETS.speedup}×` : '',
      targeted ? speedup >= TARGETS.speedup : null,
    );
  }

  const cell = (r: KindRecall, k: VariantKind) => {
    const s = r.get(k) as { total: number; found: number };
    return `${pct(s.found, s.total)} of ${s.total}`;
  };
  const kindTable =
    trgmRecall === null
      ? table(
          ['variant kind', 'real scan, all watches'],
          VARIANT_KINDS.map((k) => [k, cell(scanRecall, k)]),
          [false, true],
        )
      : table(
          [
            'variant kind',
            'real scan, all watches',
            `real scan, ${trgmWatches.length}-watch sample`,
            'plain pg_trgm, same sample',
          ],
          VARIANT_KINDS.map((k) => [
            k,
            cell(scanRecall, k),
            cell(scanOnTrgmSample, k),
            cell(trgmRecall as KindRecall, k),
          ]),
          [false, true, true, true],
        );
  log(`\nRecall by variant kind (${backend}):\n${kindTable}`);
  notes.push(`Recall by variant kind on ${backend}:\n\n${kindTable}`);

  // Where a latency target is missed: the slowest candidate query, explained.
  const slowest = [...timings].sort((a, b) => b.candidateMs - a.candidateMs)[0];
  if (settings.explain && slowest !== undefined && slowest.candidateSql !== '') {
    const index = fullIds.indexOf(slowest.watchId);
    const spec = fullSpecs[index] as WatchSpec;
    const prepared = prepareWatch({
      name: spec.name,
      niceClasses: spec.niceClasses,
      designations: spec.designations,
    });
    step = phase('EXPLAIN ANALYZE of the slowest candidate query');
    const plan = await explain(db, slowest, bandThreshold(prepared));
    step.done();
    const heading = `Slowest candidate query on ${backend}: watch "${spec.name}" (classes ${spec.niceClasses.join(',')}; ${spec.designations.join(',')}), ${fmt(slowest.candidateMs, 1)} ms in the scan, ${slowest.totalMs.toFixed(1)} ms for the whole watch`;
    log(`\n${heading}\n${plan}`);
    if (targeted && (p99 > TARGETS.p99 || p50 > TARGETS.p50)) {
      notes.push(`${heading}:\n\n\`\`\`\n${plan}\n\`\`\``);
    }
  }

  // 4. Incremental run: more watches (already scanned up to now), a new import, one run.
  step = phase(
    `insert ${fmt(Math.max(0, settings.incrementalWatches - settings.watches), 0)} more watches, already scanned`,
  );
  const highWater = await highestChangeSeq(db);
  const extraSpecs = specs.slice(settings.watches, settings.incrementalWatches);
  const extraIds = await insertWatches(db, ownerId, extraSpecs, {
    kind: 'scanned',
    scannedSeq: highWater,
  });
  step.done();
  const allIds = [...fullIds, ...extraIds];
  const incrementalIndexes = rnd
    .shuffle(allIds.map((_, i) => i))
    .slice(0, Math.min(settings.incrementalPlanted, allIds.length));
  const fresh = plantVariants(specs, incrementalIndexes, generator, rnd);
  const freshFile = join(workDir, `${backend}-new-records.jsonl`);
  step = phase(`generate ${fmt(settings.incrementalRecords, 0)} new records`);
  writeRegisterFile(freshFile, settings.incrementalRecords, generator, fresh.records, rnd);
  step.done();
  step = phase(`import the ${fmt(settings.incrementalRecords, 0)} new records`);
  t0 = performance.now();
  const freshSummary = await importRecordFiles(db, [freshFile], { batchSize: settings.batch });
  const freshImportMs = performance.now() - t0;
  step.done();
  rmSync(freshFile, { force: true });
  if (freshSummary.errors.length > 0) throw new Error('incremental import had errors');
  row(
    `import of ${fmt(settings.incrementalRecords, 0)} new records`,
    `${seconds(freshImportMs)} (${fmt(settings.incrementalRecords / (freshImportMs / 1000), 0)} records/s, ${fresh.records.length} planted variants)`,
  );

  const concurrency = settings.concurrency ?? (db.kind === 'postgres' ? 4 : 1);
  const counted = countScans(db);
  const incScanner = createScanner({
    db: counted.db,
    logger,
    publicUrl: 'http://localhost:3000',
    leaseSeconds: 3600,
    concurrency,
  });
  const before = new Date();
  step = phase(`incremental run of ${fmt(allIds.length, 0)} watches`);
  const stopIncProgress = pollProgress(
    counted.scanned,
    tenths('incremental run', allIds.length, 'watches'),
  );
  const incSampler = sampleMemory(backendPids);
  const incServerCpu = databaseCpu(db, localServer);
  const incCpu0 = { node: nodeCpuMs(), server: await incServerCpu.sample() };
  // A statement's time as the scanner sees it includes the wait for its own event loop, busy with
  // the other scans' decisions: the loop's delay says how much.
  const loopResolutionMs = 1;
  const incLoopDelay = monitorEventLoopDelay({ resolution: loopResolutionMs });
  incLoopDelay.enable();
  t0 = performance.now();
  const incTotals = await incScanner.scan({ watchIds: allIds }).finally(stopIncProgress);
  const incMs = performance.now() - t0;
  incLoopDelay.disable();
  const incNodeCpuMs = nodeCpuMs() - incCpu0.node;
  const incServerCpuMs = await incServerCpu.sample();
  const incMemory = await incSampler.stop();
  step.done();
  const modes = await db.query<{ mode: string; n: number; failed: number }>(
    `SELECT mode, count(*)::int AS n, count(error)::int AS failed FROM scan_runs
      WHERE started_at >= $1 GROUP BY mode ORDER BY mode`,
    [before],
  );
  const incRuns = await db.query<{ candidates: number }>(
    `SELECT candidates_examined AS candidates FROM scan_runs WHERE started_at >= $1`,
    [before],
  );
  /** CPU of both sides, and the statements the scans waited on longest (countScans). */
  const incrementalProfile = (): string => {
    const serverCpu =
      incServerCpuMs === null || incCpu0.server === null
        ? 'not read (the server is not on this machine)'
        : seconds(incServerCpuMs - incCpu0.server);
    const statements = counted.statements();
    const summed = sum(statements.filter((t) => !t.label.startsWith('(')).map((t) => t.ms));
    const top = statements
      .slice(0, 6)
      .map((t) => `${t.label} ${fmt(t.n, 0)}× ${seconds(t.ms)}`)
      .join('; ');
    // The histogram holds each interval of its timer in nanoseconds: the timer's own period
    // included, which is taken off.
    const late = (ns: number) => fmt(Math.max(0, ns / 1e6 - loopResolutionMs), 1);
    const loop = `${late(incLoopDelay.mean)} ms mean, ${late(incLoopDelay.percentile(99))} ms p99`;
    return `CPU: this process ${seconds(incNodeCpuMs)}, PostgreSQL backends ${serverCpu}; the event loop's delay ${loop}; statements, their times summed over the ${concurrency} concurrent scans (each with the event loop's delay in it): ${seconds(summed)} in all, the longest: ${top}`;
  };
  row(
    `incremental run of ${fmt(allIds.length, 0)} watches (concurrency ${concurrency})`,
    `${seconds(incMs)} (${fmt(incMs / allIds.length, 2)} ms per watch; runs ${modes.map((m) => `${m.mode} ${m.n}${m.failed ? `, ${m.failed} failed` : ''}`).join(', ')}; ${fmt(sum(incRuns.map((r) => r.candidates)), 0)} candidates)`,
    targeted ? `≤ ${TARGETS.incrementalSeconds} s` : '',
    targeted ? incMs <= TARGETS.incrementalSeconds * 1000 : null,
  );
  row('incremental run: where the time goes', incrementalProfile());
  const freshHits = await pairsWithHits(
    db,
    fresh.planted.map((p) => p.externalId),
  );
  const freshRecall = recallByKind(fresh.planted, (p) =>
    freshHits.has(`${allIds[p.watchIndex]}|${p.externalId}`),
  );
  const freshMissed = fresh.planted.filter(
    (p) => accepted(p) && !freshHits.has(`${allIds[p.watchIndex]}|${p.externalId}`),
  );
  row(
    'incremental run: alerts created; recall on the newly planted variants',
    `${fmt(incTotals.alertsCreated, 0)} alerts; ${recallText(freshRecall)} (decision alone ${recallText(recallByKind(fresh.planted, accepted))}; accepted but missed by the query: ${freshMissed.length})`,
  );
  const freshDeadHits = await pairsWithHits(
    db,
    fresh.dead.map((p) => p.externalId),
  );
  row(
    'incremental run: planted variants on dead records, which must raise nothing',
    `${fresh.dead.length} planted, ${fresh.dead.filter((p) => freshDeadHits.has(`${allIds[p.watchIndex]}|${p.externalId}`)).length} raised`,
  );

  // 5. Memory during the import, the full scan and the incremental run (see lib/memory.ts).
  for (const [metric, value] of memoryRows(
    backend,
    [importMemory, fullMemory, incMemory],
    serverSettings.get('shared_buffers') ?? '?',
    backendPids !== null,
  )) {
    row(metric, value);
  }
  return { rows, notes };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  log(
    `bench:scan — character model of order ${settings.order} trained on ${texts.length.toLocaleString('en')} real EUIPO texts (${model.contexts.toLocaleString('en')} contexts) in ${fmt(trainMs, 0)} ms; seed ${settings.seed}`,
  );
  const allRows: ResultRow[] = [];
  const notes: string[] = [];
  for (const backend of settings.backends as Backend[]) {
    try {
      const result = await runBackend(backend);
      allRows.push(...result.rows);
      notes.push(...result.notes);
    } finally {
      // The backend's database goes (dropped, or PGlite closed) before the next one starts.
      await runCleanups();
    }
  }
  const results = resultsTable(allRows);
  log(`\n${results}`);
  const missed = allRows.filter((r) => r.met === false);
  log(
    missed.length === 0
      ? '\nEvery target met.'
      : `\nTargets missed: ${missed.map((r) => `${r.backend} ${r.metric}`).join('; ')}`,
  );

  if (settings.docs) {
    const sizes = settings.backends
      .map((b) => `${b} ${settings.records[b as Backend].toLocaleString('en')} records`)
      .join(', ');
    const baselineText = settings.backends
      .map((b) => {
        const size = baselines[b as Backend];
        return `${b}: plain pg_trgm sample ${size.trgm.count} watches, naive scorer ${size.naive.count}`;
      })
      .join('; ');
    const markdown = [
      '## Register and scans (`npm run bench:scan`)',
      '',
      `Run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machineDescription(postgresVersion)}.`,
      `Sizes: ${sizes}; ${settings.watches} watches in the full scan, ${settings.incrementalWatches.toLocaleString('en')} in the incremental run after ${settings.incrementalRecords.toLocaleString('en')} new records; ${baselineText}; seed ${settings.seed}; PostgreSQL connected by ${connectionLabel(settings.serverUrl)}.`,
      `Server settings: ${[...runSettings].map(([b, values]) => `${b} ${settingsText(values)}`).join('; ')}.`,
      '',
      results,
      '',
      ...notes.flatMap((n) => [n, '']),
      MEMORY_NOTE,
      '',
      FINDINGS,
    ].join('\n');
    writeSection(DOC, 'bench:scan', markdown);
    log(`\nwrote ${DOC}`);
  }
}

try {
  await main();
} finally {
  await runCleanups();
}
