import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { type Feed, usptoDaily } from '../../src/register/feeds.ts';
import { type FeedServer, ODP_PRODUCT_PATH, startFeedServer } from '../helpers/feed-server.ts';
import { SEED_ZIP, sync, syncTestContext } from '../helpers/register-sync.ts';

const KEY = 'odp-secret-key-7f3a';
const filePath = (name: string) => `/api/v1/datasets/products/files/TRTDXFAP/2026/${name}`;

// The key is a USPTO.gov account's credential: it goes to the listing's origin and nowhere else,
// whatever the listing points to or a redirect leads to.
describe('USPTO_API_KEY goes only to the origin of the listing', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let elsewhere: FeedServer;
  let seed: Buffer;
  before(async () => {
    db = context.db;
    server = context.server;
    elsewhere = await startFeedServer();
    seed = readFileSync(SEED_ZIP);
  });
  after(() => elsewhere.close());

  it('a file URI that redirects to another origin is followed without the key', async () => {
    elsewhere.reset();
    server.files.set('apc260101.zip', {
      kind: 'redirect',
      location: `${elsewhere.url}apc260101.zip`,
    });
    elsewhere.files.set('apc260101.zip', { kind: 'file', body: seed });
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.equal(report.files[0]?.status, 'loaded');
    assert.deepEqual(server.apiKeys(filePath('apc260101.zip')), [KEY]);
    assert.deepEqual(elsewhere.apiKeys('/feed/apc260101.zip'), [undefined]);
  });

  it('a file URI on another origin is downloaded without the key', async () => {
    elsewhere.reset();
    elsewhere.files.set('apc260102.zip', { kind: 'file', body: seed });
    server.extraLinks = [`${elsewhere.url}apc260102.zip`];
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.equal(report.files[0]?.status, 'loaded');
    assert.deepEqual(elsewhere.apiKeys('/feed/apc260102.zip'), [undefined]);
  });

  it('a redirect loop ends after 5 redirects: the file fails, the sync goes on', async () => {
    server.files.set('apc260103.zip', { kind: 'redirect', location: filePath('apc260103.zip') });
    server.files.set('apc260104.zip', { kind: 'file', body: seed });
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status, f.reason]),
      [
        ['apc260103.zip', 'failed', 'more than 5 redirects'],
        ['apc260104.zip', 'loaded', undefined],
      ],
    );
    assert.equal(server.requests(filePath('apc260103.zip')), 6, 'not retried');
  });

  it('the key appears in no log line, report or recorded file', async () => {
    server.files.set('apc260105.zip', { kind: 'file', body: seed });
    server.files.set('apc260106.zip', { kind: 'status', status: 403 });
    const lines: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => lines.push(line) });
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY, logger });
    assert.deepEqual(
      report.files.map((f) => f.status),
      ['loaded', 'failed'],
    );
    const recorded = await db.query('SELECT * FROM register_files');
    const everything = JSON.stringify({ lines, report, recorded });
    assert.ok(lines.length > 0);
    assert.doesNotMatch(everything, new RegExp(KEY));
  });

  /** The feed with the local server standing in for the office's API. */
  const feedOfServer = (): Feed => ({
    ...usptoDaily,
    apiKey: { origin: new URL(server.url).origin, header: 'X-API-KEY', variable: 'USPTO_API_KEY' },
  });

  it("without the key, a sync of the office's API stops before any request, naming USPTO_API_KEY", async () => {
    server.files.set('apc260107.zip', { kind: 'file', body: seed });
    await assert.rejects(
      sync(db, server, { feed: feedOfServer(), url: server.odpUrl }),
      (error) => {
        assert.ok(error instanceof ApiError);
        assert.match(error.message, /needs an API key: set USPTO_API_KEY/);
        return true;
      },
    );
    assert.equal(server.requests(ODP_PRODUCT_PATH), 0);
  });

  it("a key the office's API refuses is named in the error, without its value", async () => {
    server.files.set('refused', { kind: 'status', status: 403 });
    const url = `${server.url}refused`;
    await assert.rejects(sync(db, server, { feed: feedOfServer(), url, apiKey: KEY }), (error) => {
      assert.ok(error instanceof ApiError);
      assert.match(
        error.message,
        /HTTP 403 from the server \(the API refused the key: check USPTO_API_KEY\)$/,
      );
      assert.doesNotMatch(error.message, new RegExp(KEY));
      return true;
    });
  });
});
