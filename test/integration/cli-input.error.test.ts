import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  failureLine,
  freshInstallation,
  type Installation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';

// Values an operator can type that the database or the service cannot use as given: each is the
// one-line message and exit 1 of the CLI (README), with nothing half-created. (A NUL cannot reach a
// process argument at all; the account services refuse it too, see accounts.error.test.ts.)

describe('tmwatch refuses unusable values with one line, and keeps nothing of them', () => {
  let install: Installation;
  let dir: string;
  const run = (...args: string[]) => tmwatch(args, install.env);

  before(async () => {
    install = await freshInstallation();
    dir = mkdtempSync(join(tmpdir(), 'tmwatch-input-'));
  });
  after(async () => {
    await install.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('users create with a password longer than sign-in accepts is refused', async () => {
    const email = 'long-password@example.test';
    const result = await run('users', 'create', '--email', email, '--password', 'p'.repeat(1025));
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: password must be at most 1024 characters');
    // Nothing was created: the address is still free.
    assert.equal(printedObject(await run('users', 'create', '--email', email)).email, email);
  });

  test('users update with a password longer than sign-in accepts is refused', async () => {
    const user = printedObject(await run('users', 'create', '--email', 'upd@example.test'));
    const result = await run('users', 'update', user.id, '--password', 'p'.repeat(1025));
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: password must be at most 1024 characters');
  });

  test('orgs create with an escape sequence in the name is refused', async () => {
    const result = await run('orgs', 'create', '--name', 'Acme\u001b[2J', '--tier', 'team');
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /^tmwatch: name must be one line of text without control/);
  });

  test('keys create with a line break in the name is refused', async () => {
    const user = printedObject(await run('users', 'create', '--email', 'keys@example.test'));
    const result = await run(
      'keys',
      'create',
      '--user',
      user.id,
      '--name',
      'ci\nsecond line',
      '--scopes',
      'watches:read',
    );
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /^tmwatch: name must be one line of text without control/);
  });

  test('users create with an e-mail address of 300 characters is refused', async () => {
    const result = await run('users', 'create', '--email', `${'a'.repeat(290)}@example.test`);
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: email is not a valid address');
  });
});
