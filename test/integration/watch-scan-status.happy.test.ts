import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWatch } from '../helpers/api.ts';
import { manualClock, signedIn, textOf } from '../helpers/dashboard.ts';
import { principalFor } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { testScanner } from '../helpers/scan.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A watch says whether and when it has looked: "nothing found" and "never scanned" must not look
// the same, in the API (lastScannedAt, mirrorCoveredUntil, alertCounts) or on the Watches page.

describe('watches: when they last looked, and what they found', () => {
  let server: TestServer;
  const clock = manualClock();
  before(async () => {
    server = await startTestServer({ clock, app: { scanPollSeconds: 5 } });
  });
  after(() => server.close());

  const scan = (watchId: string) => testScanner(server.db).scan({ watchIds: [watchId] });

  it('a watch never scanned has lastScannedAt and mirrorCoveredUntil null and no alerts', async () => {
    const { auth } = await server.make.makeKey();
    const watch = await createWatch(server, auth);
    assert.equal(watch.lastScannedAt, null);
    assert.equal(watch.mirrorCoveredUntil, null);
    assert.deepEqual(watch.alertCounts, { unread: 0, read: 0, dismissed: 0 });
    const read = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
    assert.equal(read.body.data.lastScannedAt, null);
  });

  it('after a scan: when it ended, the newest register change it saw, and its alerts by state', async () => {
    const { auth } = await server.make.makeKey();
    await importRecords(server.db, [
      makeRecord({ markText: 'KESTRELLA' }),
      makeRecord({ markText: 'KESTREL' }),
    ]);
    const [newest] = await server.db.query<{ at: string }>(
      `SELECT iso_ms(updated_at) AS at FROM marks ORDER BY change_seq DESC LIMIT 1`,
    );
    const watch = await createWatch(server, auth, {
      name: 'Kestrel',
      attributes: { niceClasses: [9], designations: ['EU'] },
    });
    await scan(watch.id);
    const [run] = await server.db.query<{ at: string }>(
      'SELECT iso_ms(last_scanned_at) AS at FROM watches WHERE id = $1',
      [watch.id],
    );
    const alerts = await server.request('GET', `/api/v1/alerts?watchId=${watch.id}`, {
      headers: auth,
    });
    assert.equal(alerts.body.data.length, 2);
    await server.request('PATCH', `/api/v1/alerts/${alerts.body.data[0].id}`, {
      headers: auth,
      body: { state: 'dismissed' },
    });

    const list = await server.request('GET', '/api/v1/watches', { headers: auth });
    const listed = list.body.data.find((w: { id: string }) => w.id === watch.id);
    assert.equal(listed.lastScannedAt, run?.at);
    assert.ok(listed.lastScannedAt !== null);
    assert.equal(listed.mirrorCoveredUntil, newest?.at);
    assert.deepEqual(listed.alertCounts, { unread: 1, read: 0, dismissed: 1 });
    const one = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
    assert.deepEqual(one.body.data, listed);
  });

  it('the Watches page shows the last scan and the counts, and a new watch waiting for its first scan', async () => {
    const { user, client } = await signedIn(server);
    const principal = principalFor(user, 'team');
    await importRecords(server.db, [makeRecord({ markText: 'OSPREYA' })]);
    const scanned = await server.make.makeWatch(principal, {
      name: 'Osprey',
      designations: ['EU'],
    });
    await scan(scanned.id);
    await server.make.makeWatch(principal, { name: 'Fresh Brand' });
    // The service's clock, moved by hand, at the real time the watch was created.
    clock.advance(Date.now() - clock.now());

    const page = textOf((await client.get('/watches')).text);
    assert.match(page, /Last scan/);
    assert.match(
      page,
      /Osprey 9 EU Daily Active .* register as loaded up to .* 1 unread 0 read, 0 dismissed/,
    );
    assert.match(page, /Fresh Brand 9 DE Daily Active [^A]*Waiting for its first scan 0 unread/);

    // Past the scheduler's poll interval, a watch never scanned says so instead of waiting.
    clock.advance(6_000);
    const later = textOf((await client.get('/watches')).text);
    assert.match(later, /Fresh Brand 9 DE Daily Active [^A]*Not scanned yet 0 unread/);
    assert.doesNotMatch(later, /Waiting for its first scan/);
  });
});
