import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm test -- filter` as its own run (not a subtest of this one); returns its stdout lines. */
function stdoutLinesOfRun(filter: string, env: NodeJS.ProcessEnv): string[] {
  const own = { ...env };
  delete own.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', filter], {
    cwd: ROOT,
    env: own,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trimEnd().split('\n');
}

describe('npm test (scripts/run-tests.mjs)', () => {
  it('says in its summary that the browser tests were skipped when chromium is missing', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' };
    delete env.CI;
    const lines = stdoutLinesOfRun('dashboard.browser', env);
    assert.match(
      lines.at(-1) ?? '',
      /^note: browser tests SKIPPED \(1 file\): chromium is not installed at \/nonexistent\/chromium/,
    );
  });

  it('names the PostgreSQL-only files it skipped when DATABASE_URL is not set', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    const lines = stdoutLinesOfRun('db-pool', env);
    assert.match(
      lines.at(-1) ?? '',
      /^note: PostgreSQL-only tests SKIPPED \(1 file: db-pool\.happy\.test\.ts\): set DATABASE_URL/,
    );
  });
});
