import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../src/domain/api-keys.ts';
import { assertError } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// Step 2 of the request pipeline: anything but exactly `Bearer <live key>` is 401 unauthenticated.

describe('authentication', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const refuse = async (headers: Record<string, string>, path = '/api/v1/me') =>
    assertError(await server.request('GET', path, { headers }), 401, 'unauthenticated');

  it('a request without an Authorization header is 401', async () => {
    await refuse({});
  });

  it('"Bearer" without a token is 401', async () => {
    await refuse({ authorization: 'Bearer' });
  });

  it('"Bearer " followed by nothing but spaces is 401', async () => {
    await refuse({ authorization: 'Bearer    ' });
  });

  it('Basic credentials are 401', async () => {
    const { key } = await server.make.makeKey();
    await refuse({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });
  });

  it('a live key under lower-case "bearer" is 401', async () => {
    const { key } = await server.make.makeKey();
    await refuse({ authorization: `bearer ${key}` });
  });

  it('a live key after two spaces is 401', async () => {
    const { key } = await server.make.makeKey();
    await refuse({ authorization: `Bearer  ${key}` });
  });

  it('a live key followed by another word is 401', async () => {
    const { key } = await server.make.makeKey();
    await refuse({ authorization: `Bearer ${key} extra` });
  });

  it('a live key sent bare, without the scheme, is 401', async () => {
    const { key } = await server.make.makeKey();
    await refuse({ authorization: key });
  });

  it('a well-formed key that was never issued is 401', async () => {
    await refuse({ authorization: `Bearer tmw_${'A'.repeat(43)}` });
  });

  it('a live key with one character changed is 401', async () => {
    const { key } = await server.make.makeKey();
    const last = key.endsWith('a') ? 'b' : 'a';
    await refuse({ authorization: `Bearer ${key.slice(0, -1)}${last}` });
  });

  it('a key of the wrong shape is 401', async () => {
    await refuse({ authorization: 'Bearer sk_live_0123456789' });
  });

  it('a revoked key is refused on the very next request', async () => {
    const { auth, id } = await server.make.makeKey();
    assert.equal((await server.request('GET', '/api/v1/watches', { headers: auth })).status, 200);
    await server.make.accounts.revokeKey(id);
    await refuse(auth, '/api/v1/watches');
  });

  it('a revoked key is refused on GET /me too', async () => {
    const { auth, id } = await server.make.makeKey();
    await server.make.accounts.revokeKey(id);
    await refuse(auth);
  });

  it('revoking one key leaves the user’s other keys working (rotation)', async () => {
    const old = await server.make.makeKey();
    const fresh = await server.make.makeKey({ userId: old.userId });
    assert.equal((await server.request('GET', '/api/v1/me', { headers: old.auth })).status, 200);
    assert.equal((await server.request('GET', '/api/v1/me', { headers: fresh.auth })).status, 200);
    await server.make.accounts.revokeKey(old.id);
    await refuse(old.auth);
    assert.equal((await server.request('GET', '/api/v1/me', { headers: fresh.auth })).status, 200);
  });

  it('a burst of requests with many keys: each answered as its own key, revoked ones refused', async () => {
    // Concurrent lookups share one statement (createPrincipalLookup): no answer may go to the
    // wrong request, and a key revoked before the burst must fail inside it.
    const live = await Promise.all(Array.from({ length: 12 }, () => server.make.makeKey()));
    const revoked = await Promise.all(Array.from({ length: 4 }, () => server.make.makeKey()));
    for (const key of revoked) await server.make.accounts.revokeKey(key.id);
    const burst = [...live, ...revoked, ...live].map((key) => ({
      key,
      pending: server.request('GET', '/api/v1/me', { headers: key.auth }),
    }));
    const revokedIds = new Set(revoked.map((key) => key.id));
    for (const { key, pending } of burst) {
      const res = await pending;
      if (revokedIds.has(key.id)) {
        assertError(res, 401, 'unauthenticated');
      } else {
        assert.equal(res.status, 200);
        assert.equal(res.body.data.key.id, key.id);
        assert.equal(res.body.data.user.id, key.userId);
      }
    }
  });

  it('an unknown key and a revoked key get the same answer', async () => {
    const { auth, id } = await server.make.makeKey();
    await server.make.accounts.revokeKey(id);
    const revoked = await server.request('GET', '/api/v1/me', { headers: auth });
    const unknown = await server.request('GET', '/api/v1/me', {
      headers: { authorization: `Bearer tmw_${'B'.repeat(43)}` },
    });
    assert.deepEqual(revoked.body, unknown.body);
  });

  it('every /api/v1 endpoint requires a key', async () => {
    const endpoints: [string, string][] = [
      ['GET', '/api/v1/me'],
      ['GET', '/api/v1/watches'],
      ['POST', '/api/v1/watches'],
      ['GET', '/api/v1/watches/wat_x'],
      ['PATCH', '/api/v1/watches/wat_x'],
      ['DELETE', '/api/v1/watches/wat_x'],
      ['GET', '/api/v1/alerts'],
      ['GET', '/api/v1/alerts/alt_x'],
      ['PATCH', '/api/v1/alerts/alt_x'],
    ];
    for (const [method, path] of endpoints) {
      const res = await server.request(method, path, {
        body: method === 'POST' || method === 'PATCH' ? {} : undefined,
      });
      assertError(res, 401, 'unauthenticated');
    }
  });

  it('a 401 carries no rate-limit headers: no key was identified to count against', async () => {
    const res = await server.request('GET', '/api/v1/me');
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('x-ratelimit-remaining'), null);
  });

  it('only the SHA-256 hash and a short prefix of a key are stored, never the key', async () => {
    const { key, id } = await server.make.makeKey();
    const rows = await server.db.query<Record<string, unknown>>(
      'SELECT * FROM api_keys WHERE id = $1',
      [id],
    );
    const row = rows[0];
    assert.ok(row);
    assert.equal(row.hash, hashApiKey(key));
    assert.ok(key.startsWith(String(row.prefix)));
    assert.ok(String(row.prefix).length < 16);
    assert.equal(JSON.stringify(row).includes(key), false);
  });
});
