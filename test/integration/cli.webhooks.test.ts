import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { makeRecord } from '../helpers/register.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import {
  freshInstallation,
  type Installation,
  printedObject,
  startServe,
  tmwatch,
} from './cli.helpers.ts';

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

  test('a scan raises an alert; the receiver gets alert.created with a valid signature, and a failed attempt waits for its retry', async () => {
    const user = printedObject(
      await run('users', 'create', '--email', 'hooks@example.test', '--tier', 'team'),
    );
    const key = printedObject(
      await run(
        'keys',
        'create',
        '--user',
        user.id,
        '--name',
        'hooks',
        '--scopes',
        'watches:write,webhooks:write,webhooks:read',
      ),
    );
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
    assert.deepEqual(
      printedObject(await run('webhooks', 'deliver')),
      { delivered: 0, failed: 0 },
      'the retry is not due yet',
    );
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
});
