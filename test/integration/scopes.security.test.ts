import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCOPES, type Scope } from '../../src/domain/api-keys.ts';
import { assertError } from '../helpers/api.ts';
import { seedWatches } from '../helpers/seed.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// Steps 4–5 of the request pipeline (docs/architecture.md): tier first (free and solo have no API), then the scope each endpoint
// requires. GET /me is exempt from both.

type Endpoint = {
  name: string;
  scope: Scope | null;
  call(ids: { watchId: string; alertId: string }): [string, string, unknown?];
  ok: number;
};

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /me', scope: null, call: () => ['GET', '/api/v1/me'], ok: 200 },
  { name: 'GET /watches', scope: 'watches:read', call: () => ['GET', '/api/v1/watches'], ok: 200 },
  {
    name: 'GET /watches/{id}',
    scope: 'watches:read',
    call: ({ watchId }) => ['GET', `/api/v1/watches/${watchId}`],
    ok: 200,
  },
  {
    name: 'POST /watches',
    scope: 'watches:write',
    call: () => ['POST', '/api/v1/watches', validWatch()],
    ok: 201,
  },
  {
    name: 'PATCH /watches/{id}',
    scope: 'watches:write',
    call: ({ watchId }) => ['PATCH', `/api/v1/watches/${watchId}`, { name: 'Renamed' }],
    ok: 200,
  },
  {
    name: 'DELETE /watches/{id}',
    scope: 'watches:write',
    call: ({ watchId }) => ['DELETE', `/api/v1/watches/${watchId}`],
    ok: 200,
  },
  { name: 'GET /alerts', scope: 'alerts:read', call: () => ['GET', '/api/v1/alerts'], ok: 200 },
  {
    name: 'GET /alerts/{id}',
    scope: 'alerts:read',
    call: ({ alertId }) => ['GET', `/api/v1/alerts/${alertId}`],
    ok: 200,
  },
  {
    name: 'PATCH /alerts/{id}',
    scope: 'alerts:read',
    call: ({ alertId }) => ['PATCH', `/api/v1/alerts/${alertId}`, { state: 'read' }],
    ok: 200,
  },
];

/** Every subset of the four scopes, the empty one included. */
const SUBSETS: Scope[][] = Array.from({ length: 2 ** SCOPES.length }, (_, mask) =>
  SCOPES.filter((_, bit) => mask & (1 << bit)),
);

describe('tiers and scopes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** A key with the given scopes, and a watch and an alert its user owns. */
  async function keyWithResources(options: {
    tier: 'free' | 'solo' | 'team' | 'enterprise';
    scopes: string[];
  }) {
    const { auth, userId } = await server.make.makeKey(options);
    const [watchId] = await seedWatches(server.db, {
      ownerId: userId,
      createdBy: userId,
      count: 1,
    });
    assert.ok(watchId);
    const alertId = await server.make.makeAlert(watchId);
    return { auth, ids: { watchId, alertId } };
  }

  async function call(endpoint: Endpoint, auth: object, ids: { watchId: string; alertId: string }) {
    const [method, path, body] = endpoint.call(ids);
    return server.request(method, path, { headers: auth as Record<string, string>, body });
  }

  for (const tier of ['team', 'enterprise'] as const) {
    for (const scopes of SUBSETS) {
      const label = scopes.length === 0 ? 'no scopes' : scopes.join(' + ');
      it(`a ${tier} key with ${label} reaches exactly the endpoints those scopes grant`, async () => {
        const { auth, ids } = await keyWithResources({ tier, scopes });
        for (const endpoint of ENDPOINTS) {
          const res = await call(endpoint, auth, ids);
          if (endpoint.scope === null || scopes.includes(endpoint.scope)) {
            assert.equal(res.status, endpoint.ok, `${endpoint.name}: ${res.text}`);
          } else {
            assertError(res, 403, 'forbidden');
            assert.ok(
              res.body.error.message.includes(endpoint.scope),
              `${endpoint.name}: the message names ${endpoint.scope}: ${res.body.error.message}`,
            );
          }
        }
      });
    }
  }

  for (const tier of ['free', 'solo'] as const) {
    it(`a ${tier} key with every scope is refused on every endpoint but GET /me`, async () => {
      const { auth, ids } = await keyWithResources({ tier, scopes: [...SCOPES] });
      for (const endpoint of ENDPOINTS) {
        const res = await call(endpoint, auth, ids);
        if (endpoint.scope === null) {
          assert.equal(res.status, 200, res.text);
          continue;
        }
        assertError(res, 403, 'forbidden');
        assert.match(res.body.error.message, /REST API access is not included/);
      }
    });
  }

  it('the tier is checked before the scope: a scopeless free key hears about the plan', async () => {
    const { auth } = await server.make.makeKey({ tier: 'free', scopes: [] });
    const res = await server.request('GET', '/api/v1/watches', { headers: auth });
    assertError(res, 403, 'forbidden');
    assert.match(res.body.error.message, /REST API access is not included/);
  });

  it('watches:write does not imply watches:read', async () => {
    const { auth } = await server.make.makeKey({ scopes: ['watches:write'] });
    const created = await server.request('POST', '/api/v1/watches', {
      headers: auth,
      body: validWatch(),
    });
    assert.equal(created.status, 201);
    const read = await server.request('GET', `/api/v1/watches/${created.body.data.id}`, {
      headers: auth,
    });
    assertError(read, 403, 'forbidden');
    assert.match(read.body.error.message, /watches:read/);
  });

  it('apikeys:read grants nothing of the API but GET /me, which needs no scope', async () => {
    const { auth, ids } = await keyWithResources({ tier: 'team', scopes: ['apikeys:read'] });
    for (const endpoint of ENDPOINTS.filter((e) => e.scope !== null)) {
      assertError(await call(endpoint, auth, ids), 403, 'forbidden');
    }
  });

  it('the 403 for a missing scope names the scope, e.g. watches:write', async () => {
    const { auth } = await server.make.makeKey({ scopes: ['watches:read', 'alerts:read'] });
    const res = await server.request('POST', '/api/v1/watches', {
      headers: auth,
      body: validWatch(),
    });
    assertError(res, 403, 'forbidden');
    assert.match(res.body.error.message, /watches:write/);
  });

  it('an organization member gets the organization’s plan, not the personal one', async () => {
    const org = await server.make.makeOrg({ tier: 'team' });
    const { auth, userId } = await server.make.makeKey({ orgId: org.id });
    await server.db.query(`UPDATE users SET tier = 'free' WHERE id = $1`, [userId]);
    assert.equal((await server.request('GET', '/api/v1/watches', { headers: auth })).status, 200);
  });

  it('a Team user in a Solo organization has no API access', async () => {
    const org = await server.make.makeOrg({ tier: 'solo' });
    const { auth, userId } = await server.make.makeKey({ orgId: org.id });
    await server.db.query(`UPDATE users SET tier = 'team' WHERE id = $1`, [userId]);
    const res = await server.request('GET', '/api/v1/watches', { headers: auth });
    assertError(res, 403, 'forbidden');
    assert.match(res.body.error.message, /REST API access is not included/);
  });

  it('a plan change takes effect on the next request', async () => {
    const { auth, userId } = await server.make.makeKey({ tier: 'team' });
    assert.equal((await server.request('GET', '/api/v1/watches', { headers: auth })).status, 200);
    await server.make.accounts.updateUser(userId, { tier: 'solo' });
    assertError(
      await server.request('GET', '/api/v1/watches', { headers: auth }),
      403,
      'forbidden',
    );
  });
});
