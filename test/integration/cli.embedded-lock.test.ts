import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  failureLine,
  freshInstallation,
  getWithKey,
  printedObject,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';

// PGlite has no lock of its own: two processes on one data directory would corrupt it. These
// tests hold the embedded database with `serve`, whatever database the rest of the suite uses.

test('while serve holds the embedded database, every CLI command exits at once with what to do', async (t) => {
  const install = await freshInstallation({ embedded: true });
  t.after(() => install.cleanup());
  const server = await startServe(install.env);
  t.after(() => server.stop('SIGKILL'));
  const key = /API key: +(tmw_[0-9A-Za-z]+)/.exec(server.banner)?.[1] ?? '';

  // A command that succeeds on a free database takes at least as long as opening it; a refused one
  // must not wait for anything (not for the server, not for a timeout).
  for (const args of [
    ['migrate'],
    ['orgs', 'create', '--name', 'Blocked', '--tier', 'team'],
    ['keys', 'revoke', 'key_whatever'],
  ]) {
    const result = await tmwatch(args, install.env);
    assert.equal(result.status, 1, args.join(' '));
    const line = failureLine(result);
    assert.match(
      line,
      /^tmwatch: the embedded database in .+ is in use by another tmwatch process \(pid \d+\)/,
    );
    assert.match(
      line,
      /stop that process first, or run the service on PostgreSQL \(DATABASE_URL\)/,
    );
    assert.ok(result.ms < 30_000, `${args.join(' ')} took ${result.ms} ms`);
  }

  // The server never noticed: it still answers from an intact database.
  assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  assert.equal((await getWithKey(server.url, '/api/v1/me', key)).status, 200);
  assert.equal(await server.stop(), 0);

  // Nothing the refused commands tried happened, and the database opens cleanly afterwards.
  const org = printedObject(
    await tmwatch(['orgs', 'create', '--name', 'After', '--tier', 'team'], install.env),
  );
  assert.match(org.id, /^org_/);
});

test('a lock left behind by a process that died does not block the next command', async (t) => {
  const install = await freshInstallation({ embedded: true });
  t.after(() => install.cleanup());
  // A pid far above any Linux pid_max: certainly not a running process.
  writeFileSync(join(install.dataDir, 'tmwatch.lock'), '99999999');
  const result = await tmwatch(['migrate'], install.env);
  assert.deepEqual(printedObject(result), { applied: [] });
});
