import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { freshInstallation, type Installation } from '../helpers/cli.ts';
import { type FeedServer, startFeedServer, zipOf } from '../helpers/feed-server.ts';
import { SEED_ZIP } from '../helpers/register-sync.ts';

describe('tmwatch registers sync: which location it reads', () => {
  let install: Installation;
  let server: FeedServer;

  before(async () => {
    install = await freshInstallation();
    server = await startFeedServer();
  });
  after(async () => {
    await server.close();
    await install.cleanup();
  });
  beforeEach(() => server.reset());

  async function run(env: NodeJS.ProcessEnv, ...args: string[]) {
    let stdout = '';
    let stderr = '';
    const full = { ...install.env, LOG_LEVEL: 'silent', ...env };
    const status = await main(args, full, {
      stdout: async (text) => {
        stdout += text;
      },
      stderr: async (text) => {
        stderr += text;
      },
    });
    return { status, stdout, stderr };
  }

  it("without --url it reads the feed's URL in REGISTER_FEEDS (an operator's mirror)", async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const result = await run({ REGISTER_FEEDS: `uspto-daily=${server.url}` }, 'registers', 'sync');
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.url, server.url);
    assert.deepEqual(
      report.files.map((f: { name: string; status: string }) => [f.name, f.status]),
      [['apc260101.zip', 'loaded']],
    );
    assert.equal(server.requests('/feed/'), 1);
  });

  it('--url wins over the URL in REGISTER_FEEDS', async () => {
    server.files.set('apc260102.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const elsewhere = `${server.url}elsewhere/`;
    const result = await run(
      { REGISTER_FEEDS: `uspto-daily=${elsewhere}` },
      'registers',
      'sync',
      '--url',
      server.url,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).url, server.url);
    assert.equal(server.requests('/feed/elsewhere/'), 0);
  });

  /** A zip of every XML file of a fixture folder (one file per mark, as the offices' zips). */
  const zipOfFolder = (dir: string) =>
    zipOf(
      Object.fromEntries(
        readdirSync(dir)
          .filter((name) => name.endsWith('.xml'))
          .map((name) => [name, join(dir, name)]),
      ),
    );

  const OFFICES: [string, string, string, number][] = [
    ['cipo-weekly', 'WEEKLY_2026-01-06_00-07-58.zip', 'test/fixtures/cipo', 1],
    ['euipo-bulk', 'DIFF_EUTMS_20260106_0001.zip', 'test/fixtures/euipo-bulk', 5],
  ];
  for (const [feed, name, fixtures, imported] of OFFICES) {
    it(`--feed ${feed} --url URL loads a zip of the office's real files from a local listing`, async () => {
      server.files.set(name, { kind: 'file', body: await zipOfFolder(fixtures) });
      const result = await run({}, 'registers', 'sync', '--feed', feed, '--url', server.url);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr, '');
      const report = JSON.parse(result.stdout);
      assert.equal(report.feed, feed);
      assert.deepEqual(
        report.files.map((f: Record<string, unknown>) => [f.name, f.status, f.imported, f.errors]),
        [[name, 'loaded', imported, 0]],
      );
      const listed = await run({}, 'registers', 'list', '--feed', feed);
      assert.deepEqual(
        JSON.parse(listed.stdout).files.map((f: Record<string, unknown>) => [
          f.feed,
          f.name,
          f.status,
        ]),
        [[feed, name, 'loaded']],
      );
    });
  }
});
