import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { freshInstallation, type Installation } from '../helpers/cli.ts';
import { type FeedServer, startFeedServer } from '../helpers/feed-server.ts';
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
});
