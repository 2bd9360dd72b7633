// The register sync's HTTP client on its own (src/mirror/http-download.ts): each time-out and the
// back-off between attempts, against local servers that misbehave on purpose. No database.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DownloadError, downloadToFile, type HttpOptions } from '../../src/mirror/http-download.ts';
import {
  type FeedServer,
  startFeedServer,
  startUnacceptingListener,
} from '../helpers/feed-server.ts';
import { SEED_ZIP } from '../helpers/register-sync.ts';

// A guard that stops working makes its test hang, not pass: each test has a bound of its own.
const BOUND = { timeout: 15_000 };

describe('register downloads: time-outs and back-off', () => {
  let server: FeedServer;
  let dir: string;
  let seed: Buffer;
  before(async () => {
    server = await startFeedServer();
    dir = mkdtempSync(join(tmpdir(), 'tmw-download-'));
    seed = readFileSync(SEED_ZIP);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  const options = (given: Partial<HttpOptions>): HttpOptions => ({
    connectTimeoutMs: 5000,
    idleTimeoutMs: 5000,
    retries: 2,
    backoffMs: 10,
    ...given,
  });

  /** A download of `url` into the test folder: its outcome, attempts and how long it took. */
  async function download(url: string, given: Partial<HttpOptions>) {
    const path = join(dir, 'download');
    const retries: number[] = [];
    const started = Date.now();
    try {
      const result = await downloadToFile(url, path, options(given), {
        onRetry: (_, n) => retries.push(n),
      });
      return { result, error: null, retries, ms: Date.now() - started, path };
    } catch (error) {
      return { result: null, error: error as Error, retries, ms: Date.now() - started, path };
    }
  }

  it('a connection that opened while the process was busy is not told as slow', BOUND, async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: seed });
    const slow: string[] = [];
    const path = join(dir, 'busy');
    const done = downloadToFile(
      `${server.url}apc260101.zip`,
      path,
      options({ slowConnectMs: 20, onSlowConnect: (url) => slow.push(url) }),
    );
    // The request has started; the process is now busy well past the notice's 20 ms, while the
    // kernel opens the connection. Its event waits behind the notice's timer, not the other way.
    const until = performance.now() + 300;
    while (performance.now() < until) {}
    await done;
    assert.deepEqual(slow, []);
    rmSync(path, { force: true });
  });

  it(
    'a server that never completes the connection hits the connect time-out, retried',
    BOUND,
    async () => {
      const listener = await startUnacceptingListener();
      try {
        const outcome = await download(`${listener.url}apc260101.zip`, {
          connectTimeoutMs: 200,
          idleTimeoutMs: 60_000,
        });
        assert.ok(outcome.error instanceof DownloadError, String(outcome.error));
        assert.equal(outcome.error.message, 'no connection within 200 ms');
        assert.equal(outcome.error.retryable, true);
        assert.deepEqual(outcome.retries, [1, 2]);
        assert.ok(outcome.ms >= 600 && outcome.ms < 5000, `${outcome.ms} ms`);
        assert.equal(existsSync(outcome.path), false, 'nothing is left behind');
      } finally {
        listener.close();
      }
    },
  );

  it(
    'a server that accepts the request and never answers hits the idle time-out',
    BOUND,
    async () => {
      server.files.set('apc260101.zip', { kind: 'silent' });
      const outcome = await download(`${server.url}apc260101.zip`, { idleTimeoutMs: 200 });
      assert.ok(outcome.error instanceof DownloadError, String(outcome.error));
      assert.equal(outcome.error.message, 'no data for 200 ms');
      assert.equal(server.requests('/feed/apc260101.zip'), 3, 'tried three times');
      assert.ok(outcome.ms >= 600, `${outcome.ms} ms`);
    },
  );

  it(
    'a server error that passes: the second attempt succeeds after the back-off',
    BOUND,
    async () => {
      server.files.set('apc260101.zip', { kind: 'flaky', body: seed, times: 1 });
      const outcome = await download(`${server.url}apc260101.zip`, { backoffMs: 300 });
      assert.equal(outcome.error, null);
      assert.equal(outcome.result?.bytes, seed.length);
      assert.equal(readFileSync(outcome.path).equals(seed), true);
      assert.deepEqual(outcome.retries, [1]);
      assert.equal(server.requests('/feed/apc260101.zip'), 2);
      assert.ok(outcome.ms >= 300, `waited the back-off: ${outcome.ms} ms`);
    },
  );

  it('the back-off doubles from one retry to the next', BOUND, async () => {
    server.files.set('apc260101.zip', { kind: 'flaky', body: seed, times: 2 });
    const outcome = await download(`${server.url}apc260101.zip`, { backoffMs: 200 });
    assert.equal(outcome.error, null);
    assert.deepEqual(outcome.retries, [1, 2]);
    assert.ok(outcome.ms >= 200 + 400, `waited 200 then 400 ms: ${outcome.ms} ms`);
  });

  it(
    'a server whose certificate cannot be verified fails at once, saying how to add a missing intermediate',
    BOUND,
    async (t) => {
      const keyPath = join(dir, 'key.pem');
      const certPath = join(dir, 'cert.pem');
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-keyout',
            keyPath,
            '-out',
            certPath,
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
          ],
          { stdio: 'ignore' },
        );
      } catch {
        t.skip('openssl is not installed: no certificate to serve');
        return;
      }
      let requests = 0;
      const server = createHttpsServer(
        { key: readFileSync(keyPath), cert: readFileSync(certPath) },
        (_request, response) => {
          requests++;
          response.end('zip');
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const outcome = await download(`https://127.0.0.1:${port}/apc260101.zip`, {});
        assert.ok(outcome.error instanceof DownloadError, String(outcome.error));
        assert.equal(outcome.error.retryable, false);
        assert.match(
          outcome.error.message,
          /^the server's TLS certificate cannot be verified \(DEPTH_ZERO_SELF_SIGNED_CERT.*NODE_EXTRA_CA_CERTS/,
        );
        assert.deepEqual(outcome.retries, [], 'not retried');
        assert.equal(requests, 0, 'nothing was asked of a server not trusted');
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
