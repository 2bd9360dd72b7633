import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import type { FeedServer } from '../helpers/feed-server.ts';
import { ODP_PRODUCT_PATH } from '../helpers/feed-server.ts';
import { SEED_ZIP, suveneerZip, sync, syncTestContext } from '../helpers/register-sync.ts';

const KEY = 'odp-test-key-0001';

describe('register sync from a listing shaped as the USPTO Open Data Portal API', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  let seed: Buffer;
  before(() => {
    db = context.db;
    server = context.server;
    seed = readFileSync(SEED_ZIP);
  });

  it("loads the real daily zips the product's file URIs point to, oldest first", async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: await suveneerZip() });
    server.files.set('apc260102.zip', { kind: 'file', body: seed });
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.equal(report.url, server.odpUrl);
    assert.deepEqual(report.files, [
      {
        name: 'apc260101.zip',
        status: 'loaded',
        bytes: (await suveneerZip()).length,
        imported: 1,
        updated: 0,
        skipped: 0,
        errors: 0,
      },
      {
        name: 'apc260102.zip',
        status: 'loaded',
        bytes: seed.length,
        imported: 11,
        updated: 0,
        skipped: 0,
        errors: 0,
      },
    ]);
    const rows = await db.query<{ name: string; url: string }>(
      'SELECT name, url FROM register_files ORDER BY name',
    );
    assert.deepEqual(rows[1], {
      name: 'apc260102.zip',
      url: server.odpUrl.replace(
        ODP_PRODUCT_PATH,
        '/api/v1/datasets/products/files/TRTDXFAP/2026/apc260102.zip',
      ),
    });
  });

  it('sends the key as X-API-KEY with the listing request and each file download', async () => {
    server.files.set('apc260103.zip', { kind: 'file', body: seed });
    await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.deepEqual(server.apiKeys(ODP_PRODUCT_PATH), [KEY]);
    assert.deepEqual(
      server.apiKeys('/api/v1/datasets/products/files/TRTDXFAP/2026/apc260103.zip'),
      [KEY],
    );
  });

  it('follows a file URI that redirects to where the file is', async () => {
    server.files.set('apc260104.zip', {
      kind: 'redirect',
      location: '/feed/cdn/apc260104.zip?sig=1',
    });
    server.files.set('cdn/apc260104.zip', { kind: 'file', body: seed });
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status, f.imported]),
      [['apc260104.zip', 'loaded', 11]],
    );
  });

  it('ignores the files whose names the feed does not know', async () => {
    server.files.set('apc260105.zip', { kind: 'file', body: seed });
    server.extraLinks = ['apc18840407-20251231-01.zip', 'asg260105.zip', 'apc260105.zip.md5'];
    const report = await sync(db, server, { url: server.odpUrl, apiKey: KEY });
    assert.deepEqual(
      report.files.map((f) => f.name),
      ['apc260105.zip'],
    );
  });

  it('a mirror serving an HTML directory listing needs no key', async () => {
    server.files.set('apc260106.zip', { kind: 'file', body: seed });
    const report = await sync(db, server);
    assert.deepEqual(
      report.files.map((f) => [f.name, f.status]),
      [['apc260106.zip', 'loaded']],
    );
    assert.deepEqual(server.apiKeys('/feed/'), [undefined]);
  });
});
