#!/usr/bin/env node
// Runs every test file under test/ with node's own test runner and tsx.
// Node 20's runner does not expand globs itself, so the files are listed here.
// Usage: npm test [-- path-filter ...]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = collect('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The browser tests drive Debian's chromium; without it they are skipped (CI fails instead), and
// the runner's own summary would only count one skipped suite among hundreds of tests: say it.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserFiles = files.filter((f) => f.startsWith(join('test', 'browser')));
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const browserSkipped = browserFiles.length > 0 && !existsSync(chromium) && !inCi;
const browserNote = `browser tests SKIPPED (${browserFiles.length} file${browserFiles.length === 1 ? '' : 's'}): chromium is not installed at ${chromium}; install it with "apt-get install -y chromium" or set CHROMIUM_PATH`;
if (browserSkipped) console.log(`note: ${browserNote}`);

// Likewise the files that need a PostgreSQL server (and Redis), marked by postgresOnly() from
// test/helpers/postgres-only.ts: on PGlite alone they are skipped, and the summary says which.
const serverFiles = files.filter((f) => readFileSync(f, 'utf8').includes('postgresOnly('));
const serverSkipped = serverFiles.filter(
  (f) =>
    !process.env.DATABASE_URL ||
    (!process.env.REDIS_URL && readFileSync(f, 'utf8').includes('redis: true')),
);
const serverNote = `PostgreSQL-only tests SKIPPED (${serverSkipped.length} file${serverSkipped.length === 1 ? '' : 's'}: ${serverSkipped.map((f) => f.replace(/^.*\//, '')).join(', ')}): set DATABASE_URL (and REDIS_URL) to run them`;
if (serverSkipped.length > 0) console.log(`note: ${serverNote}`);

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// Node's runner applies the timeout to each file as well as each test, and stops a file's process
// when it passes, so a test that spins (a loop that never yields) fails the run instead of holding
// CI until the job is killed. The slowest files take a few minutes on this project's CI host.
const timeoutMs = process.env.TEST_TIMEOUT_MS ?? String(20 * 60 * 1000);
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${timeoutMs}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit' },
);
if (serverSkipped.length > 0) console.log(`\nnote: ${serverNote}`);
if (browserSkipped) console.log(`\nnote: ${browserNote}`);
process.exit(result.status ?? 1);
