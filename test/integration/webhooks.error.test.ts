import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCOPES } from '../../src/domain/api-keys.ts';
import { PLANS } from '../../src/domain/plans.ts';
import { enqueueTestEvent } from '../../src/domain/webhook-events.ts';
import { createLogger } from '../../src/logger.ts';
import { deliverDueWebhooks } from '../../src/webhooks/sender.ts';
import { type Auth, assertError, fieldErrors } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

const logger = createLogger('silent');

describe('webhooks: validation and the https rule (WEBHOOK_ALLOW_PRIVATE_URLS unset)', () => {
  let server: TestServer;
  let auth: Auth;
  before(async () => {
    server = await startTestServer();
    auth = (await server.make.makeKey()).auth;
  });
  after(() => server.close());

  const create = (body: unknown) =>
    server.request('POST', '/api/v1/webhooks', { headers: auth, body });

  it('an unknown event name is a 422 naming the entry', async () => {
    const errors = fieldErrors(
      await create({ url: 'https://hooks.example.com/', events: ['alert.deleted'] }),
    );
    assert.ok(errors['events.0'], JSON.stringify(errors));
  });
  it('no events, a missing url and an unknown key are 422s naming them', async () => {
    assert.ok(fieldErrors(await create({ url: 'https://hooks.example.com/', events: [] })).events);
    assert.ok(fieldErrors(await create({ events: ['alert.created'] })).url);
    const unknown = fieldErrors(
      await create({ url: 'https://hooks.example.com/', events: ['alert.created'], secret: 'x' }),
    );
    assert.ok(JSON.stringify(unknown).includes('secret'), JSON.stringify(unknown));
  });
  it('a duplicated event is a 422', async () => {
    assert.ok(
      fieldErrors(
        await create({
          url: 'https://hooks.example.com/',
          events: ['alert.created', 'alert.created'],
        }),
      ).events,
    );
  });
  for (const url of [
    'http://hooks.example.com/',
    'https://127.0.0.1/hook',
    'https://10.0.0.5/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://localhost/hook',
    'not a url',
  ]) {
    it(`${url} is refused with a 422 on url`, async () => {
      const errors = fieldErrors(await create({ url, events: ['alert.created'] }));
      assert.ok(errors.url, JSON.stringify(errors));
    });
  }
  it('a private or http:// URL is refused naming the setting that allows it, credentials are not', async () => {
    for (const url of [
      'http://hooks.example.com/',
      'https://10.0.0.5/hook',
      'https://localhost/',
    ]) {
      const [message] = fieldErrors(await create({ url, events: ['alert.created'] })).url ?? [];
      assert.match(String(message), /WEBHOOK_ALLOW_PRIVATE_URLS=true/, url);
    }
    const [message] =
      fieldErrors(
        await create({ url: 'https://u:p@hooks.example.com/', events: ['alert.created'] }),
      ).url ?? [];
    assert.doesNotMatch(String(message), /WEBHOOK_ALLOW_PRIVATE_URLS/);
  });
  it('PATCH to a refused URL is a 422 too, and an unknown key is a 422', async () => {
    const ok = await create({ url: 'https://hooks.example.com/', events: ['alert.created'] });
    assert.equal(ok.status, 201, ok.text);
    const path = `/api/v1/webhooks/${ok.body.data.id}`;
    assert.ok(
      fieldErrors(
        await server.request('PATCH', path, {
          headers: auth,
          body: { url: 'https://192.168.0.1/' },
        }),
      ).url,
    );
    assertError(
      await server.request('PATCH', path, { headers: auth, body: { secret: 'whsec_x' } }),
      422,
      'validation_error',
    );
  });
  it('an empty POST body is a 400, but rotate-secret takes none', async () => {
    const res = await server.request('POST', '/api/v1/webhooks', { headers: auth });
    assertError(res, 400, 'validation_error');
  });
  it('a malformed or unknown id is a 404', async () => {
    for (const path of [
      '/api/v1/webhooks/nope',
      '/api/v1/webhooks/whk_0000000000000000000000',
      '/api/v1/webhooks/whk_00/deliveries',
    ]) {
      assertError(await server.request('GET', path, { headers: auth }), 404, 'not_found');
    }
    assertError(
      await server.request('POST', '/api/v1/webhooks/whk_00/rotate-secret', { headers: auth }),
      404,
      'not_found',
    );
  });
  it('a bad cursor is a 400', async () => {
    assertError(
      await server.request('GET', '/api/v1/webhooks?cursor=zzz', { headers: auth }),
      400,
      'validation_error',
    );
  });
});

