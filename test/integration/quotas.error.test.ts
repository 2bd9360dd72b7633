import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/domain/errors.ts';
import type { CreateWatchInput } from '../../src/domain/watch-input.ts';
import { createWatchService, type WatchService } from '../../src/domain/watches.ts';
import { type Auth, assertError, createWatch } from '../helpers/api.ts';
import { principalFor } from '../helpers/factories.ts';
import { seedWatches } from '../helpers/seed.ts';
import {
  type ApiResponse,
  startTestServer,
  type TestServer,
  validWatch,
} from '../helpers/server.ts';

// Plan quotas. Over HTTP with the Team cap of 500 (the caps are seeded straight into the
// database); through the domain service for Solo and Free, which have no API access and so can
// only be reached there: their cadence minimum and their caps.

const TEAM_CAP = 500;

function assertQuota(res: ApiResponse) {
  assertError(res, 402, 'forbidden');
  assert.equal(res.body.error.upgradeUrl, '/pricing');
}

const input = (overrides: Partial<CreateWatchInput> = {}): CreateWatchInput => ({
  watchType: 'trademark',
  name: 'Acme',
  attributes: { niceClasses: [9], designations: ['DE'], relatedClasses: true },
  scanCadence: 'daily',
  ...overrides,
});

/** Asserts that a domain call fails with the given status, and returns the error. */
async function rejectsWith(promise: Promise<unknown>, status: number): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, status, error.message);
    return error;
  }
  assert.fail(`expected a ${status}`);
}

