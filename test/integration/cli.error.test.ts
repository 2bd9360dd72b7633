import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  failureLine,
  freshInstallation,
  type Installation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';

describe('tmwatch command-line mistakes are usage errors (exit 2, one line on stderr)', () => {
  // None of these reaches the database, so they need no installation.
  const env = { DATA_DIR: join('/nonexistent', 'tmwatch-never-created') };

  test('no command at all', async () => {
    const result = await tmwatch([], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /no command given.*tmwatch --help/);
  });

  test('an unknown command is named in the message', async () => {
    const result = await tmwatch(['frobnicate'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /unknown command "frobnicate"/);
  });

  test('an unknown subcommand is named in the message', async () => {
    const result = await tmwatch(['keys', 'rotate'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /unknown command "keys rotate"/);
  });

  test('a group without its subcommand lists the subcommands', async () => {
    const result = await tmwatch(['users'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /"users" needs a subcommand: create, update/);
  });

  test('a missing required option is named, with the usage line', async () => {
    const result = await tmwatch(['orgs', 'create', '--tier', 'team'], env);
    assert.equal(result.status, 2);
    assert.match(
      failureLine(result),
      /missing option --name \(usage: tmwatch orgs create --name N --tier T\)/,
    );
  });

  test('an unknown option is named', async () => {
    const result = await tmwatch(
      ['orgs', 'create', '--name', 'A', '--tier', 'team', '--colour', 'red'],
      env,
    );
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /--colour/);
  });

  test('a mistyped option is named with balanced quotes and the nearest option', async () => {
    const result = await tmwatch(['scan', '--wach', 'x'], env);
    assert.equal(result.status, 2);
    assert.equal(
      failureLine(result),
      'tmwatch: unknown option --wach (did you mean --watch?) (usage: tmwatch scan [--watch ID]... [--due])',
    );
  });

  test('an option without its value is refused', async () => {
    const result = await tmwatch(['orgs', 'create', '--tier', 'team', '--name'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /--name/);
  });

  test('an extra argument is refused', async () => {
    const result = await tmwatch(['keys', 'revoke', 'key_a', 'key_b'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /unexpected argument "key_b"/);
  });

  test('a tier outside the plans is refused before anything runs', async () => {
    const result = await tmwatch(['orgs', 'create', '--name', 'A', '--tier', 'gold'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /--tier must be one of free, solo, team, enterprise/);
  });

  test('a missing positional argument is named', async () => {
    const result = await tmwatch(['keys', 'revoke'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /missing argument ID/);
  });

  test('users update with nothing to change', async () => {
    const result = await tmwatch(['users', 'update', 'usr_x'], env);
    assert.equal(result.status, 2);
    assert.match(failureLine(result), /nothing to change: give --tier, --org or --password/);
  });

  test('none of them created the data directory', () => {
    assert.equal(existsSync(env.DATA_DIR), false);
  });
});

describe('bad configuration stops a command at start, naming the variable', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['DATABASE_URL', 'foo'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['SCHEDULER', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['REDIS_URL', 'localhost:6379'],
  ] as const) {
    test(`${name}=${value}`, async () => {
      const dataDir = join('/nonexistent', `tmwatch-${name}`);
      const result = await tmwatch(['migrate'], { DATA_DIR: dataDir, [name]: value });
      assert.equal(result.status, 1);
      const line = failureLine(result);
      assert.match(line, new RegExp(`^tmwatch: invalid configuration: ${name} `));
      assert.equal(existsSync(dataDir), false, 'nothing was opened');
    });
  }

  test('a secret-bearing variable is not repeated in the message', async () => {
    const result = await tmwatch(['migrate'], { DATABASE_URL: 'mysql://root:hunter2@db/x' });
    assert.doesNotMatch(failureLine(result), /hunter2/);
  });
});

describe('tmwatch commands the database refuses (exit 1, one line on stderr)', () => {
  let install: Installation;
  const run = (...args: string[]) => tmwatch(args, install.env);

  before(async () => {
    install = await freshInstallation();
  });
  after(async () => {
    await install.cleanup();
  });

  test('keys create for a user that does not exist', async () => {
    const result = await run(
      'keys',
      'create',
      '--user',
      'usr_nope',
      '--name',
      'k',
      '--scopes',
      'watches:read',
    );
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: user usr_nope does not exist');
  });

  test('keys create with an unknown scope names it', async () => {
    const user = printedObject(await run('users', 'create', '--email', 'scopes@example.test'));
    const result = await run(
      'keys',
      'create',
      '--user',
      user.id,
      '--name',
      'k',
      '--scopes',
      'watches:read,admin',
    );
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: unknown scope: admin');
  });

  test('keys revoke of a key that does not exist', async () => {
    const result = await run('keys', 'revoke', 'key_nope');
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: key key_nope does not exist');
  });

  test('users create with an e-mail address already taken', async () => {
    printedObject(await run('users', 'create', '--email', 'taken@example.test'));
    const result = await run('users', 'create', '--email', 'TAKEN@example.test');
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /already exists/);
  });

  test('users create with an invalid e-mail address or a short password', async () => {
    const email = await run('users', 'create', '--email', 'not-an-address');
    assert.equal(email.status, 1);
    assert.match(failureLine(email), /email/);
    const password = await run(
      'users',
      'create',
      '--email',
      'short@example.test',
      '--password',
      'short',
    );
    assert.equal(password.status, 1);
    assert.match(failureLine(password), /at least 8 characters/);
  });

  test('users create --org with an organization that does not exist', async () => {
    const result = await run(
      'users',
      'create',
      '--email',
      'orphan@example.test',
      '--org',
      'org_nope',
    );
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: organization org_nope does not exist');
  });

  test('users update of a user that does not exist', async () => {
    const result = await run('users', 'update', 'usr_nope', '--tier', 'solo');
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: user usr_nope does not exist');
  });
});

test('an unreachable PostgreSQL server is one line naming DATABASE_URL', async () => {
  const result = await tmwatch(['migrate'], {
    DATABASE_URL: 'postgres://tmwatch@127.0.0.1:1/none',
  });
  assert.equal(result.status, 1);
  assert.match(failureLine(result), /^tmwatch: cannot reach the database server \(DATABASE_URL\)/);
});