describe('webhooks: scopes, tier and ownership', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true });
  });
  after(() => server.close());
  const body = { url: 'https://hooks.example.com/', events: ['alert.created'] };

  it('a key without webhooks:read or webhooks:write is refused with 403 naming the scope', async () => {
    const old = await server.make.makeKey({
      scopes: ['watches:read', 'watches:write', 'alerts:read'],
    });
    const read = await server.request('GET', '/api/v1/webhooks', { headers: old.auth });
    assertError(read, 403, 'forbidden');
    assert.match(read.body.error.message, /webhooks:read/);
    const write = await server.request('POST', '/api/v1/webhooks', { headers: old.auth, body });
    assertError(write, 403, 'forbidden');
    assert.match(write.body.error.message, /webhooks:write/);
  });
  it('webhooks:write does not imply webhooks:read', async () => {
    const writer = await server.make.makeKey({ scopes: ['webhooks:write'] });
    assert.equal(
      (await server.request('POST', '/api/v1/webhooks', { headers: writer.auth, body })).status,
      201,
    );
    assertError(
      await server.request('GET', '/api/v1/webhooks', { headers: writer.auth }),
      403,
      'forbidden',
    );
  });
  it('a Solo key gets 403 (API access is Team and above)', async () => {
    const solo = await server.make.makeKey({ tier: 'solo' });
    assertError(
      await server.request('GET', '/api/v1/webhooks', { headers: solo.auth }),
      403,
      'forbidden',
    );
  });
  it("another owner's endpoint is a 404 for every method; an organization's members share theirs", async () => {
    const org = await server.make.makeOrg();
    const alice = await server.make.makeKey({ orgId: org.id });
    const bob = await server.make.makeKey({ orgId: org.id });
    const stranger = await server.make.makeKey();
    const created = await server.request('POST', '/api/v1/webhooks', { headers: alice.auth, body });
    const path = `/api/v1/webhooks/${created.body.data.id}`;
    assert.equal((await server.request('GET', path, { headers: bob.auth })).status, 200);
    for (const [method, p, b] of [
      ['GET', path, undefined],
      ['PATCH', path, { active: false }],
      ['DELETE', path, undefined],
      ['POST', `${path}/rotate-secret`, undefined],
      ['GET', `${path}/deliveries`, undefined],
    ] as const) {
      assertError(
        await server.request(method, p, { headers: stranger.auth, body: b }),
        404,
        'not_found',
      );
    }
    const list = await server.request('GET', '/api/v1/webhooks', { headers: stranger.auth });
    assert.deepEqual(list.body.data, []);
    assert.equal(
      (await server.request('GET', path, { headers: alice.auth })).body.data.active,
      true,
    );
  });
  it('an owner has at most the endpoints of its plan: one more is a 402 with upgradeUrl, as many at once too', async () => {
    const cap = PLANS.team.maxWebhooks as number;
    const org = await server.make.makeOrg({ tier: 'team' });
    const alice = await server.make.makeKey({ orgId: org.id });
    const bob = await server.make.makeKey({ orgId: org.id });
    const post = (auth: Auth) =>
      server.request('POST', '/api/v1/webhooks', { headers: auth, body });
    // Sent all at once, by two members of one organization: the cap still holds.
    const created = await Promise.all(
      Array.from({ length: cap + 3 }, (_, i) => post(i % 2 === 0 ? alice.auth : bob.auth)),
    );
    assert.equal(created.filter((res) => res.status === 201).length, cap);
    const refused = created.filter((res) => res.status !== 201);
    assert.equal(refused.length, 3);
    for (const res of refused) {
      assertError(res, 402, 'forbidden');
      assert.equal(res.body.error.upgradeUrl, '/pricing');
      assert.match(res.body.error.message, new RegExp(`at most ${cap} webhook endpoints`));
    }
    // A deactivated endpoint still counts; a deleted one frees its place.
    const first = created.find((res) => res.status === 201)?.body.data.id as string;
    const path = `/api/v1/webhooks/${first}`;
    await server.request('PATCH', path, { headers: alice.auth, body: { active: false } });
    assertError(await post(alice.auth), 402, 'forbidden');
    assert.equal((await server.request('DELETE', path, { headers: alice.auth })).status, 200);
    assert.equal((await post(bob.auth)).status, 201);
    // Another owner has places of its own, and Enterprise more of them.
    assert.equal((await post((await server.make.makeKey()).auth)).status, 201);
    assert.ok((PLANS.enterprise.maxWebhooks ?? Infinity) > cap);
  });
  it('keys made with every scope include the webhook scopes', () => {
    assert.ok(SCOPES.includes('webhooks:read') && SCOPES.includes('webhooks:write'));
  });
});

