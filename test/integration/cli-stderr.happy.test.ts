import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { freshInstallation, type Installation, printedObject, tmwatch } from '../helpers/cli.ts';
import { type FeedServer, startFeedServer } from '../helpers/feed-server.ts';
import { SEED_ZIP } from '../helpers/register-sync.ts';

// cron mails whatever a job writes to stderr: a one-shot command that went well must write
// nothing there, whatever it did (migrations, downloads, imports).
describe('one-shot commands that succeed are quiet on stderr', () => {
  let install: Installation;
  let server: FeedServer;

  before(async () => {
    install = await freshInstallation({ empty: true });
    server = await startFeedServer();
  });
  after(async () => {
    await server.close();
    await install.cleanup();
  });
  beforeEach(() => server.reset());

  it('registers sync on a new installation prints its report and nothing on stderr', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const result = await tmwatch(['registers', 'sync', '--url', server.url], install.env);
    assert.equal(printedObject(result).files[0].status, 'loaded');
    assert.equal(result.stderr, '');
  });

  it('registers list and marks import write nothing on stderr', async () => {
    const list = await tmwatch(['registers', 'list'], install.env);
    assert.equal(printedObject(list).files.length, 1);
    assert.equal(list.stderr, '');
    const sample = 'src/register/assets/sample-marks.jsonl';
    const imported = await tmwatch(['marks', 'import', sample], install.env);
    assert.ok(printedObject(imported).imported > 0);
    assert.equal(imported.stderr, '');
  });

  it('a file that failed is logged on stderr as a warning, and the sync exits 1', async () => {
    server.files.set('apc260102.zip', { kind: 'status', status: 404 });
    const result = await tmwatch(['registers', 'sync', '--url', server.url], install.env);
    assert.equal(result.status, 1);
    assert.equal(JSON.parse(result.stdout).files.at(-1).status, 'failed');
    // On a loaded machine the feed server may take over 2 s to answer, and the sync then says it
    // is still connecting (sync-progress.ts): a notice for a person, not a log record.
    const lines = result.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('tmwatch: connecting to '))
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg, line.file]),
      [[40, 'register file failed', 'apc260102.zip']],
    );
  });

  it('LOG_LEVEL, when set, is the level of a one-shot command too', async () => {
    server.files.set('apc260103.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const result = await tmwatch(['registers', 'sync', '--url', server.url], {
      ...install.env,
      LOG_LEVEL: 'info',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /"msg":"register file loaded"/);
  });
});
