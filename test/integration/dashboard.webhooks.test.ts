import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '../../src/logger.ts';
import { deliverDueWebhooks } from '../../src/webhooks/sender.ts';
import { signedIn, textOf } from '../helpers/dashboard.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

const logger = createLogger('silent');
const SECRET = /whsec_[A-Za-z0-9+/]+=*/;

describe('dashboard: the Webhooks page', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  async function addEndpoint(client: Awaited<ReturnType<typeof signedIn>>['client']) {
    await client.get('/webhooks');
    const page = await client.post('/webhooks', {
      url: receiver.url,
      events: ['alert.created', 'alert.updated'],
      description: 'intranet',
    });
    assert.equal(page.status, 201, textOf(page.text));
    const secret = SECRET.exec(page.text)?.[0];
    assert.ok(secret, 'the secret is shown once');
    const id = /data-webhook-id="(whk_[A-Za-z0-9]+)"/.exec(page.text)?.[1];
    assert.ok(id);
    return { id, secret };
  }

  it('adding an endpoint shows its secret once; the page shown later does not', async () => {
    const { client } = await signedIn(server);
    const { secret } = await addEndpoint(client);
    const later = await client.get('/webhooks');
    assert.equal(later.status, 200);
    assert.ok(later.text.includes(receiver.url));
    assert.equal(later.text.includes(secret), false);
  });

  it('a test event is delivered, signed, and listed with its outcome', async () => {
    const { client } = await signedIn(server);
    const { id, secret } = await addEndpoint(client);
    const queued = await client.post(`/webhooks/${id}/test`);
    assert.equal(queued.status, 303);
    await deliverDueWebhooks(server.db, logger, { allowPrivate: true });
    const [request] = receiver.received;
    assert.ok(request);
    const event = new Webhook(secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as {
      type: string;
    };
    assert.equal(event.type, 'webhook.test');
    const page = await client.get('/webhooks');
    assert.match(page.text, /data-delivery-status="delivered"/);
  });

  it('disable, enable, rotate the secret and delete', async () => {
    const { client } = await signedIn(server);
    const { id, secret } = await addEndpoint(client);
    const state = async () =>
      (
        await server.db.query<{ active: boolean }>('SELECT active FROM webhooks WHERE id = $1', [
          id,
        ])
      )[0]?.active;
    assert.equal((await client.post(`/webhooks/${id}/disable`)).status, 303);
    assert.equal(await state(), false);
    assert.equal((await client.post(`/webhooks/${id}/enable`)).status, 303);
    assert.equal(await state(), true);
    const rotated = await client.post(`/webhooks/${id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    const fresh = SECRET.exec(rotated.text)?.[0];
    assert.ok(fresh && fresh !== secret);
    assert.equal((await client.post(`/webhooks/${id}/delete`)).status, 303);
    assert.equal(await state(), undefined);
  });

  it('a bad form is answered 422 with the field errors, and nothing is created', async () => {
    const { client, user } = await signedIn(server);
    await client.get('/webhooks');
    const page = await client.post('/webhooks', {
      url: 'ftp://x.example',
      events: ['alert.deleted'],
    });
    assert.equal(page.status, 422);
    assert.match(textOf(page.text), /alert\.created, alert\.updated/);
    const rows = await server.db.query('SELECT 1 FROM webhooks WHERE created_by = $1', [user.id]);
    assert.equal(rows.length, 0);
  });

  it("another account's endpoint cannot be changed (404), and a Solo account cannot add one (403)", async () => {
    const { client: owner } = await signedIn(server);
    const { id } = await addEndpoint(owner);
    const { client: other } = await signedIn(server);
    await other.get('/webhooks');
    assert.equal((await other.post(`/webhooks/${id}/delete`)).status, 404);
    const { client: solo } = await signedIn(server, { tier: 'solo' });
    await solo.get('/webhooks');
    assert.equal(
      (await solo.post('/webhooks', { url: receiver.url, events: ['alert.created'] })).status,
      403,
    );
  });

  it('changes need the CSRF token', async () => {
    const { client } = await signedIn(server);
    const { id } = await addEndpoint(client);
    assert.equal((await client.post(`/webhooks/${id}/delete`, { _csrf: 'forged' })).status, 403);
  });
});
