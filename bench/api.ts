// `npm run bench:api`: throughput and latency of the API on PostgreSQL and on PGlite, against a bare
// Fastify route answering the same JSON from memory, measured in the same run. It prints figures and
// writes them to docs/benchmarks.md; it asserts nothing (timings depend on the machine).
//
// Environment (all optional):
//   BENCH_DATABASE_URL   PostgreSQL server to create the scratch database on
//                        (default: the local server through its Unix-domain socket in
//                        /var/run/postgresql if there is one, else 127.0.0.1:5432)
//   BENCH_BACKENDS       postgres,pglite (default both, in that order)
//   BENCH_DURATION       seconds measured per scenario (default 10)
//   BENCH_WARMUP         seconds of warm-up before each scenario (default 2)
//   BENCH_CONNECTIONS    concurrent connections (default 50)
//   BENCH_KEYS           API keys the requests rotate through (default 200)
//   BENCH_USERS          seeded users; each has 10 watches and 100 alerts (default 1000)
//   BENCH_LOG_LEVEL      server log level for every scenario (default warn: no request lines)
//   BENCH_INFO_LOG       1 (default): also measure GET /alerts and GET /watches/{id} at
//                        LOG_LEVEL=info, the production default, on the first backend; 0: skip
//   BENCH_PROFILE        auto (default): profile the server on scenarios that miss a target,
//                        and on the alert list whose pages are never kept (where its time goes);
//                        1: profile the targeted scenarios anyway; 0: never
//   BENCH_PROFILE_SECONDS  length of a profiled run (default 5)
//   BENCH_PG_POOL        PostgreSQL pool size of the server (default: the service's own default)
//   BENCH_ALERT_LIST_CACHE_MB  the server's ALERT_LIST_CACHE_MB (default: the service's default;
//                        0 measures the alert list without kept pages)
//   BENCH_DOCS           0: do not write docs/benchmarks.md
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { connectPostgres } from '../src/data/db.ts';
import { share, snapshot } from './api/cpu.ts';
import {
  type LoadResult,
  load,
  NEW_PAGE_ALERTS,
  probe,
  type Scenario,
  scenarios,
} from './api/load.ts';
import { summarizeProfile } from './api/profile.ts';
import type { ServerConfig } from './api/protocol.ts';
import {
  cpuPerRequest,
  cpuTable,
  type Row,
  resultsTable,
  type Target,
  targetLines,
} from './api/report.ts';
import type { SeedUser } from './api/seed.ts';
import { ServerProcess } from './api/server-process.ts';
import { onCleanup, runCleanups } from './lib/cleanups.ts';
import { writeSection } from './lib/markdown.ts';
import { benchServerUrl, connectionLabel, isLocalServer } from './lib/postgres-server.ts';

type Backend = 'postgres' | 'pglite';

/** A positive number from the environment; `zero: true` accepts 0 too (a size that turns off). */
function envNumber(name: string, fallback: number, options: { zero?: boolean } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !options.zero)) {
    throw new Error(`${name} must be a positive number${options.zero ? ' or 0' : ''}`);
  }
  return value;
}

const settings = {
  serverUrl: benchServerUrl(),
  backends: (process.env.BENCH_BACKENDS ?? 'postgres,pglite')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== ''),
  seconds: envNumber('BENCH_DURATION', 10),
  warmup: envNumber('BENCH_WARMUP', 2),
  connections: envNumber('BENCH_CONNECTIONS', 50),
  keys: envNumber('BENCH_KEYS', 200),
  users: envNumber('BENCH_USERS', 1000),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  infoLog: process.env.BENCH_INFO_LOG !== '0',
  profile: process.env.BENCH_PROFILE ?? 'auto',
  profileSeconds: envNumber('BENCH_PROFILE_SECONDS', 5),
  pool: process.env.BENCH_PG_POOL ? envNumber('BENCH_PG_POOL', 10) : undefined,
  alertListCacheMb: process.env.BENCH_ALERT_LIST_CACHE_MB
    ? envNumber('BENCH_ALERT_LIST_CACHE_MB', 0, { zero: true })
    : undefined,
  docs: process.env.BENCH_DOCS !== '0',
};
for (const b of settings.backends) {
  if (b !== 'postgres' && b !== 'pglite') throw new Error(`BENCH_BACKENDS: unknown backend ${b}`);
}
// Far above anything the load can reach: the limiter still runs on every request, it never trips.
const RATE_LIMIT_PER_MINUTE = 10_000_000;
const SEED = { users: settings.users, watchesPerUser: 10, alertsPerUser: 100 };
const TEAM_WATCH_CAP = 500;

