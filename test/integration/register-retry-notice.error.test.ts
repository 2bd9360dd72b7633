// A sync whose server cannot be reached says so while it waits to try again (one line on stderr per
// retry), instead of staying silent until its error: a sync to an unreachable address once wrote
// nothing for 36 s.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { ApiError } from '../../src/domain/errors.ts';
import type { RetryNotice, SlowConnectNotice } from '../../src/mirror/sync.ts';
import { BIN, childEnv, freshInstallation, type Installation } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { closedPort, startUnacceptingListener } from '../helpers/feed-server.ts';
import { sync, syncTestContext } from '../helpers/register-sync.ts';

describe('register sync: telling of retries', () => {
  const context = syncTestContext();
  let db: Db;
  before(() => {
    db = context.db;
  });

  it('each retry of a refused connection is told: what, where (without a login), why, when and which attempt', async () => {
    const port = await closedPort();
    const notices: RetryNotice[] = [];
    await assert.rejects(
      sync(db, context.server, {
        url: `http://mirror-user:mirror-pw@127.0.0.1:${port}/feed/`,
        onRetry: (notice) => notices.push(notice),
      }),
      (error: unknown) =>
        error instanceof ApiError &&
        /^cannot read the listing of feed uspto-daily at http:\/\/127\.0\.0\.1:\d+\/feed\/: connect ECONNREFUSED/.test(
          error.message,
        ) &&
        !error.message.includes('mirror-pw'),
    );
    assert.deepEqual(
      notices.map((n) => [n.what, n.url, n.attempt, n.attempts, n.waitMs]),
      [
        ['the listing of feed uspto-daily', `http://127.0.0.1:${port}/feed/`, 2, 3, 10],
        ['the listing of feed uspto-daily', `http://127.0.0.1:${port}/feed/`, 3, 3, 20],
      ],
    );
    assert.match(notices[0]?.reason ?? '', /ECONNREFUSED/);
  });

  it('a server that never completes the connection is told after the connect time-out', async () => {
    const listener = await startUnacceptingListener();
    try {
      const notices: RetryNotice[] = [];
      await assert.rejects(
        sync(db, context.server, {
          url: listener.url,
          http: { connectTimeoutMs: 200, idleTimeoutMs: 60_000, retries: 1, backoffMs: 10 },
          onRetry: (notice) => notices.push(notice),
        }),
        /no connection within 200 ms/,
      );
      assert.deepEqual(
        notices.map((n) => [n.reason, n.attempt, n.attempts]),
        [['no connection within 200 ms', 2, 2]],
      );
    } finally {
      listener.close();
    }
  });

  it('a connection still not open after a moment is told once, before its time-out', async () => {
    const listener = await startUnacceptingListener();
    try {
      const slow: SlowConnectNotice[] = [];
      const retries: RetryNotice[] = [];
      await assert.rejects(
        sync(db, context.server, {
          url: listener.url.replace('//', '//mirror-user:mirror-pw@'),
          http: { connectTimeoutMs: 600, slowConnectMs: 100, retries: 1, backoffMs: 10 },
          onSlowConnect: (notice) => slow.push({ ...notice }),
          onRetry: (notice) => retries.push(notice),
        }),
        /no connection within 600 ms/,
      );
      // One per attempt, each before that attempt's time-out, and without the login.
      assert.deepEqual(slow, [
        { url: listener.url, waitedMs: 100, timeoutMs: 600 },
        { url: listener.url, waitedMs: 100, timeoutMs: 600 },
      ]);
      assert.equal(retries.length, 1);
    } finally {
      listener.close();
    }
  });
});

describe('tmwatch registers sync to an address that cannot be reached', () => {
  const installs: Installation[] = [];
  after(async () => {
    for (const install of installs) await install.cleanup();
  });

  /**
   * Runs `registers sync --url url` until the first stderr line containing `marker` (awaited, not
   * slept for), then kills it: what it said by then, and whether it was still running.
   */
  async function firstLine(url: string, marker: string) {
    // An installation each: a killed sync's embedded database is not the next one's.
    const install = await freshInstallation();
    installs.push(install);
    const child = spawn(BIN, ['registers', 'sync', '--url', url], {
      env: childEnv({ ...install.env, LOG_LEVEL: undefined }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      const line = await eventually(marker, () =>
        stderr.split('\n').find((text) => text.includes(marker)),
      );
      return { line, stderr, stdout, running: child.exitCode === null };
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }

  it('a server that does not answer: says what it waits for within seconds, before the connect time-out', async () => {
    const listener = await startUnacceptingListener();
    try {
      const seen = await firstLine(listener.url, 'connecting to');
      assert.equal(
        seen.line,
        `tmwatch: connecting to ${listener.url}: no answer after 2 s; waiting up to 10 s before trying again`,
      );
      // Said while the first attempt still waits: its 10 s time-out has not passed.
      assert.doesNotMatch(seen.stderr, /trying again in/);
      assert.equal(seen.running, true);
    } finally {
      listener.close();
    }
  });

  it('a refused connection: one line on stderr while it waits to try again, not only at the end', async () => {
    const port = await closedPort();
    const seen = await firstLine(`http://127.0.0.1:${port}/feed/`, 'trying again');
    assert.match(
      seen.line,
      /^tmwatch: the listing of feed uspto-daily at http:\/\/127\.0\.0\.1:\d+\/feed\/: connect ECONNREFUSED 127\.0\.0\.1:\d+; trying again in 5 s \(attempt 2 of 4\)$/,
    );
    // Said during the back-off, while the command still runs: not with the final error.
    assert.equal(seen.running, true, 'the command is still waiting to try again');
    assert.equal(seen.stdout, '');
  });
});
