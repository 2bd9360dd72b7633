import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listMigrations } from '../../src/data/migrate.ts';
import {
  freshInstallation,
  getWithKey,
  type Installation,
  printedObject,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('tmwatch administration commands', () => {
  let install: Installation;
  const run = (...args: string[]) => tmwatch(args, install.env);

  before(async () => {
    install = await freshInstallation();
  });
  after(async () => {
    await install.cleanup();
  });

  test('migrate on an empty database prints every migration it applied, then none', async () => {
    const empty = await freshInstallation({ empty: true });
    try {
      const first = printedObject(await tmwatch(['migrate'], empty.env));
      assert.deepEqual(first, { applied: listMigrations().map((m) => m.version) });
      const second = printedObject(await tmwatch(['migrate'], empty.env));
      assert.deepEqual(second, { applied: [] });
    } finally {
      await empty.cleanup();
    }
  });

  test('orgs create prints the organization as one JSON object', async () => {
    const org = printedObject(
      await run('orgs', 'create', '--name', 'Acme Legal', '--tier', 'team'),
    );
    assert.match(org.id, /^org_/);
    assert.equal(org.name, 'Acme Legal');
    assert.equal(org.tier, 'team');
    assert.match(org.createdAt, ISO_MS);
  });

  test('users create without options makes a free user without a password', async () => {
    const user = printedObject(await run('users', 'create', '--email', 'free@example.test'));
    assert.match(user.id, /^usr_/);
    assert.equal(user.email, 'free@example.test');
    assert.equal(user.tier, 'free');
    assert.equal(user.organizationId, null);
    assert.equal(user.hasPassword, false);
    assert.match(user.createdAt, ISO_MS);
  });

  test('users create with --password and --tier sets both', async () => {
    const user = printedObject(
      await run(
        'users',
        'create',
        '--email',
        'solo@example.test',
        '--password',
        'long enough',
        '--tier',
        'solo',
      ),
    );
    assert.equal(user.tier, 'solo');
    assert.equal(user.hasPassword, true);
  });

  test('users create --org takes the organization’s tier', async () => {
    const org = printedObject(
      await run('orgs', 'create', '--name', 'Big Co', '--tier', 'enterprise'),
    );
    const user = printedObject(
      await run('users', 'create', '--email', 'member@example.test', '--org', org.id),
    );
    assert.equal(user.organizationId, org.id);
    assert.equal(user.tier, 'enterprise');
  });

  test('users update changes the tier, joins and leaves an organization, sets a password', async () => {
    const user = printedObject(await run('users', 'create', '--email', 'mover@example.test'));
    const upgraded = printedObject(await run('users', 'update', user.id, '--tier', 'solo'));
    assert.equal(upgraded.id, user.id);
    assert.equal(upgraded.tier, 'solo');

    const org = printedObject(await run('orgs', 'create', '--name', 'Team Co', '--tier', 'team'));
    const joined = printedObject(await run('users', 'update', user.id, '--org', org.id));
    assert.equal(joined.organizationId, org.id);
    assert.equal(joined.tier, 'team');

    const left = printedObject(await run('users', 'update', user.id, '--org', 'none'));
    assert.equal(left.organizationId, null);

    const withPassword = printedObject(
      await run('users', 'update', user.id, '--password', 'a new password'),
    );
    assert.equal(withPassword.hasPassword, true);
  });

  test('keys create prints the plaintext key once with its metadata, keys revoke its revocation', async () => {
    const user = printedObject(
      await run('users', 'create', '--email', 'keys@example.test', '--tier', 'team'),
    );
    const key = printedObject(
      await run(
        'keys',
        'create',
        '--user',
        user.id,
        '--name',
        'ci',
        '--scopes',
        'watches:read,alerts:read',
      ),
    );
    assert.match(key.id, /^key_/);
    assert.match(key.key, /^tmw_[0-9A-Za-z]{43}$/);
    assert.equal(key.name, 'ci');
    assert.equal(key.userId, user.id);
    assert.deepEqual(key.scopes, ['watches:read', 'alerts:read']);
    assert.equal(key.revokedAt, null);
    assert.ok(key.key.startsWith(key.prefix));

    const revoked = printedObject(await run('keys', 'revoke', key.id));
    assert.equal(revoked.id, key.id);
    assert.match(revoked.revokedAt, ISO_MS);
    assert.equal(revoked.key, undefined, 'the plaintext is never shown again');
  });

  test('a key made with the CLI works, and after keys revoke the same key gets 401', async () => {
    const user = printedObject(
      await run('users', 'create', '--email', 'api@example.test', '--tier', 'team'),
    );
    const key = printedObject(
      await run('keys', 'create', '--user', user.id, '--name', 'api', '--scopes', 'watches:read'),
    );

    // The embedded database has one process at a time, so the server is stopped to revoke;
    // on PostgreSQL the revocation happens while it runs (server.happy.test.ts).
    let server = await startServe(install.env);
    try {
      const me = await getWithKey(server.url, '/api/v1/me', key.key);
      assert.equal(me.status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    printedObject(await run('keys', 'revoke', key.id));
    server = await startServe(install.env);
    try {
      const me = await getWithKey(server.url, '/api/v1/me', key.key);
      assert.equal(me.status, 401);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('--help lists every command on stdout and exits 0', async () => {
    const result = await tmwatch(['--help'], {});
    assert.equal(result.status, 0);
    for (const name of [
      'serve',
      'worker',
      'migrate',
      'orgs create',
      'users create',
      'users update',
      'keys create',
      'keys revoke',
      'marks import',
      'scan',
      'emails flush',
      'registers sync',
      'registers list',
    ]) {
      assert.match(result.stdout, new RegExp(`^  ${name} `, 'm'), name);
    }
  });

  test('COMMAND --help shows its usage line and exits 0 without touching the database', async () => {
    const result = await tmwatch(['keys', 'create', '--help'], { DATABASE_URL: 'foo' });
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Usage: tmwatch keys create --user ID --name N --scopes s1,s2$/m);
  });
});
