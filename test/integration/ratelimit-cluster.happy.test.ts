import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshInstallation, makeKey, serverRedisUrl, startServe } from '../helpers/cli.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

const skip = postgresOnly('a cluster shares one PostgreSQL database and one Redis', {
  redis: true,
});

const LIMIT = 60;
const REQUESTS = 90;

/** Waits, if needed, so that the next few seconds lie inside one wall-clock minute. */
async function startOfAMinute(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

test('two serve processes on one database and one Redis admit exactly 60 requests of a key per minute', {
  skip,
  timeout: 240_000,
}, async (t) => {
  const install = await freshInstallation();
  t.after(() => install.cleanup());
  const { key, id } = await makeKey(install.env);
  const env = { ...install.env, REDIS_URL: serverRedisUrl, RATE_LIMIT_PER_MINUTE: String(LIMIT) };
  // Started together: their migrations and first-start checks must not race either.
  const servers = await Promise.all([startServe(env), startServe(env)]);
  t.after(() => Promise.all(servers.map((server) => server.stop('SIGKILL'))));
  assert.notEqual(servers[0]?.url, servers[1]?.url);

  await startOfAMinute(20_000);
  const windowStart = Date.now() - (Date.now() % 60_000);
  const responses = await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const server = servers[i % 2];
      assert.ok(server);
      const response = await fetch(`${server.url}/api/v1/me`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await response.arrayBuffer();
      return {
        server: i % 2,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
      };
    }),
  );
  assert.equal(
    Date.now() - (Date.now() % 60_000),
    windowStart,
    'every request fell into one rate-limit window',
  );

  const ok = responses.filter((r) => r.status === 200);
  const limited = responses.filter((r) => r.status === 429);
  assert.equal(ok.length, LIMIT, `key ${id}: ${ok.length} requests admitted`);
  assert.equal(limited.length, REQUESTS - LIMIT);
  assert.ok(limited.every((r) => Number(r.retryAfter) >= 1));
  for (const server of [0, 1]) {
    assert.ok(
      ok.some((r) => r.server === server),
      `server ${server} admitted some of them: the quota is shared, not split`,
    );
  }
  for (const server of servers) assert.equal(await server.stop(), 0);
});
