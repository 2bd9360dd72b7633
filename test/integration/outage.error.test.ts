import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { openDb } from '../../src/data/db.ts';
import { RedisRateLimitStore } from '../../src/http/rate-limit/redis-store.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { ResponseChecker } from '../helpers/openapi.ts';
import { startTestServer } from '../helpers/server.ts';

// A dependency that cannot be reached is an outage, not a bug: 503 `unavailable` with
// Retry-After (as the OpenAPI document declares on every operation), never a 500 "safe to retry"
// that hides it. Both outages are real: nothing listens on port 1.
const NOWHERE_PORT = 1;

describe('dependency outages', () => {
  it('an unreachable database is a 503 unavailable with Retry-After', async () => {
    const db = await openDb({
      databaseUrl: `postgres://postgres@127.0.0.1:${NOWHERE_PORT}/tmw_none`,
      dataDir: '',
      maxConnections: 1,
    });
    const app = await buildApp({
      db,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 60,
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const checker = new ResponseChecker(
        (await (await fetch(`${base}/openapi.json`)).json()) as never,
      );
      const res = await fetch(`${base}/api/v1/watches`, {
        headers: { authorization: `Bearer tmw_${'a'.repeat(43)}` },
      });
      const body = await res.json();
      assert.equal(res.status, 503, JSON.stringify(body));
      assert.equal(body.error.code, 'unavailable');
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.doesNotMatch(JSON.stringify(body), /ECONNREFUSED|127\.0\.0\.1|postgres/);
      checker.check('GET', '/api/v1/watches', res.status, body);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('an unreachable Redis rate-limit store is a 503 unavailable with Retry-After', async () => {
    const server = await startTestServer({
      rateLimit: new RedisRateLimitStore(`redis://127.0.0.1:${NOWHERE_PORT}`),
    });
    try {
      const { auth } = await server.make.makeKey();
      const res = await server.request('GET', '/api/v1/me', { headers: auth });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.error.code, 'unavailable');
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    } finally {
      await server.close();
    }
  });
});
