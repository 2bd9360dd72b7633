import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { INTERRUPTED } from '../../src/mirror/sync.ts';
import {
  BIN,
  childEnv,
  freshInstallation,
  type Installation,
  printedObject,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { type FeedServer, startFeedServer } from '../helpers/feed-server.ts';
import { SEED_ZIP } from '../helpers/register-sync.ts';

const until = (what: string, probe: () => boolean) =>
  eventually(what, probe, { timeoutMs: 60_000, everyMs: 100 });

describe('serve and worker run the daily register sync of REGISTER_FEEDS', {
  timeout: 240_000,
}, () => {
  let server: FeedServer;
  before(async () => {
    server = await startFeedServer();
    server.files.set('apc260101.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
  });
  after(() => server.close());

  // 00:00: the day's sync is due at once, whenever the test runs.
  const syncEnv = () => ({
    REGISTER_FEEDS: `uspto-daily=${server.url}`,
    REGISTER_SYNC_AT: '00:00',
  });

  /** A worker on the installation, syncing `feedUrl`; its stderr kept, its exit awaited. */
  async function runWorker(install: Installation, feedUrl = server.url) {
    const child = spawn(BIN, ['worker'], {
      env: childEnv({
        ...install.env,
        REGISTER_FEEDS: `uspto-daily=${feedUrl}`,
        REGISTER_SYNC_AT: '00:00',
        SCAN_POLL_SECONDS: '0.2',
        LOG_LEVEL: 'debug',
      }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await until('the worker to be running', () => stderr.includes('worker started'));
    return {
      stderr: () => stderr,
      exited,
      async stop() {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  async function loadedFiles(install: Installation) {
    const { files } = printedObject(await tmwatch(['registers', 'list'], install.env));
    return (files as { name: string; status: string; reason: string | null }[]).map((f) =>
      f.reason ? [f.name, f.status, f.reason] : [f.name, f.status],
    );
  }

  it('serve with SCHEDULER=on syncs the feed once REGISTER_SYNC_AT has passed', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const before = server.requests('/feed/apc260101.zip');
    const serve = await startServe({ ...install.env, ...syncEnv(), SCHEDULER: 'on' });
    try {
      await until('the sync to finish', () => serve.stderr().includes('register sync finished'));
    } finally {
      await serve.stop();
    }
    assert.equal(server.requests('/feed/apc260101.zip'), before + 1);
    assert.deepEqual(await loadedFiles(install), [['apc260101.zip', 'loaded']]);
  });

  it('worker syncs it too; a second worker start the same day syncs nothing again', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const first = await runWorker(install);
    try {
      await until('the sync to finish', () => first.stderr().includes('register sync finished'));
    } finally {
      await first.stop();
    }
    const listed = server.requests('/feed/');
    const second = await runWorker(install);
    // The second worker asks for the day's sync, and the database says it was run.
    await until('the day to be refused', () =>
      second.stderr().includes('register sync of the day already claimed'),
    );
    await second.stop();
    assert.equal(server.requests('/feed/'), listed, 'no second sync on the same day');
    assert.deepEqual(await loadedFiles(install), [['apc260101.zip', 'loaded']]);
  });

  it('a worker stopped during the sync exits at once and cleanly; the next start loads the file', async (t) => {
    const install = await freshInstallation();
    const slow = await startFeedServer();
    t.after(async () => {
      await slow.close();
      await install.cleanup();
    });
    const seed = readFileSync(SEED_ZIP);
    // About 3.5 s for the whole file.
    slow.files.set('apc260101.zip', { kind: 'slow', body: seed, chunk: 200, everyMs: 50 });
    const worker = await runWorker(install, slow.url);
    await until('the file to be streaming', () => slow.bytesSent() >= 1000);
    const stoppedAt = Date.now();
    assert.equal(await worker.stop(), 0, worker.stderr());
    assert.ok(Date.now() - stoppedAt < 2000, `exited after ${Date.now() - stoppedAt} ms`);
    assert.match(worker.stderr(), /register sync stopped: the process is shutting down/);
    assert.deepEqual(await loadedFiles(install), [['apc260101.zip', 'failed', INTERRUPTED]]);

    slow.files.set('apc260101.zip', { kind: 'file', body: seed });
    const next = await runWorker(install, slow.url);
    try {
      await until('the sync to finish', () => next.stderr().includes('register sync finished'));
    } finally {
      await next.stop();
    }
    assert.deepEqual(await loadedFiles(install), [['apc260101.zip', 'loaded']]);
  });
});
