import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createClient,
  type TrademarkWatchClient,
  TrademarkWatchError,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';

// The client against the real service: `tmwatch serve` of this repository, started on a fresh
// embedded database with a scheduler that scans and delivers webhooks every 0.2 s.
const BIN = fileURLToPath(new URL('../../../bin/tmwatch', import.meta.url));
const run = promisify(execFile);

type Received = { headers: IncomingHttpHeaders; body: string };

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A webhook receiver: answers 500 to the first request, 204 afterwards; `waitFor` awaits one. */
async function startReceiver() {
  const received: Received[] = [];
  const waiters: { test: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      requests++;
      response.statusCode = requests === 1 ? 500 : 204;
      response.end();
      const entry = { headers: request.headers, body };
      received.push(entry);
      for (const waiter of waiters.filter((w) => w.test(entry))) waiter.resolve(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    /** The first request (already received or still to come) that `test` accepts. */
    waitFor(test: (r: Received) => boolean): Promise<Received> {
      const found = received.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the client against the running service', () => {
  let dataDir: string;
  let serve: ChildProcess;
  let client: TrademarkWatchClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const env = () => {
    const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS', 'NODE_TEST_CONTEXT'])
      delete e[name];
    return e;
  };
  const tmwatch = async (...args: string[]) =>
    JSON.parse((await run(BIN, args, { env: env() })).stdout) as Record<string, string>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tmw-client-'));
    const user = await tmwatch(
      'users',
      'create',
      '--email',
      'client@example.test',
      '--tier',
      'team',
    );
    const scopes = 'watches:read,watches:write,alerts:read,webhooks:read,webhooks:write';
    const key = await tmwatch(
      'keys',
      'create',
      '--user',
      user.id ?? '',
      '--name',
      'client',
      '--scopes',
      scopes,
    );
    // Two register records that conflict with the watch made below: two alerts.
    const records = ['VELMORIQ', 'VELMORIQ LABS'].map((markText, i) =>
      JSON.stringify({
        externalId: `EM50000009876${i}`,
        markText,
        ownerName: 'Rival Holdings SA',
        ownerCountryCode: 'FR',
        jurisdiction: 'EM',
        filedAt: '2026-10-01',
        status: 'filed',
        classes: [9],
      }),
    );
    writeFileSync(join(dataDir, 'records.jsonl'), `${records.join('\n')}\n`);
    await tmwatch('marks', 'import', join(dataDir, 'records.jsonl'));

    receiver = await startReceiver();
    serve = spawn(BIN, ['serve'], {
      env: {
        ...env(),
        HOST: '127.0.0.1',
        PORT: '0',
        SCAN_POLL_SECONDS: '0.2',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      serve.stderr?.on('data', (chunk) => {
        stderr += chunk;
        const match = /Trademark Watch is running at (\S+)/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      serve.on('exit', (status) => reject(new Error(`serve exited ${status}: ${stderr}`)));
    });
    client = createClient({ baseUrl, apiKey: key.key ?? '' });
  });

  after(async () => {
    if (serve && serve.exitCode === null) {
      const exited = new Promise((resolve) => serve.on('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
    }
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let secret = '';
  let webhookId = '';
  const since = new Date(Date.now() - 60_000).toISOString();

  it('creates a webhook (secret shown once) and a watch', async () => {
    const webhook = await client.webhooks.create({
      url: receiver.url,
      events: ['alert.created', 'alert.updated'],
    });
    assert.match(webhook.secret, /^whsec_/);
    secret = webhook.secret;
    webhookId = webhook.id;
    assert.equal('secret' in (await client.webhooks.get(webhook.id)), false);
    const watch = await client.watches.create({
      watchType: 'trademark',
      name: 'Velmoriq',
      attributes: { niceClasses: [9], designations: ['FR'] },
    });
    assert.equal(watch.active, true);
  });

  it('a receiver that fails first gets alert.created again, with the same webhook-id, and verifyWebhook accepts it', {
    timeout: 60_000,
  }, async () => {
    const isCreated = (r: Received) => r.body.includes('"alert.created"');
    const first = await receiver.waitFor(isCreated);
    const retried = await receiver.waitFor(
      (r) => r !== first && r.headers['webhook-id'] === first.headers['webhook-id'],
    );
    const event = verifyWebhook(secret, retried.headers as Record<string, string>, retried.body);
    assert.equal(event.type, 'alert.created');
    if (event.type !== 'alert.created') return;
    assert.equal(event.data.hit.ownerName, 'Rival Holdings SA');
    // The event holds the alert as it was when raised (its e-mail may have gone out since).
    const now = await client.alerts.get(event.data.id);
    assert.deepEqual(now.hit, event.data.hit);
    assert.equal(now.createdAt, event.data.createdAt);
  });

  it('verifyWebhook rejects a tampered body and a foreign secret', async () => {
    const [request] = receiver.received;
    assert.ok(request);
    const headers = request.headers as Record<string, string>;
    assert.throws(
      () => verifyWebhook(secret, headers, request.body.replace('Rival', 'Other')),
      WebhookVerificationError,
    );
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    assert.throws(() => verifyWebhook(other, headers, request.body), WebhookVerificationError);
  });

  it('iterates every alert since a time across pages (limit 1)', async () => {
    const alerts = [];
    for await (const alert of client.alerts.list({ since, limit: 1 })) alerts.push(alert);
    assert.equal(alerts.length, 2);
    assert.equal(new Set(alerts.map((a) => a.id)).size, 2);
    const later = [];
    for await (const alert of client.alerts.list({
      since: new Date(Date.now() + 60_000).toISOString(),
    })) {
      later.push(alert);
    }
    assert.deepEqual(later, [], 'polling with a later since gives nothing new');
  });

  it('a state change arrives as alert.updated', { timeout: 60_000 }, async () => {
    const [alert] = await collect(client.alerts.list({ state: ['unread'], limit: 1 }));
    assert.ok(alert);
    assert.equal((await client.alerts.setState(alert.id, 'read')).state, 'read');
    const request = await receiver.waitFor((r) => r.body.includes('"alert.updated"'));
    const event = verifyWebhook(secret, request.headers as Record<string, string>, request.body);
    assert.equal(event.type, 'alert.updated');
    assert.equal(event.type === 'alert.updated' && event.data.state, 'read');
  });

  it('lists the deliveries of the webhook with their outcome', async () => {
    const deliveries = await collect(client.webhooks.deliveries(webhookId));
    assert.ok(deliveries.length >= 3);
    const retried = deliveries.find((d) => d.attempts === 2);
    assert.equal(retried?.status, 'delivered');
  });

  it('API errors are thrown with their status, code and details', async () => {
    await assert.rejects(client.watches.get('wat_missing'), (error: unknown) => {
      assert.ok(error instanceof TrademarkWatchError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      return true;
    });
    await assert.rejects(
      client.webhooks.create({ url: receiver.url, events: ['alert.deleted' as 'alert.created'] }),
      (error: unknown) => {
        assert.ok(error instanceof TrademarkWatchError);
        assert.equal(error.status, 422);
        assert.ok(JSON.stringify(error.details).includes('events.0'));
        return true;
      },
    );
  });

  it('me() answers the key with its scopes', async () => {
    const me = await client.me();
    assert.ok(me.key.scopes.includes('webhooks:read'));
  });
});