const ALERTS = 'GET /api/v1/alerts?limit=50';
const WATCH = 'GET /api/v1/watches/{id}';

const CPU_LEGEND =
  'CPU during each scenario, in cores busy on average: the server process (with PGlite, the database too), the PostgreSQL backends serving it, the load generator, the kernel\'s interrupt work ("irq": loopback networking, charged to no process) and everything else ("other": other processes and VM steal, i.e. noise). ms/req = CPU milliseconds per request.';

// What the investigation behind this benchmark found (2026-11, issue 2); kept with the figures so
// that a reader of docs/benchmarks.md knows what was tried.
const FINDINGS = `What was found and tried (issue 2; before → after, same machine, back-to-back runs):

- Every query used to be an unnamed statement: postgres.js \`unsafe()\` does not prepare by
  default, so each query cost an extra round trip (Describe) and a parse and plan in PostgreSQL.
  \`src/data/db.ts\` now prepares each statement once per connection.
- \`iso_ms()\` (migration 001) is declared IMMUTABLE around the STABLE \`to_char\`, so PostgreSQL
  never inlines it and runs the SQL-function executor for each of the ~400 timestamps of a page;
  the read path now spells the expression out (\`isoMs\` in json-sql.ts).
- Together, CPU per request (server + PostgreSQL, ms): GET /alerts 1.78 + 4.74 → 0.95 + 2.09,
  GET /watches/{id} 0.61 + 1.16 → 0.25 + 0.15, PATCH /alerts 0.79 + 1.93 → 0.35 + 0.41.
- GET /alerts?limit=50 used to spend two thirds of its database time building 51 JSON objects
  (json_build_object and its per-argument type lookups about half, the 51 index lookups of the
  hits a fifth, to_char a tenth). Each alert's JSON is now stored on its row and rebuilt by a
  trigger on every write (migration 004: hits never change, an alert changes only through an
  UPDATE of its row); the list reads one column. PostgreSQL CPU per request 1.44 → 0.32 ms.
- Tried and dropped: the whole page as one text value (string_agg, with row_number() for the
  cursor) to spare the driver 51 rows. pgbench and this benchmark agreed that it cost PostgreSQL
  more (0.52-0.58 ms per request against 0.34-0.36), for little gain in Node. What did cost per row
  was formatting created_at for the cursor (to_char, ~3 µs a call): rows now carry only their
  JSON and the cursor is read from the page's last item (0.28-0.33 ms).
- postgres.js 3.4.9 slows down while its pool stays saturated (more queries than connections):
  its connection queue (\`src/queue.js\`) never shrinks until it empties and \`remove()\` scans
  it, so the cost grows with every query (a bare \`SELECT 1\` loop, 50 concurrent on 10
  connections, falls from 15,000 to 4,000 queries/s within 40 s, 60% of its CPU in \`remove\`).
  Statements outside transactions now wait in p-limit, at most pool-size at a time
  (\`src/data/db.ts\`); \`remove\` was 7-23% of the server's profile before.
- Earlier figures above were measured on an Intel Xeon host; the machine is an AMD EPYC host
  since 2026-11-23 and the same code runs about three times as fast there (bare route 11,000 →
  34,000-41,000 req/s). The ratios to the bare route barely moved: GET /alerts 13% → 12%,
  GET /watches/{id} 26% → 34%.
- The server process writing each query to PostgreSQL's socket was 19-26% of its profile (the
  write wakes the backend, which costs most on this VM). Over the Unix-domain socket instead of TCP
  loopback (\`DATABASE_URL=postgres://user@localhost/db?host=/var/run/postgresql\`, libpq's form,
  \`connectPostgres\` in db.ts): GET /alerts 4,606 → 5,617 req/s, p99 25 → 14 ms. The benchmark now
  connects that way when the server is local.
- The key lookup was a second round trip on every request. Lookups asked for in one turn of the
  event loop now share one statement (\`src/data/coalesce.ts\`, on dataloader without its cache, so
  every request still reads the database after it arrived and a revoked key fails on the very next
  request); ~6 keys per statement under this load. \`hash = ANY($1::text[])\` made PostgreSQL replan
  on every execution and pick a hash join over all users (130 µs for 6 keys); the hashes travel as a
  JSON array with one LATERAL index probe each (30 µs, against 90 µs for 6 separate lookups).
  GET /alerts 12% → 19%, GET /watches/{id} 34% → 44%.
- GET /watches/{id} and GET /alerts/{id} coalesce the same way (LATERAL primary-key probes over
  (id, owner) pairs, visibility still per request): GET /watches/{id} 44% → 70-75%, server CPU
  per request 0.06 → 0.03 ms.
- Tried and dropped: coalescing alert lists of one shape (one LATERAL subquery per list, rows
  numbered and regrouped in Node). GET /alerts fell to 4,810 req/s and its server CPU rose to
  0.20 ms per request: a batch's ~300 rows come through one connection instead of being spread over
  the pool, and regrouping them cost more than the spared statement. Also tried: letting
  postgres.js pipeline up to 4 statements per connection (less PostgreSQL CPU, no change in req/s:
  the server process is the limit).
- Lists hand PostgreSQL's bytes to the response without decoding them (\`Db.queryBytes\`:
  postgres.js \`raw()\`, PGlite encodes its strings; \`pageBody\` copies the rows once into a
  Buffer): GET /alerts 6,323 → 7,170 req/s, server CPU per request 0.14 → 0.12 ms, garbage
  collector 9% → 5% of the profile. Retried afterwards, pipelining (pool 2 with up to 5 statements
  per connection, pool 4 with 3): 7,217-7,273 req/s, within the noise.
- Where the time went for GET /alerts before pages were kept (2026-11-23, and still for a page
  asked for the first time, the "new page each request" row): the server process, one core busy
  at ~0.12 ms of CPU per request against 0.02 for the bare route and 0.03 for GET /watches/{id},
  whose lookups are coalesced. The difference is the list's own round trip: writing the query to
  PostgreSQL's socket (~20-30% of the profile: the write wakes the backend, which costs most on
  this VM), reading 60 KB back in PostgreSQL's 8 KB sends, parsing 51 rows in postgres.js, plus
  Fastify's hooks and Zod. One core at 0.12 ms caps the route at ~8,300 req/s whatever else
  happens; at 35% of ~35,000 req/s the 2 cores would have ~0.16 ms of CPU per request for
  everything: PostgreSQL reading a page of 51 stored JSON texts (0.06-0.09 ms), the load generator
  (~0.03) and the server (~0.05, under half of what it spent). No further trimming of that round
  trip could reach the target.
- Pages kept between requests (2026-11-24, \`src/domain/page-cache.ts\`, migration 007): each
  process keeps the list bodies asked for more than once, with the version of the owner's alert
  list they were read at; a deferred trigger raises an owner's version at the commit of every
  transaction that writes one of its alerts. A repeated request reads the version (one coalesced
  index probe, like GET /watches/{id}) and sends the kept body while it is unchanged, so it still
  sees every write committed before it arrived. Same host, back-to-back: GET /alerts 4,140 →
  16,885-18,477 req/s (16% → 55-58% of the bare route), p99 26 → 5-6 ms; server CPU 0.18 → 0.05
  ms and PostgreSQL 0.17 → 0.02 ms per request. PATCH /alerts/{id}, which now also raises the
  version, stayed within the noise (3,549 → 3,750-4,376 req/s), and so did a scan's commit
  (bench:scan, 200,000 records, PostgreSQL, two back-to-back runs each: p50 2.1-2.2 → 2.2-2.3 ms,
  p99 6.1-7.0 → 6.6-7.3 ms).
- Keeping every page, including those asked for once, cost the first-time path a quarter of its
  throughput (new page each request, same host: 5,322 req/s with the cache off against 4,035 with
  every page kept; server CPU 0.15 → 0.22 ms, the garbage collector 5% → 9% of the profile, from
  60 KB bodies kept only to be evicted). A page is now kept from its second request; the first
  only remembers its key, and that path is back at the cache-off figure (5,310 req/s).
- No measurable effect within the noise: pool size (2, 4, 10), \`return503OnClosing\` (one flag
  test per request). \`LOG_LEVEL=info\` (the production default) writes two lines per request:
  see its rows above.`;