describe('plan quotas', () => {
  let server: TestServer;
  let watches: WatchService;
  before(async () => {
    server = await startTestServer();
    watches = createWatchService(server.db);
  });
  after(() => server.close());

  /** A Team key whose owner already has `active` active (and `inactive` inactive) watches. */
  async function teamKeyWith(active: number, inactive = 0, tier: 'team' | 'enterprise' = 'team') {
    const key = await server.make.makeKey({ tier });
    const owner = { ownerId: key.userId, createdBy: key.userId };
    await seedWatches(server.db, { ...owner, count: active });
    const inactiveIds =
      inactive > 0
        ? await seedWatches(server.db, { ...owner, count: inactive, active: false })
        : [];
    return { ...key, inactiveIds };
  }

  const post = (auth: Auth, overrides: Record<string, unknown> = {}) =>
    server.request('POST', '/api/v1/watches', { headers: auth, body: validWatch(overrides) });

  const activeCount = async (ownerId: string) =>
    (
      await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM watches WHERE owner_id = $1 AND active',
        [ownerId],
      )
    )[0]?.n;

  describe('Team cap over HTTP', () => {
    it('a Team owner with 499 active watches can create the 500th', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP - 1);
      assert.equal((await post(auth)).status, 201);
    });

    it('a Team owner with 500 active watches gets 402 forbidden with upgradeUrl /pricing', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP);
      const res = await post(auth);
      assertQuota(res);
      assert.match(res.body.error.message, /500 active watches/);
    });

    it('a refused create stores nothing', async () => {
      const { auth, userId } = await teamKeyWith(TEAM_CAP);
      await post(auth);
      assert.equal(await activeCount(userId), TEAM_CAP);
    });

    it('inactive watches do not count towards the cap', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP - 1, 50);
      assert.equal((await post(auth)).status, 201);
      assertQuota(await post(auth));
    });

    it('deleting a watch frees its slot', async () => {
      const { auth, userId } = await teamKeyWith(TEAM_CAP - 1);
      const last = await createWatch(server, auth);
      assertQuota(await post(auth));
      await server.request('DELETE', `/api/v1/watches/${last.id}`, { headers: auth });
      assert.equal((await post(auth)).status, 201);
      assert.equal(await activeCount(userId), TEAM_CAP);
    });

    it('of five simultaneous creates for the last slot exactly one succeeds', async () => {
      const { auth, userId } = await teamKeyWith(TEAM_CAP - 1);
      const responses = await Promise.all(Array.from({ length: 5 }, () => post(auth)));
      const statuses = responses.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 402, 402, 402, 402]);
      assert.equal(await activeCount(userId), TEAM_CAP);
    });

    it('an organization’s cap counts the watches of all its members', async () => {
      const org = await server.make.makeOrg({ tier: 'team' });
      const first = await server.make.makeKey({ orgId: org.id });
      const second = await server.make.makeKey({ orgId: org.id });
      await seedWatches(server.db, {
        ownerId: org.id,
        createdBy: first.userId,
        count: TEAM_CAP - 1,
      });
      assert.equal((await post(first.auth)).status, 201);
      assertQuota(await post(second.auth));
    });

    it('Enterprise has no cap', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP + 100, 0, 'enterprise');
      assert.equal((await post(auth)).status, 201);
    });

    it('PATCH active:true beyond the cap is 402 with upgradeUrl', async () => {
      const { auth, inactiveIds } = await teamKeyWith(TEAM_CAP, 1);
      const res = await server.request('PATCH', `/api/v1/watches/${inactiveIds[0]}`, {
        headers: auth,
        body: { active: true },
      });
      assertQuota(res);
      const read = await server.request('GET', `/api/v1/watches/${inactiveIds[0]}`, {
        headers: auth,
      });
      assert.equal(read.body.data.active, false);
    });

    it('PATCH active:true within the cap restores the watch', async () => {
      const { auth, inactiveIds } = await teamKeyWith(TEAM_CAP - 1, 1);
      const res = await server.request('PATCH', `/api/v1/watches/${inactiveIds[0]}`, {
        headers: auth,
        body: { active: true },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.active, true);
    });

    it('PATCH active:true of a watch that is already active is fine at the cap', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP - 1);
      const watch = await createWatch(server, auth);
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: auth,
        body: { active: true, name: 'Still here' },
      });
      assert.equal(res.status, 200, res.text);
    });

    it('an invalid body at the cap is 422, not 402 (schema before quota)', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP);
      assertError(await post(auth, { name: '' }), 422, 'validation_error');
    });

    it('an absent watch at the cap is 404, not 402 (visibility before quota)', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP);
      const res = await server.request('PATCH', '/api/v1/watches/wat_0000000000000000000000', {
        headers: auth,
        body: { active: true },
      });
      assertError(res, 404, 'not_found');
    });

    it('someone else’s inactive watch at the cap is 404, not 402', async () => {
      const { auth } = await teamKeyWith(TEAM_CAP);
      const other = await teamKeyWith(0, 1);
      const res = await server.request('PATCH', `/api/v1/watches/${other.inactiveIds[0]}`, {
        headers: auth,
        body: { active: true },
      });
      assertError(res, 404, 'not_found');
    });

    it('a key without watches:write at the cap is 403, not 402', async () => {
      const { userId } = await teamKeyWith(TEAM_CAP);
      const { auth } = await server.make.makeKey({ userId, scopes: ['watches:read'] });
      assertError(await post(auth), 403, 'forbidden');
    });
  });

  describe('Solo and Free rules in the domain service', () => {
    it('Solo: an hourly watch is a 402 saying hourly scans are not allowed, daily is the minimum', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      const error = await rejectsWith(
        watches.create(principalFor(user, 'solo'), input({ scanCadence: 'hourly' })),
        402,
      );
      assert.equal(error.wireCode, 'forbidden');
      assert.equal(error.extra.upgradeUrl, '/pricing');
      assert.match(error.message, /Solo/);
      assert.match(error.message, /hourly scans/);
      assert.match(error.message, /not allow/);
      assert.match(error.message, /daily/);
    });

    it('Solo: daily and weekly watches are allowed', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      const principal = principalFor(user, 'solo');
      for (const scanCadence of ['daily', 'weekly'] as const) {
        const watch = JSON.parse(await watches.create(principal, input({ scanCadence })));
        assert.equal(watch.scanCadence, scanCadence);
      }
    });

    it('Solo: the 26th active watch is a 402 stating a cap of 25 active watches', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      await seedWatches(server.db, { ownerId: user.id, createdBy: user.id, count: 24 });
      const principal = principalFor(user, 'solo');
      await watches.create(principal, input());
      const error = await rejectsWith(watches.create(principal, input()), 402);
      assert.match(error.message, /25 active watches/);
      assert.equal(error.extra.upgradeUrl, '/pricing');
    });

    it('Solo: re-activating beyond 25 is a 402', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      const owner = { ownerId: user.id, createdBy: user.id };
      await seedWatches(server.db, { ...owner, count: 25 });
      const [inactive] = await seedWatches(server.db, { ...owner, count: 1, active: false });
      assert.ok(inactive);
      await rejectsWith(
        watches.update(principalFor(user, 'solo'), inactive, { active: true }),
        402,
      );
    });

    it('Solo: PATCH to hourly is a 422 on scanCadence naming the minimum', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      const principal = principalFor(user, 'solo');
      const watch = JSON.parse(await watches.create(principal, input()));
      const error = await rejectsWith(
        watches.update(principal, watch.id, { scanCadence: 'hourly' }),
        422,
      );
      assert.equal(error.wireCode, 'validation_error');
      const details = error.extra.details as { fieldErrors: Record<string, string[]> };
      assert.match(details.fieldErrors.scanCadence?.join(' ') ?? '', /hourly.*daily/);
      const after = JSON.parse(await watches.get(principal, watch.id));
      assert.equal(after.scanCadence, 'daily');
    });

    it('Solo: PATCH to weekly is allowed', async () => {
      const user = await server.make.makeUser({ tier: 'solo' });
      const principal = principalFor(user, 'solo');
      const watch = JSON.parse(await watches.create(principal, input()));
      const updated = JSON.parse(
        await watches.update(principal, watch.id, { scanCadence: 'weekly' }),
      );
      assert.equal(updated.scanCadence, 'weekly');
    });

    it('Free: a daily watch is a 402 (weekly is the minimum)', async () => {
      const user = await server.make.makeUser({ tier: 'free' });
      const error = await rejectsWith(
        watches.create(principalFor(user, 'free'), input({ scanCadence: 'daily' })),
        402,
      );
      assert.match(error.message, /weekly/);
    });

    it('Free: the fourth active watch is a 402', async () => {
      const user = await server.make.makeUser({ tier: 'free' });
      await seedWatches(server.db, { ownerId: user.id, createdBy: user.id, count: 3 });
      const error = await rejectsWith(
        watches.create(principalFor(user, 'free'), input({ scanCadence: 'weekly' })),
        402,
      );
      assert.match(error.message, /3 active watches/);
    });
  });
});
