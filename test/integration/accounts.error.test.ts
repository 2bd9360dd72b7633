import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccountService } from '../../src/domain/accounts.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The account services behind `tmwatch users|orgs|keys` and the dashboard, on a real database:
// text PostgreSQL cannot store (U+0000, which no process argument can carry but a caller in
// process or a form can) is a validation error naming the field, and a malformed id is absent,
// never a database error.

describe('account services: text the database cannot store', () => {
  let database: TestDatabase;
  let accounts: ReturnType<typeof createAccountService>;
  let userId: string;
  before(async () => {
    database = await createTestDatabase();
    accounts = createAccountService(database.db);
    userId = (await accounts.createUser({ email: 'owner@example.test' })).id;
  });
  after(() => database.drop());

  const refused = (kind: string, message: RegExp) => (error: unknown) => {
    assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
    assert.equal(error.kind, kind);
    assert.match(error.message, message);
    return true;
  };

  it('an organization name with a NUL is a validation error', async () => {
    await assert.rejects(
      accounts.createOrganization({ name: 'Acme\u0000', tier: 'team' }),
      refused('validation_error', /^name must not contain the NUL character/),
    );
  });

  it('an e-mail address with a NUL is a validation error', async () => {
    await assert.rejects(
      accounts.createUser({ email: 'a\u0000b@example.test' }),
      refused('validation_error', /email is not a valid address/),
    );
  });

  it('a key name with an unpaired surrogate is a validation error', async () => {
    await assert.rejects(
      accounts.createKey({ userId, name: 'ci\ud800', scopes: ['watches:read'] }),
      refused('validation_error', /^name must be valid Unicode/),
    );
  });

  it('ids holding a NUL are absent, not a database error', async () => {
    await assert.rejects(
      accounts.createUser({ email: 'member@example.test', organizationId: 'org_\u0000' }),
      refused('not_found', /^organization org_\\u0000 does not exist$/),
    );
    await assert.rejects(
      accounts.updateUser('usr_\u0000', { tier: 'team' }),
      refused('not_found', /^user usr_\\u0000 does not exist$/),
    );
    await assert.rejects(
      accounts.updateUser(userId, { organizationId: 'org_\u0000' }),
      refused('not_found', /does not exist/),
    );
    await assert.rejects(
      accounts.createKey({ userId: 'usr_\u0000', name: 'ci', scopes: ['watches:read'] }),
      refused('not_found', /does not exist/),
    );
    await assert.rejects(accounts.revokeKey('key_\u0000'), refused('not_found', /does not exist/));
  });
});
