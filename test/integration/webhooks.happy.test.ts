import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { enqueueAlertEvents } from '../../src/domain/alerts/events.ts';
import { createLogger } from '../../src/logger.ts';
import { createScanner } from '../../src/scan/scanner.ts';
import { MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule.ts';
import { deliverDueWebhooks } from '../../src/webhooks/sender.ts';
import { type Auth, createWatch } from '../helpers/api.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

const logger = createLogger('silent');

describe('webhooks: delivery of signed events', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let auth: Auth;

  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.answers.length = 0;
    // Each test counts only its own deliveries (and those of no earlier test).
    await server.db.query('DELETE FROM webhooks');
    auth = (await server.make.makeKey()).auth;
  });

  const deliver = (options: { timeoutMs?: number } = {}) =>
    deliverDueWebhooks(server.db, logger, { allowPrivate: true, ...options });

  async function addWebhook(events = ['alert.created', 'alert.updated'], url = receiver.url) {
    const res = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url, events, description: 'docketing' },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { id: string; secret: string; url: string };
  }

  /** A watch of the caller, scanned once against one conflicting record: one new alert. */
  async function newAlert(): Promise<{ id: string }> {
    // Ten random characters: with five, two of this file's brands were once within the two edits
    // that a 14-character brand tolerates, and the scan rightly raised the other test's record too.
    const name = `Zephyrine${Math.random().toString(36).slice(2, 12)}`;
    await importRecords(server.db, [makeRecord({ markText: name.toUpperCase(), classes: [9] })]);
    const watch = await createWatch(server, auth, {
      name,
      attributes: { niceClasses: [9], designations: ['DE'] },
    });
    const scanner = createScanner({
      db: server.db,
      logger,
      publicUrl: 'https://tm.example',
      leaseSeconds: 60,
    });
    await scanner.scan({ watchIds: [watch.id] });
    const alerts = await server.request('GET', `/api/v1/alerts?watchId=${watch.id}`, {
      headers: auth,
    });
    assert.equal(alerts.body.data.length, 1, alerts.text);
    return alerts.body.data[0];
  }

  const deliveriesOf = async (webhookId: string) => {
    const res = await server.request('GET', `/api/v1/webhooks/${webhookId}/deliveries`, {
      headers: auth,
    });
    assert.equal(res.status, 200, res.text);
    return res.body.data as Record<string, unknown>[];
  };
  const makeDue = () => server.db.query('UPDATE webhook_deliveries SET next_attempt_at = now()');

  it('creating an endpoint answers its whsec_ secret once; reading it never shows the secret', async () => {
    const created = await addWebhook();
    assert.match(created.id, /^whk_/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    const read = await server.request('GET', `/api/v1/webhooks/${created.id}`, { headers: auth });
    assert.equal(read.status, 200);
    assert.equal('secret' in read.body.data, false);
    assert.deepEqual(read.body.data.events, ['alert.created', 'alert.updated']);
    assert.equal(read.body.data.active, true);
    const list = await server.request('GET', '/api/v1/webhooks', { headers: auth });
    assert.deepEqual(
      list.body.data.map((w: { id: string }) => w.id),
      [created.id],
    );
    assert.equal(list.text.includes(created.secret), false);
  });

  it('a new alert reaches the receiver as alert.created, signed so that the Standard Webhooks verifier accepts it', async () => {
    const hook = await addWebhook();
    const alert = await newAlert();
    assert.deepEqual(await deliver(), { delivered: 1, failed: 0 });
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.ok(request);
    assert.match(String(request.headers['webhook-id']), /^msg_/);
    assert.match(String(request.headers['webhook-signature']), /^v1,/);
    const event = new Webhook(hook.secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as {
      type: string;
      timestamp: string;
      data: { id: string; origin: string };
    };
    assert.equal(event.type, 'alert.created');
    // The record was filed (makeRecord: 2026-10-01) before the watch was made.
    assert.equal(event.data.origin, 'existing_mark', 'a webhook tells existing marks from new');
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
    const read = await server.request('GET', `/api/v1/alerts/${alert.id}`, { headers: auth });
    assert.deepEqual(event.data, read.body.data, 'the alert as the API returns it, hit included');
    assert.equal(
      request.body,
      JSON.stringify(event),
      'one compact JSON text, envelope and alert alike, in the order type, timestamp, data',
    );
  });

  it('the verifier rejects a tampered body and a wrong secret', async () => {
    const hook = await addWebhook();
    await newAlert();
    await deliver();
    const [request] = receiver.received;
    assert.ok(request);
    const headers = request.headers as Record<string, string>;
    const tampered = request.body.replace('"alert.created"', '"alert.updated"');
    assert.throws(() => new Webhook(hook.secret).verify(tampered, headers), /signature/i);
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    assert.throws(() => new Webhook(other).verify(request.body, headers), /signature/i);
  });

  it('a receiver that fails first gets the same event (same webhook-id) on a later attempt', async () => {
    const hook = await addWebhook(['alert.created']);
    await newAlert();
    receiver.answers.push(500);
    assert.deepEqual(await deliver(), { delivered: 0, failed: 1 });
    const [pending] = await deliveriesOf(hook.id);
    assert.equal(pending?.status, 'pending');
    assert.equal(pending?.attempts, 1);
    assert.equal(pending?.lastStatusCode, 500);
    assert.ok(Date.parse(String(pending?.nextAttemptAt)) > Date.now(), 'retried later, not now');
    assert.deepEqual(await deliver(), { delivered: 0, failed: 0 }, 'not due yet');

    await makeDue();
    assert.deepEqual(await deliver(), { delivered: 1, failed: 0 });
    assert.equal(receiver.received.length, 2);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1, 'a receiver de-duplicates the retry by webhook-id');
    const [done] = await deliveriesOf(hook.id);
    assert.equal(done?.status, 'delivered');
    assert.equal(done?.attempts, 2);
    assert.equal(done?.lastStatusCode, 204);
    assert.equal(done?.nextAttemptAt, null);
  });

  it('a redirect is a failed attempt and is not followed', async () => {
    await addWebhook(['alert.created']);
    await newAlert();
    receiver.answers.push(302);
    assert.deepEqual(await deliver(), { delivered: 0, failed: 1 });
    assert.deepEqual(
      receiver.received.map((r) => r.path),
      ['/hook'],
    );
  });

  it('no answer within the time limit is a failed attempt', async () => {
    const hook = await addWebhook(['alert.created']);
    await newAlert();
    receiver.answers.push('hang');
    assert.deepEqual(await deliver({ timeoutMs: 300 }), { delivered: 0, failed: 1 });
    const [delivery] = await deliveriesOf(hook.id);
    assert.match(String(delivery?.lastError), /no answer within/);
  });

  it('after the last attempt the delivery is marked failed and never sent again', async () => {
    const hook = await addWebhook(['alert.created']);
    await newAlert();
    await server.db.query('UPDATE webhook_deliveries SET attempts = $1', [MAX_ATTEMPTS - 1]);
    receiver.answers.push(503);
    assert.deepEqual(await deliver(), { delivered: 0, failed: 1 });
    const [delivery] = await deliveriesOf(hook.id);
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.attempts, MAX_ATTEMPTS);
    assert.ok(delivery?.failedAt);
    assert.equal(delivery?.nextAttemptAt, null);
    await makeDue();
    assert.deepEqual(await deliver(), { delivered: 0, failed: 0 });
  });

  it('an endpoint that failed every delivery for days is disabled, says so, and PATCH active:true turns it back on', async () => {
    const hook = await addWebhook(['alert.created']);
    await newAlert();
    receiver.answers.push(500);
    await deliver();
    await server.db.query(
      `UPDATE webhooks SET failing_since = now() - interval '6 days' WHERE id = $1`,
      [hook.id],
    );
    await makeDue();
    receiver.answers.push(500);
    await deliver();
    const read = await server.request('GET', `/api/v1/webhooks/${hook.id}`, { headers: auth });
    assert.equal(read.body.data.active, false);
    assert.ok(read.body.data.disabledAt);
    assert.match(read.body.data.disabledReason, /failed/);
    await makeDue();
    assert.deepEqual(
      await deliver(),
      { delivered: 0, failed: 0 },
      'a disabled endpoint gets nothing',
    );

    const on = await server.request('PATCH', `/api/v1/webhooks/${hook.id}`, {
      headers: auth,
      body: { active: true },
    });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.data.active, true);
    assert.equal(on.body.data.disabledAt, null);
    assert.deepEqual(await deliver(), { delivered: 1, failed: 0 }, 'its waiting event goes out');
  });

  it('a state change through the API is an alert.updated event; setting the same state again is none', async () => {
    const hook = await addWebhook(['alert.updated']);
    const alert = await newAlert();
    assert.deepEqual(
      await deliver(),
      { delivered: 0, failed: 0 },
      'not subscribed to alert.created',
    );
    const patch = (state: string) =>
      server.request('PATCH', `/api/v1/alerts/${alert.id}`, { headers: auth, body: { state } });
    assert.equal((await patch('read')).status, 200);
    assert.equal((await patch('read')).status, 200);
    assert.deepEqual(await deliver(), { delivered: 1, failed: 0 });
    const event = new Webhook(hook.secret).verify(
      receiver.received[0]?.body ?? '',
      receiver.received[0]?.headers as Record<string, string>,
    ) as { type: string; data: { id: string; state: string } };
    assert.equal(event.type, 'alert.updated');
    assert.equal(event.data.id, alert.id);
    assert.equal(event.data.state, 'read');
  });

  it('an event is recorded in the transaction of its alert: a rolled-back transaction leaves no delivery', async () => {
    const hook = await addWebhook(['alert.updated']);
    const alert = await newAlert();
    const ownerId =
      (
        await server.db.query<{ owner_id: string }>('SELECT owner_id FROM alerts WHERE id = $1', [
          alert.id,
        ])
      )[0]?.owner_id ?? '';
    await assert.rejects(
      server.db.transaction(async (tx) => {
        await enqueueAlertEvents(tx, 'alert.updated', ownerId, [alert.id]);
        throw new Error('the alert change fails');
      }),
    );
    assert.deepEqual(await deliveriesOf(hook.id), []);
  });

  it('two senders at once deliver each event once', async () => {
    await addWebhook(['alert.created']);
    await newAlert();
    await newAlert();
    const [a, b] = await Promise.all([deliver(), deliver()]);
    assert.equal((a?.delivered ?? 0) + (b?.delivered ?? 0), 2);
    assert.equal(receiver.received.length, 2);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 2);
  });

  it('rotating the secret signs later requests with the new one only', async () => {
    const hook = await addWebhook(['alert.created']);
    const rotated = await server.request('POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, {
      headers: auth,
    });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.data.secret, hook.secret);
    await newAlert();
    await deliver();
    const [request] = receiver.received;
    assert.ok(request);
    const headers = request.headers as Record<string, string>;
    assert.ok(new Webhook(rotated.body.data.secret).verify(request.body, headers));
    assert.throws(() => new Webhook(hook.secret).verify(request.body, headers));
  });

  it('PATCH changes url, events and description; DELETE removes the endpoint and its deliveries', async () => {
    const hook = await addWebhook(['alert.created']);
    const patched = await server.request('PATCH', `/api/v1/webhooks/${hook.id}`, {
      headers: auth,
      body: { url: `${receiver.url}/v2`, events: ['alert.updated'], description: null },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.data.url, `${receiver.url}/v2`);
    assert.deepEqual(patched.body.data.events, ['alert.updated']);
    assert.equal(patched.body.data.description, null);
    await newAlert();
    assert.deepEqual(await deliveriesOf(hook.id), [], 'no longer subscribed to alert.created');
    const deleted = await server.request('DELETE', `/api/v1/webhooks/${hook.id}`, {
      headers: auth,
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.id, hook.id);
    const gone = await server.request('GET', `/api/v1/webhooks/${hook.id}`, { headers: auth });
    assert.equal(gone.status, 404);
  });

  it('lists are cursor-paginated, newest first', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await addWebhook()).id);
    const first = await server.request('GET', '/api/v1/webhooks?limit=2', { headers: auth });
    assert.equal(first.body.data.length, 2);
    assert.equal(first.body.pagination.limit, 2);
    const cursor = first.body.pagination.nextCursor;
    assert.ok(cursor);
    const second = await server.request(
      'GET',
      `/api/v1/webhooks?limit=2&cursor=${encodeURIComponent(cursor)}`,
      { headers: auth },
    );
    assert.equal(second.body.pagination.nextCursor, null);
    const seen = [...first.body.data, ...second.body.data].map((w: { id: string }) => w.id);
    assert.deepEqual(new Set(seen), new Set(ids));
    assert.equal(seen.length, 3);
  });
});
