import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedisRateLimitStore } from '../../src/http/rate-limit/redis-store.ts';
import { clockAt } from '../helpers/clock.ts';
import {
  type PausableServer,
  redisServerMissing,
  startRedisServer,
} from '../helpers/dependency-processes.ts';
import { eventually } from '../helpers/eventually.ts';
import { checkLogsAfterEach, startTestServer, type TestServer } from '../helpers/server.ts';

// A Redis that is frozen, not gone: a redis-server of the test's own, stopped with SIGSTOP. The
// kernel still takes the rate limit's commands into the socket; they run when Redis resumes,
// long after their requests were answered 503, and must not count against the limit then.

const LIMIT = 10;

describe('Redis frozen (SIGSTOP) and resumed', {
  skip: redisServerMissing,
  timeout: 60_000,
}, () => {
  let redis: PausableServer;
  let server: TestServer;
  let auth: Record<string, string>;

  before(async () => {
    redis = await startRedisServer();
    server = await startTestServer({
      rateLimit: new RedisRateLimitStore(redis.url),
      rateLimitPerMinute: LIMIT,
      // One wall-clock minute for the whole test: no new window hides what was counted.
      clock: clockAt('2031-03-04T05:06:07Z'),
      captureLogs: true,
    });
    auth = (await server.make.makeKey()).auth;
  });
  after(async () => {
    await server?.close();
    await redis?.stop();
  });
  checkLogsAfterEach(() => server);

  const me = () => fetch(`${server.baseUrl}/api/v1/me`, { headers: auth });

  it('requests refused while Redis was frozen do not count once it resumes', async () => {
    for (let i = 1; i <= 2; i++) {
      const res = await me();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(LIMIT - i));
    }

    redis.pause();
    const refused = await Promise.all(Array.from({ length: 2 * LIMIT }, () => me()));
    for (const res of refused) {
      assert.equal(res.status, 503);
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    }
    redis.resume();
    await eventually('Redis answers again', async () => {
      return (await fetch(`${server.baseUrl}/readyz`)).status === 200;
    });

    const next = await me();
    assert.equal(next.status, 200, 'the refused requests were counted');
    assert.equal(next.headers.get('x-ratelimit-remaining'), String(LIMIT - 3));
  });
});
