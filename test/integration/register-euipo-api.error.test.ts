// The euipo-api feed when the token endpoint or the API misbehave: refused credentials, 404, server
// errors, rate limits, a token ended early, a page that stalls, a stop, and the next sync after.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { INTERRUPTED } from '../../src/mirror/sync.ts';
import type { EuipoDouble } from '../helpers/euipo-api-double.ts';
import { apiSync, euipoTestContext } from '../helpers/euipo-api-sync.ts';
import { eventually } from '../helpers/eventually.ts';

describe('the euipo-api feed: failures and recovery', () => {
  const context = euipoTestContext();
  let db: Db;
  let double: EuipoDouble;
  before(() => {
    db = context.db;
    double = context.double;
  });

  const outcome = async (options: Parameters<typeof apiSync>[2] = {}) => {
    const failed: [string, boolean][] = [];
    const report = await apiSync(double, db, {
      onFileFailed: (name, mayPass) => failed.push([name, mayPass]),
      ...options,
    });
    return { file: report.files[0], failed };
  };

  it('credentials the token endpoint refuses fail the window with what to check, not to be retried today', async () => {
    double.tokenStatus = 401;
    const { file, failed } = await outcome();
    assert.equal(file?.status, 'failed');
    assert.equal(
      file?.reason,
      'HTTP 401 from the token endpoint: the client credentials were refused (check EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET, and EUIPO_ENVIRONMENT: sandbox and production credentials differ)',
    );
    assert.deepEqual(failed, [['changes_2026-03-03_2026-03-10', false]]);
    assert.equal(double.requests.token.length, 1, 'a refusal is not retried');
    assert.equal(double.requests.api.length, 0);
  });

  it('a wrong API location (404) fails at once, saying it was the API', async () => {
    const { file, failed } = await outcome({ url: `${double.apiUrl}/v9` });
    assert.equal(file?.reason, 'HTTP 404 from the server (the Trademark Search API)');
    assert.deepEqual(failed, [['changes_2026-03-03_2026-03-10', false]]);
    assert.equal(double.requests.api.length, 1);
  });

  it('a server error that passes is retried and the window loads', async () => {
    double.pages.set(0, { kind: 'status', status: 503, times: 2 });
    const { file } = await outcome();
    assert.deepEqual([file?.status, file?.imported], ['loaded', 5]);
    assert.equal(double.requests.api.length, 3);
  });

  it('a 429 is waited out for its Retry-After, then the page is asked again', async () => {
    double.pages.set(0, { kind: 'status', status: 429, retryAfter: 1, times: 1 });
    const { file } = await outcome();
    assert.equal(file?.status, 'loaded');
    const [first, second] = double.requests.api;
    assert.ok(first && second);
    assert.ok(second.at - first.at >= 950, `waited ${second.at - first.at} ms`);
  });

  it('a page that leaves no request of the rate limit waits for its reset before the next page', async () => {
    double.maxPageSize = 2;
    double.exhaustAfterPage = { page: 0, reset: 1 };
    const { file } = await outcome();
    assert.equal(file?.status, 'loaded');
    const [first, second] = double.requests.api;
    assert.ok(first && second);
    assert.ok(second.at - first.at >= 950, `waited ${second.at - first.at} ms`);
  });

  it('a token the API refuses before it ends is renewed once, and the page asked again', async () => {
    double.maxPageSize = 2;
    double.revokeAfterPage = 0;
    const { file } = await outcome();
    assert.equal(file?.status, 'loaded', file?.reason);
    assert.equal(file?.imported, 5);
    assert.equal(double.requests.token.length, 2);
    assert.deepEqual(
      double.requests.api.map((r) => r.query.get('page')),
      ['0', '1', '1', '2'],
      'page 1 asked again with the new token',
    );
  });

  it('a page that stalls hits the idle time-out; the next sync asks again from the same day', async () => {
    double.pages.set(0, { kind: 'stall' });
    const { file, failed } = await outcome();
    assert.deepEqual([file?.status, file?.reason], ['failed', 'no data for 300 ms']);
    assert.deepEqual(failed, [['changes_2026-03-03_2026-03-10', true]]);
    double.pages.clear();
    const again = await outcome();
    assert.deepEqual(
      [again.file?.name, again.file?.status, again.file?.imported],
      ['changes_2026-03-03_2026-03-10', 'loaded', 5],
    );
    const [row] = await listRegisterFiles(db, 'euipo-api');
    assert.equal(row?.attempts, 2);
  });

  it('an answer that is not a search result fails the window instead of reading as no change', async () => {
    double.pages.set(0, { kind: 'body', body: '{"error":"maintenance"}' });
    const { file } = await outcome();
    assert.equal(file?.status, 'failed');
    assert.match(file?.reason ?? '', /without a "trademarks" list/);
    assert.equal((await db.query('SELECT 1 FROM marks')).length, 0);
  });

  it('a stop while a page arrives ends the sync at once, the window recorded as interrupted', async () => {
    double.pages.set(0, { kind: 'slow', everyMs: 50 });
    const controller = new AbortController();
    const running = apiSync(double, db, {
      signal: controller.signal,
      http: { connectTimeoutMs: 2000, idleTimeoutMs: 5000, retries: 2, backoffMs: 10 },
    });
    await eventually('the page to be asked', () => double.requests.api.length > 0, { everyMs: 10 });
    controller.abort();
    const { files } = await running;
    assert.deepEqual(
      files.map((f) => [f.status, f.reason]),
      [['failed', INTERRUPTED]],
    );
    assert.equal(double.requests.api.length, 1, 'a stop is not retried');
  });
});
