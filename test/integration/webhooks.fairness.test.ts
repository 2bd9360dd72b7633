import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { openDb } from '../../src/data/db.ts';
import { insertWebhook } from '../../src/data/repositories/webhooks.ts';
import { enqueueAlertEvents } from '../../src/domain/alerts/events.ts';
import { newId } from '../../src/domain/ids.ts';
import { PLANS } from '../../src/domain/plans.ts';
import { OWNER_IN_FLIGHT } from '../../src/webhooks/sender.ts';
import { generateWebhookSecret } from '../../src/webhooks/signing.ts';
import {
  BIN,
  childEnv,
  type Env,
  freshInstallation,
  printedObject,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories, principalFor } from '../helpers/factories.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

// One tenant's endpoints that never answer must not delay everyone else's webhooks: the fault an
// attack found (sixty such endpoints of one Team user queued about 450 deliveries, and another
// user's event arrived three and a half minutes later, because delivery claimed one global batch
// of 20 and waited for all of them, 10 s each). Real processes: `tmwatch serve` with its
// scheduler (and on PostgreSQL a `tmwatch worker` beside it) against a receiver that accepts
// connections and never answers.

const NOISY_ENDPOINTS = 60;
const EVENTS_EACH = 8;

/** A TCP server that takes every connection and never answers, counting what it holds at once. */
async function startSilentReceiver() {
  const sockets = new Set<Socket>();
  let total = 0;
  let mostAtOnce = 0;
  const server = createServer((socket) => {
    total += 1;
    sockets.add(socket);
    mostAtOnce = Math.max(mostAtOnce, sockets.size);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/never`,
    open: () => sockets.size,
    total: () => total,
    mostAtOnce: () => mostAtOnce,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function startWorker(env: Env): ChildProcess {
  const child = spawn(BIN, ['worker'], {
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  return child;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('webhook delivery is fair between owners', { timeout: 240_000 }, () => {
  it("an owner's sixty endpoints that never answer hold a few requests, and another owner's event goes out at once", async (t) => {
    const install = await freshInstallation();
    if (install.kind === 'postgres') printedObject(await tmwatch(['migrate'], install.env));
    const silent = await startSilentReceiver();
    const answering = await startWebhookReceiver();
    const processes: ChildProcess[] = [];
    // In this order: the processes stop before their receivers and their database go.
    t.after(async () => {
      await Promise.all(processes.map(stop));
      await Promise.all([silent.close(), answering.close()]);
      await install.cleanup();
    });

    // The data, written before the processes start (an embedded database has one process).
    const db = await openDb({ databaseUrl: install.env.DATABASE_URL, dataDir: install.dataDir });
    const make = factories(db);
    const noisy = await make.makeUser({ tier: 'team' });
    // More endpoints than the plan allows now: an owner may have made them before the cap.
    assert.ok(NOISY_ENDPOINTS > (PLANS.team.maxWebhooks ?? 0));
    for (let i = 0; i < NOISY_ENDPOINTS; i++) {
      await insertWebhook(db, {
        id: newId('whk'),
        ownerId: noisy.id,
        createdBy: noisy.id,
        url: silent.url,
        events: ['alert.created'],
        description: null,
        secret: generateWebhookSecret(),
      });
    }
    const noisyWatch = await make.makeWatch(principalFor(noisy, 'team'));
    const noisyAlerts = await make.makeAlerts(noisyWatch.id, EVENTS_EACH, (i) => ({
      markText: `NOISE ${i}`,
    }));
    await enqueueAlertEvents(db, 'alert.created', noisy.id, noisyAlerts);
    const queued = NOISY_ENDPOINTS * EVENTS_EACH;

    const quiet = await make.makeUser({ tier: 'team' });
    const quietKey = await make.makeKey({ userId: quiet.id });
    const quietPrincipal = principalFor(quiet, 'team');
    const quietWatch = await make.makeWatch(quietPrincipal);
    const quietAlert = await make.makeAlert(quietWatch.id, { markText: 'QUIET' });
    await make.makeWebhook(quietPrincipal, { url: answering.url, events: ['alert.updated'] });
    await db.close();

    const env = {
      ...install.env,
      SCHEDULER: 'on',
      SCAN_POLL_SECONDS: '0.2',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'error',
    };
    const serve = await startServe(env);
    processes.push(serve.child);
    // On PostgreSQL a second process delivers too: the owner's cap holds across processes.
    if (install.kind === 'postgres') processes.push(startWorker(env));
    await eventually('the noisy owner’s requests to hang', () => silent.open() > 0, {
      timeoutMs: 60_000,
    });

    // Another owner's event, recorded behind the hundreds already due.
    const patched = await fetch(`${serve.url}/api/v1/alerts/${quietAlert}`, {
      method: 'PATCH',
      headers: { ...quietKey.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'read' }),
    });
    assert.equal(patched.status, 200);
    // Generous: a sender that waited for the noisy owner's batches (10 s each) would take minutes.
    const delivered = await eventually(
      'the other owner’s event to arrive',
      () => answering.received.find((r) => r.body.includes(quietAlert)),
      { timeoutMs: 60_000, everyMs: 100 },
    );
    assert.equal(JSON.parse(delivered.body).type, 'alert.updated');
    assert.ok(
      silent.total() < queued,
      `the noisy owner's backlog was still there (${silent.total()} of ${queued} attempted)`,
    );
    assert.ok(
      silent.mostAtOnce() <= OWNER_IN_FLIGHT,
      `at most ${OWNER_IN_FLIGHT} of the noisy owner's requests at once (saw ${silent.mostAtOnce()})`,
    );
  });
});
