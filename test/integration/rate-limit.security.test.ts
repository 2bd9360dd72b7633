import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { RedisRateLimitStore } from '../../src/http/rate-limit/redis-store.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { type Auth, assertError } from '../helpers/api.ts';
import {
  type ApiResponse,
  startTestServer,
  type TestServer,
  validWatch,
} from '../helpers/server.ts';

// 60 requests per key per wall-clock minute. Time is a controllable clock, so a test stands
// exactly where it needs to be in a window. The harness counts in Redis when REDIS_URL is set.

const LIMIT = 60;
const minute = (n: number) => Date.UTC(2026, 10, 22, 9, n, 0);
const REDIS_URL = process.env.REDIS_URL;

describe('rate limit', () => {
  let server: TestServer;
  let now = minute(0);
  const clock: Clock = { now: () => now };
  before(async () => {
    server = await startTestServer({ clock, rateLimitPerMinute: LIMIT });
  });
  after(() => server.close());

  const me = (auth: Auth) => server.request('GET', '/api/v1/me', { headers: auth });
  const remaining = (res: ApiResponse) => Number(res.headers.get('x-ratelimit-remaining'));

  /** Spends `count` requests of the key's window, one after the other. */
  async function spend(auth: Auth, count: number): Promise<ApiResponse | undefined> {
    let last: ApiResponse | undefined;
    for (let i = 0; i < count; i++) last = await me(auth);
    return last;
  }

  describe('headers', () => {
    it('a 2xx carries X-RateLimit-Limit: 60 and X-RateLimit-Remaining', async () => {
      now = minute(1) + 5_000;
      const { auth } = await server.make.makeKey();
      const res = await server.request('GET', '/api/v1/watches', { headers: auth });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '60');
      assert.match(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
    });

    it('403, 404 and 422 responses carry the rate-limit headers too', async () => {
      now = minute(1) + 5_000;
      const { auth } = await server.make.makeKey({ scopes: ['watches:write'] });
      const responses = [
        await server.request('GET', '/api/v1/watches', { headers: auth }),
        await server.request('DELETE', '/api/v1/watches/wat_none', { headers: auth }),
        await server.request('POST', '/api/v1/watches', { headers: auth, body: {} }),
      ];
      assert.deepEqual(
        responses.map((r) => r.status),
        [403, 404, 422],
      );
      for (const res of responses) {
        assert.equal(res.headers.get('x-ratelimit-limit'), '60');
        assert.ok(res.headers.has('x-ratelimit-remaining'));
      }
    });

    it('a 2xx carries no Retry-After and no X-RateLimit-Reset', async () => {
      now = minute(1);
      const { auth } = await server.make.makeKey();
      const res = await me(auth);
      assert.equal(res.headers.get('retry-after'), null);
      assert.equal(res.headers.get('x-ratelimit-reset'), null);
    });
  });

  describe('counting', () => {
    it('the first request of a window says 59 remaining', async () => {
      now = minute(2) + 1_000;
      const { auth } = await server.make.makeKey();
      assert.equal(remaining(await me(auth)), 59);
    });

    it('the 60th request says 0 remaining and succeeds', async () => {
      now = minute(2) + 1_000;
      const { auth } = await server.make.makeKey();
      await spend(auth, 59);
      const sixtieth = await me(auth);
      assert.equal(sixtieth.status, 200);
      assert.equal(remaining(sixtieth), 0);
    });

    it('the 61st request is 429 rate_limited with Limit 60, Remaining 0 and Retry-After', async () => {
      now = minute(3) + 20_000;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      const res = await me(auth);
      assertError(res, 429, 'rate_limited');
      assert.equal(res.headers.get('x-ratelimit-limit'), '60');
      assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(res.headers.get('retry-after'), '40');
      assert.equal(res.body.error.retryAfter, 40);
    });

    it('Retry-After rounds the time to the next minute up to whole seconds', async () => {
      now = minute(4) + 30_500;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      const res = await me(auth);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '30');
    });

    it('Retry-After is 60 at the very start of a minute', async () => {
      now = minute(5);
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      assert.equal((await me(auth)).headers.get('retry-after'), '60');
    });

    it('Retry-After is at least 1 in the last millisecond of a minute', async () => {
      now = minute(6) - 1;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      const res = await me(auth);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '1');
    });

    it('the 429 message states the retry delay in seconds', async () => {
      now = minute(7) + 45_000;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      const res = await me(auth);
      assert.match(res.body.error.message, /\b15 seconds\b/);
    });

    it('the window resets at the top of the wall-clock minute', async () => {
      now = minute(8) + 59_000;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      now = minute(8) + 59_999;
      assert.equal((await me(auth)).status, 429);
      now = minute(9);
      const fresh = await me(auth);
      assert.equal(fresh.status, 200);
      assert.equal(remaining(fresh), 59);
    });

    it('the window is the clock minute, not sixty seconds from the first request', async () => {
      now = minute(10) + 50_000;
      const { auth } = await server.make.makeKey();
      await spend(auth, 60);
      now = minute(11) + 1_000; // 11 s after the first request
      assert.equal(remaining(await me(auth)), 59);
    });

    it('two keys of one user are counted independently', async () => {
      now = minute(12);
      const first = await server.make.makeKey();
      const second = await server.make.makeKey({ userId: first.userId });
      await spend(first.auth, 60);
      assert.equal((await me(first.auth)).status, 429);
      const other = await me(second.auth);
      assert.equal(other.status, 200);
      assert.equal(remaining(other), 59);
    });

    it('every authenticated request counts, whatever its final status', async () => {
      now = minute(13);
      const { auth } = await server.make.makeKey({ scopes: ['watches:write'] });
      const json = { ...auth, 'content-type': 'application/json' };
      const sequence = [
        await server.request('GET', '/api/v1/watches', { headers: auth }), // 403
        await server.request('DELETE', '/api/v1/watches/wat_none', { headers: auth }), // 404
        await server.request('POST', '/api/v1/watches', { headers: auth, body: {} }), // 422
        await server.request('POST', '/api/v1/watches', { headers: json, body: '{' }), // 400
        await server.request('POST', '/api/v1/watches', { headers: auth, body: 'x' }), // 415
        await server.request('POST', '/api/v1/watches', { headers: auth, body: validWatch() }),
      ];
      assert.deepEqual(
        sequence.map((r) => r.status),
        [403, 404, 422, 400, 415, 201],
      );
      assert.deepEqual(sequence.map(remaining), [59, 58, 57, 56, 55, 54]);
    });

    it('a key whose window is spent on errors is limited like any other', async () => {
      now = minute(14);
      const { auth } = await server.make.makeKey({ scopes: [] });
      for (let i = 0; i < 60; i++) {
        assert.equal(
          (await server.request('GET', '/api/v1/alerts', { headers: auth })).status,
          403,
        );
      }
      assertError(await me(auth), 429, 'rate_limited');
    });

    it('the limit comes before the tier: a free key’s 61st request is 429, not 403', async () => {
      now = minute(15);
      const { auth } = await server.make.makeKey({ tier: 'free' });
      for (let i = 0; i < 60; i++) {
        assert.equal(
          (await server.request('GET', '/api/v1/watches', { headers: auth })).status,
          403,
        );
      }
      assertError(
        await server.request('GET', '/api/v1/watches', { headers: auth }),
        429,
        'rate_limited',
      );
    });

    it('routing comes before the limit: a spent key still gets 404 and 405', async () => {
      now = minute(16);
      const { auth } = await server.make.makeKey();
      await spend(auth, 61);
      assertError(
        await server.request('GET', '/api/v1/unknown', { headers: auth }),
        404,
        'not_found',
      );
      assertError(
        await server.request('PUT', '/api/v1/watches', { headers: auth }),
        405,
        'method_not_allowed',
      );
    });

    it('a rate-limited POST creates nothing', async () => {
      now = minute(17);
      const { auth, userId } = await server.make.makeKey();
      await spend(auth, 60);
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: validWatch(),
      });
      assertError(res, 429, 'rate_limited');
      const rows = await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM watches WHERE owner_id = $1',
        [userId],
      );
      assert.equal(rows[0]?.n, 0);
    });

    it(`of 80 simultaneous requests with one key exactly 60 succeed and 20 get 429 (${REDIS_URL ? 'Redis' : 'in-process'} store)`, async () => {
      now = minute(18) + 30_000;
      const { auth } = await server.make.makeKey();
      const responses = await Promise.all(Array.from({ length: 80 }, () => me(auth)));
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 60);
      assert.equal(statuses.filter((s) => s === 429).length, 20);
      const remainders = responses.filter((r) => r.status === 200).map(remaining);
      assert.deepEqual(
        remainders.sort((a, b) => a - b),
        Array.from({ length: 60 }, (_, i) => i),
      );
    });
  });

  describe('stores', () => {
    /** A second instance of the app on the same database, counting in the given store. */
    async function startInstance(rateLimit: RateLimitStore) {
      const app = await buildApp({
        db: server.db,
        logger: createLogger('silent'),
        rateLimit,
        rateLimitPerMinute: LIMIT,
        clock,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}/api/v1/me`,
        async close() {
          await app.close();
          await rateLimit.close();
        },
      };
    }

    const burst = async (urls: string[], auth: Auth, count: number) => {
      const responses = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          fetch(urls[i % urls.length] as string, { headers: auth }),
        ),
      );
      await Promise.all(responses.map((r) => r.arrayBuffer()));
      return responses.map((r) => r.status);
    };

    const stores = [
      { name: 'the in-process store', minute: 19, make: () => new MemoryRateLimitStore() },
      {
        name: 'the Redis store',
        minute: 20,
        make: () => new RedisRateLimitStore(REDIS_URL as string),
        skip: !REDIS_URL && 'REDIS_URL is not set',
      },
    ];
    for (const store of stores) {
      it(`${store.name} admits exactly 60 of 80 simultaneous requests`, {
        skip: store.skip,
      }, async () => {
        now = minute(store.minute) + 30_000;
        const instance = await startInstance(store.make());
        try {
          const { auth } = await server.make.makeKey();
          const statuses = await burst([instance.url], auth, 80);
          assert.equal(statuses.filter((s) => s === 200).length, 60);
          assert.equal(statuses.filter((s) => s === 429).length, 20);
        } finally {
          await instance.close();
        }
      });
    }

    it('two instances sharing one Redis admit 60 requests of a key between them', {
      skip: !REDIS_URL && 'REDIS_URL is not set',
    }, async () => {
      now = minute(21) + 30_000;
      const one = await startInstance(new RedisRateLimitStore(REDIS_URL as string));
      const two = await startInstance(new RedisRateLimitStore(REDIS_URL as string));
      try {
        const { auth } = await server.make.makeKey();
        const statuses = await burst([one.url, two.url], auth, 100);
        assert.equal(statuses.filter((s) => s === 200).length, 60);
        assert.equal(statuses.filter((s) => s === 429).length, 40);
      } finally {
        await one.close();
        await two.close();
      }
    });
  });
});

describe('failed authentication per client address', () => {
  const FAILURES = 5;
  let server: TestServer;
  let now = minute(30) + 15_000;
  const clock: Clock = { now: () => now };
  before(async () => {
    server = await startTestServer({
      clock,
      app: { failedAuthPerMinute: FAILURES, trustProxy: true },
    });
  });
  after(() => server.close());

  const from = (address: string, auth: Record<string, string> = {}) =>
    server.request('GET', '/api/v1/me', { headers: { 'x-forwarded-for': address, ...auth } });
  const randomKey = () => ({
    authorization: `Bearer tmw_${Math.random().toString(36).slice(2).padEnd(43, 'x')}`,
  });

  it('past the limit an address gets 429 with Retry-After in the header and the envelope', async () => {
    for (let i = 0; i < FAILURES; i++) {
      assertError(await from('203.0.113.5', randomKey()), 401, 'unauthenticated');
    }
    const refused = await from('203.0.113.5', randomKey());
    assertError(refused, 429, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '45');
    assert.equal(refused.body.error.retryAfter, 45);
    // Missing headers count too: they are failures all the same.
    assertError(await from('203.0.113.5'), 429, 'rate_limited');
  });

  it('other addresses, and valid keys elsewhere, are not affected', async () => {
    const { auth } = await server.make.makeKey();
    assert.equal((await from('198.51.100.1', auth)).status, 200);
    assertError(await from('198.51.100.2', randomKey()), 401, 'unauthenticated');
  });

  it('successful requests never count towards the limit', async () => {
    const { auth } = await server.make.makeKey();
    for (let i = 0; i < FAILURES * 2; i++) {
      assert.equal((await from('198.51.100.3', auth)).status, 200);
    }
    assertError(await from('198.51.100.3', randomKey()), 401, 'unauthenticated');
  });

  it('the next minute the address may try again', async () => {
    now = minute(31) + 1_000;
    assertError(await from('203.0.113.5', randomKey()), 401, 'unauthenticated');
  });
});
