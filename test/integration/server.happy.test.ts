import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  freePort,
  freshInstallation,
  getWithKey,
  makeKey,
  printedObject,
  serverDatabaseUrl,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';

describe('tmwatch serve', () => {
  test('listens on HOST:PORT and answers /healthz and /readyz', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const port = await freePort();
    const server = await startServe({ ...install.env, HOST: '127.0.0.1', PORT: String(port) });
    try {
      assert.equal(server.url, `http://127.0.0.1:${port}`);
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready', checks: { database: 'ok' } });
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('serves the OpenAPI document and the API reference', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const server = await startServe(install.env);
    try {
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: object };
      assert.ok('/api/v1/watches' in doc.paths);
      assert.equal((await fetch(`${server.url}/docs`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('a key minted with the CLI is rate-limited at RATE_LIMIT_PER_MINUTE', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const { key } = await makeKey(install.env);
    const server = await startServe({ ...install.env, RATE_LIMIT_PER_MINUTE: '1000' });
    try {
      const me = await getWithKey(server.url, '/api/v1/me', key);
      assert.equal(me.status, 200);
      assert.equal(me.headers.get('x-ratelimit-limit'), '1000');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

describe('first start of an empty embedded database', () => {
  test('prints the demo dashboard login and an API key that works on /api/v1/me', async (t) => {
    const install = await freshInstallation({ embedded: true });
    t.after(() => install.cleanup());
    const server = await startServe(install.env);
    try {
      assert.match(server.banner, /Login: +demo@example\.com/);
      assert.match(server.banner, /Password: +\S{12,}/);
      const key = /API key: +(tmw_[0-9A-Za-z]+)/.exec(server.banner)?.[1];
      assert.ok(key, server.banner);
      assert.ok(
        server.banner.includes(`curl -H "Authorization: Bearer ${key}" ${server.url}/api/v1/me`),
      );

      const me = await getWithKey(server.url, '/api/v1/me', key);
      assert.equal(me.status, 200);
      const data = (
        me.body as {
          data: { user: { email: string }; plan: { tier: string }; key: { scopes: string[] } };
        }
      ).data;
      assert.equal(data.user.email, 'demo@example.com');
      assert.equal(data.plan.tier, 'team');
      assert.deepEqual([...data.key.scopes].sort(), [
        'alerts:read',
        'apikeys:read',
        'watches:read',
        'watches:write',
        'webhooks:read',
        'webhooks:write',
      ]);
      const watches = await getWithKey(server.url, '/api/v1/watches', key);
      assert.equal(watches.status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('loads the real register sample, and the in-process scheduler turns a first watch into an alert', async (t) => {
    const install = await freshInstallation({ embedded: true });
    t.after(() => install.cleanup());
    const server = await startServe({ ...install.env, SCHEDULER: 'on', SCAN_POLL_SECONDS: '0.5' });
    try {
      assert.match(server.banner, /Loaded 21 sample trademark records \(real USPTO cases/);
      // What the mirror holds and from where, and the one command that loads a real register.
      assert.match(
        server.banner,
        /The register mirror holds 21 records: 21 from the USPTO \(US\), the bundled sample\./,
      );
      assert.match(server.banner, /no key needed: cipo-weekly\)/);
      assert.match(server.banner, /\n {2}tmwatch registers sync --feed cipo-weekly\n/);
      assert.match(server.banner, /REGISTER_FEEDS=cipo-weekly/);
      assert.match(server.banner, /uspto-daily \(USPTO_API_KEY\)/);
      const key = /API key: +(tmw_[0-9A-Za-z]+)/.exec(server.banner)?.[1] ?? '';
      const created = await fetch(`${server.url}/api/v1/watches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          watchType: 'trademark',
          name: 'Suveneer',
          attributes: { niceClasses: [16], designations: ['US'] },
        }),
      });
      assert.equal(created.status, 201);
      type Alerts = { data: { hit: { displayName: string; externalId: string } }[] };
      const alerts = await eventually(
        'the first scan to raise an alert',
        async () => {
          const body = (await getWithKey(server.url, '/api/v1/alerts', key)).body as Alerts;
          return body.data.length > 0 ? body : undefined;
        },
        { timeoutMs: 60_000, everyMs: 500 },
      );
      assert.equal(alerts.data[0]?.hit.displayName, 'SUVENEER');
      assert.equal(alerts.data[0]?.hit.externalId, 'US500000098763166');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('a later start prints no demo account and creates none', async (t) => {
    const install = await freshInstallation({ embedded: true });
    t.after(() => install.cleanup());
    const first = await startServe(install.env);
    assert.equal(await first.stop(), 0);
    const second = await startServe(install.env);
    assert.equal(await second.stop(), 0);
    assert.doesNotMatch(second.banner, /demo/i);
    assert.doesNotMatch(second.stderr(), /tmw_/);
    // The only user is the first start's demo user: a new one with that address is refused.
    const again = await tmwatch(['users', 'create', '--email', 'demo@example.com'], install.env);
    assert.equal(again.status, 1);
  });

  test('a database that already has users is not a first start', async (t) => {
    const install = await freshInstallation({ embedded: true });
    t.after(() => install.cleanup());
    printedObject(await tmwatch(['users', 'create', '--email', 'owner@example.test'], install.env));
    const server = await startServe(install.env);
    assert.equal(await server.stop(), 0);
    assert.doesNotMatch(server.banner, /demo/i);
  });

  test('a PostgreSQL database never gets a demo account', {
    skip: serverDatabaseUrl ? false : 'DATABASE_URL is not set',
  }, async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const server = await startServe(install.env);
    assert.equal(await server.stop(), 0);
    assert.doesNotMatch(server.banner, /demo/i);
  });
});

test('on PostgreSQL the CLI works beside a running server: a revoked key is refused on the very next request', {
  skip: serverDatabaseUrl ? false : 'DATABASE_URL is not set',
}, async (t) => {
  const install = await freshInstallation();
  t.after(() => install.cleanup());
  const { key, id } = await makeKey(install.env);
  const server = await startServe(install.env);
  try {
    assert.equal((await getWithKey(server.url, '/api/v1/me', key)).status, 200);
    printedObject(await tmwatch(['keys', 'revoke', id], install.env));
    assert.equal((await getWithKey(server.url, '/api/v1/me', key)).status, 401);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