describe('webhooks: the address is checked at send time', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  before(async () => {
    // The endpoint is accepted (as on a self-hosted install), then sent by a sender that does not
    // allow private addresses: the resolved address is what counts.
    server = await startTestServer({ webhookAllowPrivateUrls: true });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  for (const host of ['localhost', '127.0.0.1']) {
    it(`a request to ${host} is never sent when private addresses are not allowed`, async () => {
      await server.db.query('DELETE FROM webhooks');
      const { auth } = await server.make.makeKey();
      const created = await server.request('POST', '/api/v1/webhooks', {
        headers: auth,
        body: { url: `https://${host}:${receiver.port}/hook`, events: ['alert.created'] },
      });
      assert.equal(created.status, 201, created.text);
      await server.request('POST', `/api/v1/webhooks/${created.body.data.id}/rotate-secret`, {
        headers: auth,
      });
      // A test event, as the dashboard's button queues it.
      await enqueueTestEvent(server.db, created.body.data.id);
      const result = await deliverDueWebhooks(server.db, logger, { allowPrivate: false });
      assert.deepEqual(result, { delivered: 0, failed: 1 });
      assert.equal(receiver.received.length, 0);
      const deliveries = await server.request(
        'GET',
        `/api/v1/webhooks/${created.body.data.id}/deliveries`,
        { headers: auth },
      );
      // The reason says why, never what the name resolved to (the service's network is not the
      // tenant's business): no "localhost resolves to 127.0.0.1".
      assert.equal(deliveries.body.data[0].lastError, 'the host is not a public address');
    });
  }

  it('a failed connection is told by its code and a sentence, never the address connected to', async () => {
    await server.db.query('DELETE FROM webhooks');
    const { auth } = await server.make.makeKey();
    const closed = await startWebhookReceiver();
    await closed.close();
    const created = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: closed.url.replace('127.0.0.1', 'localhost'), events: ['alert.created'] },
    });
    await enqueueTestEvent(server.db, created.body.data.id);
    await deliverDueWebhooks(server.db, logger, { allowPrivate: true });
    const deliveries = await server.request(
      'GET',
      `/api/v1/webhooks/${created.body.data.id}/deliveries`,
      { headers: auth },
    );
    assert.equal(deliveries.body.data[0].lastError, 'the connection was refused (ECONNREFUSED)');
  });

  it('a host name is resolved when the request is made, and each of its addresses checked', async () => {
    await server.db.query('DELETE FROM webhooks');
    const { auth } = await server.make.makeKey();
    // localhost.localdomain-style names resolve through the system resolver like any other name.
    const created = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: `http://localhost:${receiver.port}/hook`, events: ['alert.created'] },
    });
    await enqueueTestEvent(server.db, created.body.data.id);
    // With private addresses allowed, the same endpoint is reached: the refusal above was the policy.
    assert.deepEqual(await deliverDueWebhooks(server.db, logger, { allowPrivate: true }), {
      delivered: 1,
      failed: 0,
    });
    assert.equal(receiver.received.length, 1);
  });
});
