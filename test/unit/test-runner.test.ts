import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('fails a test that never yields once its time is up (TEST_TIMEOUT_MS)', () => {
    // The runner reads test/ under its working directory; one inside the repository, so that its
    // `--import tsx` resolves from the project's node_modules.
    const dir = mkdtempSync(join(ROOT, '.run-tests-'));
    try {
      mkdirSync(join(dir, 'test'));
      writeFileSync(
        join(dir, 'test', 'spins.test.ts'),
        "import { test } from 'node:test';\ntest('spins', () => {\n  for (;;) {}\n});\n",
      );
      const env: NodeJS.ProcessEnv = { ...process.env, TEST_TIMEOUT_MS: '2000' };
      delete env.NODE_TEST_CONTEXT;
      const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs')], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      // Null when this test had to stop the runner itself: it never ended.
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stdout, /test timed out after 2000ms/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