const log = (line = '') => console.log(line);
const runDir = mkdtempSync(join(tmpdir(), 'tmw-bench-api-'));
onCleanup(() => rmSync(runDir, { recursive: true, force: true }));
const profileDir = join(tmpdir(), 'tmw-bench-profiles');

/** A scratch PostgreSQL database, dropped again by the cleanups whatever happens. */
async function scratchDatabase(): Promise<{
  url: string;
  serverPids: () => Promise<number[]>;
  drop: () => Promise<void>;
}> {
  const admin = connectPostgres(settings.serverUrl, { max: 1, onnotice: () => {} });
  const name = `tmw_bench_${randomBytes(6).toString('hex')}`;
  const drop = onCleanup(async () => {
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      log(`  dropped database ${name}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
  });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await drop();
    throw new Error(
      `cannot create a database on ${settings.serverUrl} (BENCH_DATABASE_URL): ${(error as Error).message}`,
    );
  }
  const url = new URL(settings.serverUrl);
  url.pathname = `/${name}`;
  const local = isLocalServer(settings.serverUrl);
  return {
    url: url.toString(),
    drop,
    // The backends serving the server's pool, when PostgreSQL runs on this machine (CPU figures).
    serverPids: async () =>
      local
        ? (
            await admin<{ pid: number }[]>`
              SELECT pid FROM pg_stat_activity
               WHERE datname = ${name} AND application_name = 'tmwatch'`
          ).map((r) => r.pid)
        : [],
  };
}

type Measured = { result: LoadResult; cpu: ReturnType<typeof share> };

async function measure(
  server: ServerProcess,
  baseUrl: string,
  scenario: Scenario,
  databasePids: () => Promise<number[]>,
): Promise<Measured> {
  const problem = await probe(baseUrl, scenario);
  if (problem) log(`  ! probe failed: ${problem}`);
  await load(baseUrl, scenario, { connections: settings.connections, seconds: settings.warmup });
  const pids = await databasePids();
  const before = snapshot(server.pid, pids);
  const result = await load(baseUrl, scenario, {
    connections: settings.connections,
    seconds: settings.seconds,
  });
  const cpu = share(before, snapshot(server.pid, pids));
  log(
    `  ${scenario.name.padEnd(40)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  non-2xx ${result.non2xx + result.errors}`,
  );
  return { result, cpu };
}

async function profileScenario(
  server: ServerProcess,
  baseUrl: string,
  scenario: Scenario,
  label: string,
): Promise<string[]> {
  mkdirSync(profileDir, { recursive: true });
  const stamp = new Date().toISOString().replaceAll(':', '-').slice(0, 19);
  const file = join(profileDir, `${stamp}-${label}.cpuprofile`);
  await server.send({ type: 'profile-start' });
  const result = await load(baseUrl, scenario, {
    connections: settings.connections,
    seconds: settings.profileSeconds,
  });
  await server.send({ type: 'profile-stop', file });
  return [
    `profile of the server, ${label}: ${scenario.name} (${result.requestsPerSecond.toFixed(0)} req/s while profiled)`,
    `file: ${file} (open in Chrome DevTools or speedscope)`,
    ...summarizeProfile(file),
  ];
}

/** Log lines written by the server during the run: how many, and the first warnings or errors. */
function serverLogSummary(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n').filter((l) => l !== '');
  const problems = lines.filter((l) => {
    try {
      return ((JSON.parse(l) as { level?: number }).level ?? 0) >= 40;
    } catch {
      return true;
    }
  });
  return problems.length === 0
    ? []
    : [
        `server logged ${problems.length} warnings/errors, first:`,
        ...problems.slice(0, 3).map((l) => l.slice(0, 400)),
      ];
}

type BackendRun = {
  backend: Backend;
  rows: Row[];
  version: string;
  bodyBytes: number;
  seedSeconds: number;
  counts: Record<string, number>;
  notes: string[];
  profiles: string[];
};

async function runBackend(backend: Backend): Promise<BackendRun> {
  log(`\n== ${backend} ==`);
  const database = backend === 'postgres' ? await scratchDatabase() : null;
  const logFile = join(runDir, `${backend}-server.log`);
  const config: ServerConfig = {
    ...(database ? { databaseUrl: database.url } : {}),
    dataDir: join(runDir, `${backend}-data`),
    ...(settings.pool !== undefined ? { poolSize: settings.pool } : {}),
    ...(settings.alertListCacheMb !== undefined
      ? { alertListCacheBytes: settings.alertListCacheMb * 1024 * 1024 }
      : {}),
    logLevel: settings.logLevel,
    logFile,
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
    seed: SEED,
  };
  const server = ServerProcess.start(config, (line) => log(line));
  const stopServer = onCleanup(() => server.stop());
  try {
    return await measureBackend(backend, server, database?.serverPids, logFile);
  } finally {
    await stopServer();
    await database?.drop();
  }
}

async function measureBackend(
  backend: Backend,
  server: ServerProcess,
  serverPids: (() => Promise<number[]>) | undefined,
  logFile: string,
): Promise<BackendRun> {
  const ready = await server.ready;
  const databasePids = serverPids ?? (async () => []);
  log(
    `  seeded ${Object.entries(ready.counts)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ')} in ${ready.seedSeconds.toFixed(1)} s; baseline body ${ready.bodyBytes} bytes`,
  );

  const everyone: SeedUser[] = ready.users;
  const pool = everyone.slice(0, Math.min(settings.keys, everyone.length));
  const all = scenarios(pool, everyone);
  const appUrl = `http://127.0.0.1:${ready.port}`;
  const bareUrl = `http://127.0.0.1:${ready.barePort}`;
  const urlOf = (s: Scenario) => (s.bare ? bareUrl : appUrl);

  const rows: Row[] = [];
  const notes: string[] = [];
  const profiles: string[] = [];
  let bareRate: number | null = null;
  for (const scenario of all) {
    const { result, cpu } = await measure(server, urlOf(scenario), scenario, databasePids);
    if (scenario.bare) bareRate = result.requestsPerSecond;
    const ratio =
      scenario.bare || bareRate === null || bareRate === 0
        ? null
        : result.requestsPerSecond / bareRate;
    rows.push({ backend, scenario: scenario.name, result, ratio, cpu });
    if (result.non2xx + result.errors > 0) {
      notes.push(
        `${backend} ${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} connection errors (${result.timeouts} timeouts); status codes ${JSON.stringify(result.statusCodes)}; ${result.samples.join(' | ') || 'no response body sampled'}`,
      );
    }
  }

  // The production default LOG_LEVEL=info writes two log lines per request: what does it cost?
  if (settings.infoLog && backend === settings.backends[0]) {
    await server.send({ type: 'log-level', level: 'info' });
    try {
      for (const scenario of all.filter((s) => s.name === ALERTS || s.name === WATCH)) {
        const name = `${scenario.name} (LOG_LEVEL=info)`;
        const { result, cpu } = await measure(server, appUrl, { ...scenario, name }, databasePids);
        const ratio = bareRate ? result.requestsPerSecond / bareRate : null;
        rows.push({ backend, scenario: name, result, ratio, cpu });
      }
    } finally {
      await server.send({ type: 'log-level', level: settings.logLevel });
    }
  }

  // The POST scenario must not push any owner to the plan cap (it would answer 402).
  const busiest = SEED.watchesPerUser + all.busiestCreator();
  notes.push(
    `${backend}: POST /watches created at most ${all.busiestCreator()} watches for one owner (${busiest} active with the seeded ones; Team cap ${TEAM_WATCH_CAP}).`,
  );

  const targets = evaluateTargets(backend, rows);
  const wanted =
    settings.profile === '0'
      ? []
      : targets
          .filter((t) => settings.profile === '1' || !t.met || t.informational)
          .map((t) => t.scenario);
  for (const name of new Set(wanted)) {
    const scenario = all.find((s) => s.name === name);
    if (!scenario) continue;
    const kind =
      name === NEW_PAGE_ALERTS
        ? 'alerts-new-page'
        : name.startsWith('GET /api/v1/alerts')
          ? 'alerts'
          : 'watch';
    const label = `${backend}-${kind}`;
    const lines = await profileScenario(server, urlOf(scenario), scenario, label);
    for (const line of lines) log(`  ${line}`);
    profiles.push(lines.join('\n'));
  }

  await server.stop();
  notes.push(...serverLogSummary(logFile).map((l) => `${backend}: ${l}`));
  return {
    backend,
    rows,
    version: ready.databaseVersion,
    bodyBytes: ready.bodyBytes,
    seedSeconds: ready.seedSeconds,
    counts: ready.counts,
    notes,
    profiles,
  };
}

function evaluateTargets(backend: string, rows: Row[]): Target[] {
  const row = (name: string) => rows.find((r) => r.scenario === name);
  const bare = rows.find((r) => r.ratio === null);
  const costs = (r: Row) =>
    `${r.scenario}: ${cpuPerRequest(r)}; bare route: ${bare ? cpuPerRequest(bare) : 'n/a'}`;
  const targets: Target[] = [];
  const alerts = row(ALERTS);
  if (alerts) {
    const ratio = alerts.ratio ?? 0;
    targets.push({
      backend,
      scenario: ALERTS,
      description: `${ALERTS} ≥ 35% of the bare route's req/s and p99 ≤ 25 ms`,
      met: ratio >= 0.35 && alerts.result.p99 <= 25,
      measured: `${(100 * ratio).toFixed(0)}%, p99 ${alerts.result.p99} ms`,
      costs: costs(alerts),
    });
    // Not a target of its own, but beside it: the same list when the page was never asked before.
    const fresh = row(NEW_PAGE_ALERTS);
    if (fresh) {
      const freshRatio = fresh.ratio ?? 0;
      targets.push({
        backend,
        scenario: NEW_PAGE_ALERTS,
        description: `${NEW_PAGE_ALERTS}: a page not kept from an earlier request (no target)`,
        met: true,
        informational: true,
        measured: `${(100 * freshRatio).toFixed(0)}%, p99 ${fresh.result.p99} ms`,
        costs: costs(fresh),
      });
    }
  }
  const watch = row(WATCH);
  if (watch) {
    const ratio = watch.ratio ?? 0;
    targets.push({
      backend,
      scenario: WATCH,
      description: `${WATCH} ≥ 50% of the bare route's req/s`,
      met: ratio >= 0.5,
      measured: `${(100 * ratio).toFixed(0)}%`,
      costs: costs(watch),
    });
  }
  return targets;
}

function machineLine(runs: BackendRun[]): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const versions = runs.map(
    (r) =>
      `${r.backend === 'postgres' ? 'PostgreSQL' : 'PGlite (PostgreSQL'} ${r.version}${r.backend === 'pglite' ? ', in the server process)' : ' (same machine)'}`,
  );
  return `${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${versions.join(', ')}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

async function main() {
  const started = performance.now();
  log(
    `bench:api — ${settings.connections} connections, ${settings.seconds} s per scenario after ${settings.warmup} s warm-up, ${settings.keys} keys, log level ${settings.logLevel}, backends ${settings.backends.join(', ')}`,
  );
  const runs: BackendRun[] = [];
  const failures: string[] = [];
  for (const backend of settings.backends) {
    try {
      runs.push(await runBackend(backend as Backend));
    } catch (error) {
      const message = (error as Error).message;
      console.error(`\n${backend}: FAILED: ${message}`);
      failures.push(`${backend}: the run failed: ${message}`);
    }
  }
  if (runs.length === 0) throw new Error(failures.join('; '));

  const rows = runs.flatMap((r) => r.rows);
  const targets = runs.flatMap((r) => evaluateTargets(r.backend, r.rows));
  const notes = [...failures, ...runs.flatMap((r) => r.notes)];
  if (failures.length > 0) process.exitCode = 1;
  const other = rows
    .map((r) => (r.cpu.other === null ? null : r.cpu.other + (r.cpu.steal ?? 0)))
    .filter((v): v is number => v !== null);
  const noisiest = other.length > 0 ? Math.max(...other) : null;
  if (noisiest !== null && noisiest > 0.2) {
    notes.push(
      `Other processes used up to ${noisiest.toFixed(2)} of ${availableParallelism()} cores during a scenario ("other cores"): the machine was not quiet, figures are noisy. The ms/req columns are the steadier comparison.`,
    );
  }
  const nonOk = rows.filter((r) => r.result.non2xx + r.result.errors > 0);

  const machine = machineLine(runs);
  const setup = `${settings.connections} connections, ${settings.seconds} s per scenario after a ${settings.warmup} s warm-up (autocannon in the benchmark process, server in its own process); requests rotate over ${settings.keys} API keys; rate limiter on (in-process) with a limit of ${RATE_LIMIT_PER_MINUTE} per minute; server log level \`${settings.logLevel}\` (no per-request log lines) unless the scenario says otherwise; alert page cache ${settings.alertListCacheMb === undefined ? 'default (64 MiB)' : `${settings.alertListCacheMb} MiB`}; PostgreSQL pool ${settings.pool ?? 'default (10)'}, connected by ${connectionLabel(settings.serverUrl)}. Data: ${SEED.users} Team users with one key each, ${SEED.users * SEED.watchesPerUser} watches, ${SEED.users * SEED.alertsPerUser} alerts with their hits; the list body is ${runs[0]?.bodyBytes ?? '?'} bytes.`;

  log('\n== results ==');
  log(machine);
  log(resultsTable(rows));
  log(`\n${CPU_LEGEND}`);
  log(cpuTable(rows));
  log('\ntargets (2-core machine, PostgreSQL on the same cores, 50 connections):');
  for (const line of targetLines(targets)) log(`  ${line}`);
  if (nonOk.length === 0) log('\nnon-2xx: none');
  for (const note of notes) log(`note: ${note}`);
  log(`\ntotal time ${((performance.now() - started) / 1000).toFixed(0)} s`);

  if (settings.docs) {
    const profiles = runs.flatMap((r) => r.profiles);
    writeSection(
      new URL('../docs/benchmarks.md', import.meta.url).pathname,
      'bench:api',
      [
        '## API throughput (`npm run bench:api`)',
        '',
        `Machine: ${machine}.`,
        '',
        `Setup: ${setup}`,
        '',
        resultsTable(rows),
        '',
        CPU_LEGEND,
        '',
        cpuTable(rows),
        '',
        'Targets (2-core machine, PostgreSQL on the same cores, 50 connections):',
        '',
        ...targetLines(targets).map((l) => (l.startsWith(' ') ? `  ${l.trim()}` : `- ${l}`)),
        '',
        ...(notes.length > 0 ? ['Notes:', '', ...notes.map((n) => `- ${n}`), ''] : []),
        FINDINGS,
        '',
        ...(profiles.length > 0
          ? [
              'Server profiles (scenarios that missed a target, and the alert list read from PostgreSQL on every request):',
              '',
              '```text',
              ...profiles,
              '```',
            ]
          : []),
      ].join('\n'),
    );
    log('wrote docs/benchmarks.md (section bench:api)');
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench:api failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
} finally {
  await runCleanups();
}
