import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { openDb } from '../../src/data/db.ts';
import { createWebhookService } from '../../src/domain/webhooks.ts';
import {
  BIN,
  childEnv,
  freshInstallation,
  type Installation,
  makeKey,
  printedObject,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';
import { factories } from '../helpers/factories.ts';
import { makeRecord } from '../helpers/register.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

describe('tmwatch webhooks deliver (real processes, end to end)', () => {
  let install: Installation;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const env = () => ({ ...install.env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const run = (...args: string[]) => tmwatch(args, env());

  before(async () => {
    install = await freshInstallation();
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await install.cleanup();
  });

  test('with nothing due it prints {"delivered":0,"failed":0}', async () => {
    assert.deepEqual(printedObject(await run('webhooks', 'deliver')), { delivered: 0, failed: 0 });
  });

  test('a scan raises an alert; the receiver gets alert.created with a valid signature (a failed attempt counts as failed)', async () => {
    const key = await makeKey(env(), 'team', 'watches:write,webhooks:write,webhooks:read');
    const records = join(install.dataDir, 'records.jsonl');
    writeFileSync(
      records,
      `${JSON.stringify(makeRecord({ markText: 'QUILLORAN', classes: [9] }))}\n`,
    );
    assert.equal(printedObject(await run('marks', 'import', records)).imported, 1);

    const serve = await startServe(env());
    let secret = '';
    try {
      const call = async (path: string, body: unknown) => {
        const response = await fetch(`${serve.url}/api/v1${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 201);
        return ((await response.json()) as { data: { id: string; secret: string } }).data;
      };
      secret = (await call('/webhooks', { url: receiver.url, events: ['alert.created'] })).secret;
      await call('/watches', {
        watchType: 'trademark',
        name: 'Quilloran',
        attributes: { niceClasses: [9], designations: ['DE'] },
      });
    } finally {
      assert.equal(await serve.stop(), 0);
    }
    assert.equal(printedObject(await run('scan')).alertsCreated, 1);

    receiver.answers.push(500);
    assert.deepEqual(printedObject(await run('webhooks', 'deliver')), { delivered: 0, failed: 1 });
    const [first] = receiver.received;
    assert.ok(first);
    const event = new Webhook(secret).verify(
      first.body,
      first.headers as Record<string, string>,
    ) as {
      type: string;
      data: { hit: { displayName: string } };
    };
    assert.equal(event.type, 'alert.created');
    assert.equal(event.data.hit.displayName, 'QUILLORAN');
  });

  test('tmwatch worker delivers due webhooks in the background, and exits 0 on SIGTERM', {
    timeout: 120_000,
  }, async () => {
    // Recorded before the worker starts: an embedded database has one process at a time.
    const db = await openDb({ databaseUrl: install.env.DATABASE_URL, dataDir: install.dataDir });
    try {
      const make = factories(db);
      const { principal } = await make.makeOwner();
      const { id } = await make.makeWebhook(principal, { url: receiver.url });
      await createWebhookService(db, { allowPrivateUrls: true }).sendTestEvent(principal, id);
    } finally {
      await db.close();
    }
    const before = receiver.received.length;
    const worker = spawn(BIN, ['worker'], {
      env: childEnv({ ...env(), SCAN_POLL_SECONDS: '0.2', LOG_LEVEL: 'warn' }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    try {
      // The earlier test's failed alert.created may be retried first: wait for the test event.
      const delivered = await receiver.receivedMatching(
        (r) => /"webhook\.test"/.test(r.body),
        before,
      );
      assert.match(delivered.body, /"webhook\.test"/);
    } finally {
      worker.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
