import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient, PASSWORD, signedIn, textOf } from '../helpers/dashboard.ts';
import { checkLogsAfterEach, startTestServer, type TestServer } from '../helpers/server.ts';

// A form field can carry U+0000 (%00), which PostgreSQL refuses in text: every such field is a
// page that says what is wrong (or, at sign-in, the usual "incorrect"), never a 500 page.

describe('dashboard: hostile form input', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  after(() => server.close());

  checkLogsAfterEach(() => server);

  it('sign-in with a NUL in the e-mail is "incorrect" (401), not a 500', async () => {
    const client = new DashboardClient(server);
    const response = await client.signIn('ana\u0000@example.test', PASSWORD);
    assert.equal(response.status, 401, textOf(response.text));
    assert.match(textOf(response.text), /e-mail address or password is incorrect/);
  });

  it('a key name with a NUL is a 422 naming the character, and no key is created', async () => {
    const { client, user } = await signedIn(server, { tier: 'team' });
    await client.get('/api-keys');
    const response = await client.post('/api-keys', {
      name: 'ci\u0000',
      scopes: ['watches:read'],
    });
    assert.equal(response.status, 422, textOf(response.text));
    assert.match(textOf(response.text), /NUL/);
    assert.equal((await server.make.accounts.listKeys(user.id)).length, 0);
  });

  it('a key name with a control character is a 422, and no key is created', async () => {
    const { client, user } = await signedIn(server, { tier: 'team' });
    await client.get('/api-keys');
    const response = await client.post('/api-keys', {
      name: 'ci\u001b[31m',
      scopes: ['watches:read'],
    });
    assert.equal(response.status, 422, textOf(response.text));
    assert.match(textOf(response.text), /control characters/);
    assert.equal((await server.make.accounts.listKeys(user.id)).length, 0);
  });

  it('revoking a key whose id holds a NUL is a 404 page, not a 500', async () => {
    const { client } = await signedIn(server, { tier: 'team' });
    await client.get('/api-keys');
    const response = await client.post('/api-keys/key_%00/revoke');
    assert.equal(response.status, 404, textOf(response.text));
  });

  it('DELETE /api/v1/api-keys/{id} with a NUL in the id is a 404, not a 500', async () => {
    const { client } = await signedIn(server, { tier: 'team' });
    await client.get('/api-keys');
    const response = await fetch(`${server.baseUrl}/api/v1/api-keys/key_%00`, {
      method: 'DELETE',
      headers: {
        cookie: client.cookieHeader(),
        origin: server.baseUrl,
        'x-csrf-token': client.csrf,
      },
    });
    assert.equal(response.status, 404, await response.text());
  });

  it('an over-long id in a dashboard path is a 404 page, not a 500', async () => {
    const { client } = await signedIn(server, { tier: 'team' });
    const response = await client.get(`/watches/wat_${'a'.repeat(500)}`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
  });

  it('a watch name with a control character is refused next to the name box', async () => {
    const { client } = await signedIn(server, { tier: 'team' });
    await client.get('/watches/new');
    const response = await client.post('/watches', {
      name: 'Acme\u0007',
      niceClasses: '9',
      designations: 'DE',
      scanCadence: 'daily',
    });
    assert.equal(response.status, 422, textOf(response.text));
    assert.match(textOf(response.text), /Name must be one line of text without control characters/);
  });
});
