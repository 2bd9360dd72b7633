import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { BIN, childEnv, printedObject, tmwatch } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type FeedServer, startFeedServer, zipOfBuffers } from '../helpers/feed-server.ts';
import { SEED_ZIP } from '../helpers/register-sync.ts';

/** util-linux's script(1): runs a command on a pseudo-terminal of its own. */
const SCRIPT = '/usr/bin/script';

describe('tmwatch registers sync|list', () => {
  let database: TestDatabase;
  let server: FeedServer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    // On PostgreSQL the commands use a database of their own; on PGlite, a data directory.
    database = await createTestDatabase();
    await database.db.close();
    dataDir = mkdtempSync(join(tmpdir(), 'tmw-registers-'));
    env = { LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: database.url };
    server = await startFeedServer();
  });
  after(async () => {
    await server.close();
    if (database.url) await database.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => runWith({}, ...args);
  async function runWith(extra: NodeJS.ProcessEnv, ...args: string[]) {
    let stdout = '';
    let stderr = '';
    const status = await main(
      args,
      { ...env, ...extra },
      {
        stdout: async (text) => {
          stdout += text;
        },
        stderr: async (text) => {
          stderr += text;
        },
      },
    );
    return { status, stdout, stderr };
  }

  it('a sync where a file failed prints the whole report and exits 1', async () => {
    server.files.set('apc260101.zip', { kind: 'status', status: 404 });
    server.files.set('apc260102.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const result = await run('registers', 'sync', '--url', server.url);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    const report = JSON.parse(result.stdout);
    assert.equal(report.feed, 'uspto-daily');
    assert.deepEqual(report.files, [
      {
        name: 'apc260101.zip',
        status: 'failed',
        bytes: null,
        imported: 0,
        updated: 0,
        skipped: 0,
        errors: 0,
        reason: 'HTTP 404 from the server',
      },
      {
        name: 'apc260102.zip',
        status: 'loaded',
        bytes: 13_974,
        imported: 11,
        updated: 0,
        skipped: 0,
        errors: 0,
      },
    ]);
  });

  it('a sync where every file loaded or was loaded before exits 0', async () => {
    server.files.set('apc260101.zip', { kind: 'file', body: readFileSync(SEED_ZIP) });
    const result = await run('registers', 'sync', '--feed', 'uspto-daily', '--url', server.url);
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.files.map((f: { name: string; status: string }) => [f.name, f.status]),
      [
        ['apc260101.zip', 'loaded'],
        ['apc260102.zip', 'skipped'],
      ],
    );
  });

  it('registers list prints every file seen, with its checksum, counts and attempts', async () => {
    const result = await run('registers', 'list', '--feed', 'uspto-daily');
    assert.equal(result.status, 0, result.stderr);
    const { files } = JSON.parse(result.stdout);
    assert.deepEqual(
      files.map((f: Record<string, unknown>) => [f.name, f.status, f.attempts, f.sha256]),
      [
        ['apc260101.zip', 'loaded', 2, files[0].sha256],
        [
          'apc260102.zip',
          'loaded',
          1,
          '51cd925187d7f7d9d8004938415e813d0fc31a58eb50b869a459d989779eeaa1',
        ],
      ],
    );
  });

  it('an unreadable listing is one line on stderr and exit status 1, with nothing on stdout', async () => {
    const result = await run('registers', 'sync', '--url', `${server.url}gone/`);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^tmwatch: cannot read the listing of feed uspto-daily .*HTTP 404/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  const NO_KEY: [string, NodeJS.ProcessEnv][] = [
    ['no --url', {}],
    ['REGISTER_FEEDS naming the feed without a URL', { REGISTER_FEEDS: 'uspto-daily' }],
  ];
  for (const [what, extra] of NO_KEY) {
    it(`without USPTO_API_KEY (${what}) the office's location is refused in one line naming it`, async () => {
      const result = await runWith(extra, 'registers', 'sync');
      assert.equal(result.status, 1);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        /^tmwatch: feed uspto-daily reads https:\/\/api\.uspto\.gov\/api\/v1\/datasets\/products\/TRTDXFAP, which needs an API key: set USPTO_API_KEY .*--url or REGISTER_FEEDS=uspto-daily=URL\n$/,
      );
    });
  }

  const CANNOT_START: [string, string[], RegExp][] = [
    [
      'euipo-bulk without a location (EUIPO publishes none)',
      ['--feed', 'euipo-bulk'],
      /^tmwatch: feed euipo-bulk has no location: EUIPO publishes no location a program can read: give the listing of a mirror with --url or REGISTER_FEEDS=euipo-bulk=URL\n$/,
    ],
    [
      'euipo-api without its client credentials',
      ['--feed', 'euipo-api'],
      /^tmwatch: feed euipo-api cannot sync: the Trademark Search API wants OAuth2 client credentials: set EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET .*\n$/,
    ],
  ];
  for (const [what, args, message] of CANNOT_START) {
    it(`${what} is one line on stderr, exit 1, before any request`, async () => {
      const result = await run('registers', 'sync', ...args);
      assert.equal(result.status, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, message);
    });
  }

  it('REGISTER_MAX_ENTRY_MB bounds what a zip may unzip to: over it, the file fails with the reason (exit 1)', async () => {
    const bomb = await zipOfBuffers({ 'apc.xml': Buffer.alloc(3 * 1024 * 1024, ' ') });
    server.files.set('apc260105.zip', { kind: 'file', body: bomb });
    const result = await runWith(
      { REGISTER_MAX_ENTRY_MB: '1' },
      'registers',
      'sync',
      '--url',
      server.url,
    );
    assert.equal(result.status, 1);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.files.at(-1), {
      name: 'apc260105.zip',
      status: 'failed',
      bytes: bomb.length,
      imported: 0,
      updated: 0,
      skipped: 0,
      errors: 0,
      reason:
        'apc.xml unzips to 3145728 bytes, over the limit of 1 MB per entry (REGISTER_MAX_ENTRY_MB)',
    });
    server.files.delete('apc260105.zip');
  });

  const USAGE: [string, string[], RegExp][] = [
    ['a --since that is not a date', ['--since', '2026-02-30'], /--since must be a date/],
    ['an unknown feed', ['--feed', 'nowhere'], /--feed must be one of uspto-daily/],
    ['a --url that is not http(s)', ['--url', 'file:///etc/passwd'], /--url must be an http/],
  ];
  for (const [what, args, message] of USAGE) {
    it(`${what} is a usage error (exit 2)`, async () => {
      const result = await run('registers', 'sync', ...args);
      assert.equal(result.status, 2);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }

  it('progress bars go to stderr when it is a terminal, and never into the JSON on stdout', async (t) => {
    if (!existsSync(SCRIPT)) {
      t.skip(`${SCRIPT} (util-linux) is not installed: no pseudo-terminal to run the command on`);
      return;
    }
    const seed = readFileSync(SEED_ZIP);
    // stderr a pipe: no bar, not even a line of one.
    server.files.set('apc260103.zip', { kind: 'file', body: seed });
    const piped = await tmwatch(['registers', 'sync', '--url', server.url], env);
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.stderr, '');
    assert.equal(printedObject(piped).files.at(-1).status, 'loaded');

    // stderr a terminal (script's pseudo-terminal), stdout a file.
    server.files.set('apc260104.zip', { kind: 'file', body: seed });
    const out = join(dataDir, 'report.json');
    const command = `${BIN} registers sync --url ${server.url} > ${out}`;
    // Not spawnSync: the feed server answers from this process's event loop.
    const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], {
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let terminal = '';
    child.stdout.on('data', (chunk) => {
      terminal += chunk;
    });
    const status = await new Promise((resolve) => child.once('close', resolve));
    const onTerminal = { status, stdout: terminal };
    assert.equal(onTerminal.status, 0, onTerminal.stdout);
    // The local feed declares no length: the download counts its MB, the import has a bar.
    assert.match(onTerminal.stdout, /apc260104\.zip download \| 0\.01 MB/);
    assert.match(onTerminal.stdout, /apc260104\.zip import \[=+\] 100% \| 0\.16\/0\.16 MB/);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(report.files.at(-1), {
      name: 'apc260104.zip',
      status: 'loaded',
      bytes: seed.length,
      imported: 0,
      updated: 11,
      skipped: 0,
      errors: 0,
    });
  });
});
