import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markSent } from '../../src/data/repositories/outbox.ts';
import { type Auth, compareListOrder, createWatch } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// Sections 2.2, 2.3, 3 and 4.6–4.8: reading alerts, filtering them and changing their state.

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STATES = ['unread', 'read', 'dismissed'] as const;

describe('alerts: happy paths', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** A key, one of its watches and one alert on it. */
  async function alertFixture() {
    const { auth, userId } = await server.make.makeKey();
    const watch = await createWatch(server, auth);
    const alertId = await server.make.makeAlert(watch.id);
    return { auth, userId, watch, alertId };
  }

  async function makeAlertAt(watchId: string, createdAt: string) {
    const id = await server.make.makeAlert(watchId);
    await server.db.query('UPDATE alerts SET created_at = $2 WHERE id = $1', [id, createdAt]);
    return id;
  }

  const listIds = async (auth: Auth, query: string) => {
    const res = await server.request('GET', `/api/v1/alerts${query}`, { headers: auth });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((a: { id: string }) => a.id).sort();
  };

  const patchState = (auth: Auth, id: string, state: string) =>
    server.request('PATCH', `/api/v1/alerts/${id}`, { headers: auth, body: { state } });

  it('lists an alert with every field and its embedded hit', async () => {
    const { auth, watch, alertId } = await alertFixture();
    const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 1);
    const alert = res.body.data[0];
    assert.equal(alert.id, alertId);
    assert.equal(alert.watchId, watch.id);
    assert.equal(alert.state, 'unread');
    assert.equal(alert.severity, 'medium');
    assert.match(alert.rationale, /^\*\*Severity: medium\.\*\*/);
    assert.match(alert.rationaleAt, ISO_MS);
    assert.equal(alert.emailedAt, null);
    assert.equal(alert.hit.publishedAt, null);
    assert.equal(alert.hit.opposition, null);
    assert.equal(alert.origin, 'new_filing');
    assert.match(alert.createdAt, ISO_MS);
    assert.match(alert.hit.id, /^hit_[0-9A-Za-z]+$/);
    assert.equal(alert.hit.entityType, 'trademark');
    assert.equal(alert.hit.sourceCode, 'global_trademark_database');
    assert.equal(alert.hit.filedAt, '2026-10-01T00:00:00.000Z');
    assert.equal(alert.hit.registeredAt, null);
    assert.deepEqual(alert.hit.classes, [9, 42]);
    assert.equal(typeof alert.hit.rawPayload, 'object');
    assert.deepEqual(res.body.pagination, { nextCursor: null, limit: 50 });
  });

  it('a hit whose source gives no owner, country, status or classes carries null and [], not placeholders', async () => {
    const { auth } = await alertFixture();
    const watch = await createWatch(server, auth);
    const alertId = await server.make.makeAlert(watch.id, {
      ownerName: null,
      ownerCountryCode: null,
      status: null,
      classes: [],
    });
    // server.request also checks the body against the OpenAPI schema, which must allow the nulls.
    const res = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
    assert.equal(res.status, 200, res.text);
    const { hit } = res.body.data;
    assert.deepEqual(
      [hit.ownerName, hit.ownerCountryCode, hit.status, hit.classes],
      [null, null, null, []],
    );
  });

  it('severity= filters the list to one severity or a comma list of them', async () => {
    const { auth, watch } = await alertFixture();
    const high = await server.make.makeAlert(watch.id, { severity: 'high' });
    const low = await server.make.makeAlert(watch.id, { severity: 'low' });
    const ids = async (query: string) => {
      const res = await server.request('GET', `/api/v1/alerts?${query}`, { headers: auth });
      assert.equal(res.status, 200, query);
      return res.body.data.map((a: { id: string }) => a.id).sort();
    };
    assert.deepEqual(await ids('severity=high'), [high]);
    assert.deepEqual(await ids('severity=high,low'), [high, low].sort());
    assert.deepEqual(await ids('severity=high&severity=low'), [high, low].sort(), 'repeated');
    const bad = await server.request('GET', '/api/v1/alerts?severity=urgent', { headers: auth });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'validation_error');
  });

  it('every alert says its origin, and origin= filters the list to new filings or existing marks', async () => {
    const { auth, watch, alertId: newFiling } = await alertFixture();
    const existing = await server.make.makeAlert(watch.id, { origin: 'existing_mark' });
    const one = await server.request('GET', `/api/v1/alerts/${existing}`, { headers: auth });
    assert.equal(one.body.data.origin, 'existing_mark');
    assert.deepEqual(await listIds(auth, '?origin=new_filing'), [newFiling]);
    assert.deepEqual(await listIds(auth, '?origin=existing_mark'), [existing]);
    assert.deepEqual(await listIds(auth, ''), [newFiling, existing].sort());
    for (const query of ['origin=old', 'origin=', 'origin=new_filing&origin=existing_mark']) {
      const bad = await server.request('GET', `/api/v1/alerts?${query}`, { headers: auth });
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error.code, 'validation_error', query);
    }
  });

  it('GET /alerts/{id} answers exactly the list row', async () => {
    const { auth, alertId } = await alertFixture();
    const list = await server.request('GET', '/api/v1/alerts', { headers: auth });
    const read = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, list.body.data[0]);
  });

  // The alert's JSON is stored on its row and rebuilt by a trigger on every write (migration
  // 004): whichever code path changes the row, the API must show the change at once.
  it('every write of an alert row shows in its JSON: e-mail sender, state, severity and rationale', async () => {
    const { auth, alertId } = await alertFixture();
    const read = async () => {
      const res = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    };
    await server.db.transaction((tx) => markSent(tx, 'eml_none', [alertId]));
    const emailed = await read();
    const [row] = await server.db.query<{ emailed: string }>(
      'SELECT iso_ms(emailed_at) AS emailed FROM alerts WHERE id = $1',
      [alertId],
    );
    assert.match(emailed.emailedAt, ISO_MS);
    assert.equal(emailed.emailedAt, row?.emailed);

    await server.db.query(
      `UPDATE alerts SET severity = 'high', rationale = 'Same word in class 9.',
                         rationale_at = '2026-11-01T10:00:00.123Z' WHERE id = $1`,
      [alertId],
    );
    const triaged = await read();
    assert.equal(triaged.severity, 'high');
    assert.equal(triaged.rationale, 'Same word in class 9.');
    assert.equal(triaged.rationaleAt, '2026-11-01T10:00:00.123Z');

    const patched = await patchState(auth, alertId, 'dismissed');
    assert.equal(patched.status, 200);
    const after = await read();
    assert.deepEqual(patched.body.data, after);
    assert.deepEqual(after, { ...triaged, state: 'dismissed' });
    const list = await listIds(auth, '?state=dismissed');
    assert.deepEqual(list, [alertId]);
  });

  it('an empty alert list is a 200 with nextCursor null', async () => {
    const { auth } = await server.make.makeKey();
    const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
    assert.deepEqual(res.body, { data: [], pagination: { nextCursor: null, limit: 50 } });
  });

  describe('state changes', () => {
    it('PATCH state read answers the alert in state read', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await patchState(auth, alertId, 'read');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.state, 'read');
      assert.equal(res.body.data.id, alertId);
    });

    it('the new state is what later reads return', async () => {
      const { auth, alertId } = await alertFixture();
      await patchState(auth, alertId, 'dismissed');
      const read = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
      assert.equal(read.body.data.state, 'dismissed');
    });

    it('PATCH changes the state and nothing else', async () => {
      const { auth, alertId } = await alertFixture();
      const before = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
      const res = await patchState(auth, alertId, 'read');
      assert.deepEqual(res.body.data, { ...before.body.data, state: 'read' });
    });

    it('setting the current state again is a 200 that changes nothing', async () => {
      const { auth, alertId } = await alertFixture();
      const first = await patchState(auth, alertId, 'read');
      const second = await patchState(auth, alertId, 'read');
      assert.equal(second.status, 200);
      assert.deepEqual(second.body, first.body);
    });

    it('setting unread on a new (unread) alert is a 200', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await patchState(auth, alertId, 'unread');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.state, 'unread');
    });

    for (const from of STATES) {
      for (const to of STATES) {
        it(`an alert moves from ${from} to ${to}`, async () => {
          const { auth, alertId } = await alertFixture();
          assert.equal((await patchState(auth, alertId, from)).status, 200);
          const res = await patchState(auth, alertId, to);
          assert.equal(res.status, 200);
          assert.equal(res.body.data.state, to);
        });
      }
    }
  });

  describe('filters', () => {
    it('state filters to one state', async () => {
      const { auth, watch, alertId } = await alertFixture();
      const read = await server.make.makeAlert(watch.id);
      await patchState(auth, read, 'read');
      assert.deepEqual(await listIds(auth, '?state=read'), [read]);
      assert.deepEqual(await listIds(auth, '?state=unread'), [alertId]);
      assert.deepEqual(await listIds(auth, '?state=dismissed'), []);
    });

    it('a repeated state matches any of the given states (OR)', async () => {
      const { auth, watch, alertId: unread } = await alertFixture();
      const read = await server.make.makeAlert(watch.id);
      const dismissed = await server.make.makeAlert(watch.id);
      await patchState(auth, read, 'read');
      await patchState(auth, dismissed, 'dismissed');
      assert.deepEqual(
        await listIds(auth, '?state=read&state=dismissed'),
        [read, dismissed].sort(),
      );
      assert.deepEqual(
        await listIds(auth, '?state=unread&state=read&state=dismissed'),
        [unread, read, dismissed].sort(),
      );
    });

    it('watchId restricts the list to that watch', async () => {
      const { auth, watch, alertId } = await alertFixture();
      const other = await createWatch(server, auth, { name: 'Other' });
      const otherAlert = await server.make.makeAlert(other.id);
      assert.deepEqual(await listIds(auth, `?watchId=${watch.id}`), [alertId]);
      assert.deepEqual(await listIds(auth, `?watchId=${other.id}`), [otherAlert]);
    });

    it('watchId of another user’s watch is a 200 with an empty list', async () => {
      const mine = await alertFixture();
      const theirs = await alertFixture();
      assert.deepEqual(await listIds(mine.auth, `?watchId=${theirs.watch.id}`), []);
    });

    it('watchId of no watch at all is a 200 with an empty list', async () => {
      const { auth } = await alertFixture();
      assert.deepEqual(await listIds(auth, '?watchId=wat_0000000000000000000000'), []);
      assert.deepEqual(await listIds(auth, '?watchId=nonsense'), []);
      assert.deepEqual(await listIds(auth, '?watchId=%00'), []);
    });

    it('since is inclusive for a date (midnight UTC)', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      await makeAlertAt(watch.id, '2026-02-28T23:59:59.999Z');
      const atMidnight = await makeAlertAt(watch.id, '2026-03-01T00:00:00.000Z');
      const later = await makeAlertAt(watch.id, '2026-03-02T12:00:00.000Z');
      assert.deepEqual(await listIds(auth, '?since=2026-03-01'), [atMidnight, later].sort());
    });

    it('since is inclusive for a date-time to the millisecond', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const exact = await makeAlertAt(watch.id, '2026-03-01T10:20:30.456Z');
      await makeAlertAt(watch.id, '2026-03-01T10:20:30.455Z');
      assert.deepEqual(await listIds(auth, '?since=2026-03-01T10:20:30.456Z'), [exact]);
      assert.deepEqual(await listIds(auth, '?since=2026-03-01T10:20:30.457Z'), []);
    });

    it('since honours a UTC offset and reads a date-time without one as UTC', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const noon = await makeAlertAt(watch.id, '2026-03-01T12:00:00.000Z');
      assert.deepEqual(
        await listIds(auth, `?since=${encodeURIComponent('2026-03-01T13:00:00+01:00')}`),
        [noon],
      );
      assert.deepEqual(
        await listIds(auth, `?since=${encodeURIComponent('2026-03-01T13:00:01+01:00')}`),
        [],
      );
      assert.deepEqual(await listIds(auth, '?since=2026-03-01T12:00:00'), [noon]);
      assert.deepEqual(await listIds(auth, '?since=2026-03-01T12:00:01'), []);
    });

    it('a since before any possible alert lists everything', async () => {
      const { auth, alertId } = await alertFixture();
      assert.deepEqual(await listIds(auth, '?since=0001-01-01'), [alertId]);
      assert.deepEqual(await listIds(auth, '?since=0000-01-01'), [alertId]);
    });

    it('a since after any possible alert lists nothing', async () => {
      const { auth } = await alertFixture();
      assert.deepEqual(await listIds(auth, '?since=9999-12-31'), []);
      assert.deepEqual(
        await listIds(auth, `?since=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`),
        [],
      );
    });

    it('filters combine: state, watchId and since together', async () => {
      const { auth } = await server.make.makeKey();
      const a = await createWatch(server, auth, { name: 'A' });
      const b = await createWatch(server, auth, { name: 'B' });
      const wanted = await makeAlertAt(a.id, '2026-05-02T00:00:00.000Z');
      await patchState(auth, wanted, 'read');
      const tooOld = await makeAlertAt(a.id, '2026-04-30T00:00:00.000Z');
      await patchState(auth, tooOld, 'read');
      await makeAlertAt(a.id, '2026-05-03T00:00:00.000Z'); // unread
      const otherWatch = await makeAlertAt(b.id, '2026-05-03T00:00:00.000Z');
      await patchState(auth, otherWatch, 'read');
      assert.deepEqual(await listIds(auth, `?state=read&watchId=${a.id}&since=2026-05-01`), [
        wanted,
      ]);
    });

    it('unknown query parameters are ignored', async () => {
      const { auth, alertId } = await alertFixture();
      assert.deepEqual(await listIds(auth, '?colour=red&sort=asc'), [alertId]);
    });

    it('the list is ordered by createdAt then id, both descending', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      for (const at of ['2026-01-01', '2026-01-03', '2026-01-02', '2026-01-02']) {
        await makeAlertAt(watch.id, `${at}T00:00:00.000Z`);
      }
      const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
      const rows = res.body.data as { id: string; createdAt: string }[];
      assert.equal(rows.length, 4);
      assert.deepEqual(rows, [...rows].sort(compareListOrder));
    });
  });
});
