import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// GET /api/v1/me, callable by any valid key whatever its tier or scopes.

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// A fixed instant, so that two requests of one test can never straddle a rate-limit window.
const NOW = Date.UTC(2026, 10, 22, 9, 30, 15);

describe('GET /api/v1/me', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ rateLimitPerMinute: 60, clock: { now: () => NOW } });
  });
  after(() => server.close());

  it('describes a personal user: user, no organization, plan, key and rate limit', async () => {
    const user = await server.make.makeUser({ tier: 'team' });
    const created = await server.make.makeKey({
      userId: user.id,
      scopes: ['watches:read', 'alerts:read'],
    });
    const res = await server.request('GET', '/api/v1/me', { headers: created.auth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      data: {
        user: { id: user.id, email: user.email },
        organization: null,
        plan: { tier: 'team', apiAccess: true, maxActiveWatches: 500, minScanCadence: 'hourly' },
        key: {
          id: created.id,
          name: created.name,
          scopes: ['watches:read', 'alerts:read'],
          createdAt: created.createdAt,
        },
        rateLimit: { limit: 60, remaining: 59 },
      },
    });
    assert.match(res.body.data.key.createdAt, ISO_MS);
  });

  it('describes an organization member with the organization and its plan', async () => {
    const org = await server.make.makeOrg({ tier: 'enterprise', name: 'Globex Legal' });
    const { auth } = await server.make.makeKey({ orgId: org.id });
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.organization, { id: org.id, name: 'Globex Legal' });
    assert.deepEqual(res.body.data.plan, {
      tier: 'enterprise',
      apiAccess: true,
      maxActiveWatches: null,
      minScanCadence: 'hourly',
    });
  });

  it('answers a free-tier key, showing that the plan has no API access', async () => {
    const { auth } = await server.make.makeKey({ tier: 'free' });
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.plan, {
      tier: 'free',
      apiAccess: false,
      maxActiveWatches: 3,
      minScanCadence: 'weekly',
    });
  });

  it('answers a solo-tier key', async () => {
    const { auth } = await server.make.makeKey({ tier: 'solo' });
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.plan.maxActiveWatches, 25);
    assert.equal(res.body.data.plan.minScanCadence, 'daily');
  });

  it('answers a key with no scopes at all', async () => {
    const { auth } = await server.make.makeKey({ scopes: [] });
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.key.scopes, []);
  });

  it('reports the same rate-limit state as the response headers', async () => {
    const { auth } = await server.make.makeKey();
    await server.request('GET', '/api/v1/me', { headers: auth });
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.body.data.rateLimit.remaining, 58);
    assert.equal(
      res.body.data.rateLimit.remaining,
      Number(res.headers.get('x-ratelimit-remaining')),
    );
    assert.equal(res.body.data.rateLimit.limit, Number(res.headers.get('x-ratelimit-limit')));
  });

  it('never shows the key itself or its hash', async () => {
    const { auth, key } = await server.make.makeKey();
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.text.includes(key.slice(4)), false);
    assert.equal('hash' in res.body.data.key, false);
  });
});
