import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Auth, assertError, createWatch } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A resource the key cannot see is absent (404), never shown, never changed.
// Organization members share their organization's watches and alerts.

describe('isolation between owners', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** Two unrelated users, B owning a watch with an alert. */
  async function strangers() {
    const a = await server.make.makeKey();
    const b = await server.make.makeKey();
    const created = await createWatch(server, b.auth, { name: 'Secret Brand' });
    const alertId = await server.make.makeAlert(created.id);
    // As B reads it now: with its alert counted (alertCounts).
    const watch = (
      await server.request('GET', `/api/v1/watches/${created.id}`, { headers: b.auth })
    ).body.data;
    return { a: a.auth, b: b.auth, watch, alertId };
  }

  const get = (auth: Auth, path: string) => server.request('GET', path, { headers: auth });

  describe('users', () => {
    it('A cannot read B’s watch: 404 without data', async () => {
      const { a, watch } = await strangers();
      const res = await get(a, `/api/v1/watches/${watch.id}`);
      assertError(res, 404, 'not_found');
      assert.equal(res.text.includes('Secret Brand'), false);
    });

    it('A’s 404 for B’s watch is identical to the 404 for a watch that never existed', async () => {
      const { a, watch } = await strangers();
      const hidden = await get(a, `/api/v1/watches/${watch.id}`);
      const absent = await get(a, '/api/v1/watches/wat_0000000000000000000000');
      assert.deepEqual(hidden.body, absent.body);
    });

    it('A cannot change B’s watch, and B’s watch stays as it was', async () => {
      const { a, b, watch } = await strangers();
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: a,
        body: { name: 'Hijacked' },
      });
      assertError(res, 404, 'not_found');
      assert.deepEqual((await get(b, `/api/v1/watches/${watch.id}`)).body.data, watch);
    });

    it('A cannot delete B’s watch, and it stays active', async () => {
      const { a, b, watch } = await strangers();
      const res = await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: a });
      assertError(res, 404, 'not_found');
      assert.equal((await get(b, `/api/v1/watches/${watch.id}`)).body.data.active, true);
    });

    it('A’s watch list does not include B’s watches', async () => {
      const { a, watch } = await strangers();
      const mine = await createWatch(server, a);
      const ids = (await get(a, '/api/v1/watches')).body.data.map((w: { id: string }) => w.id);
      assert.deepEqual(ids, [mine.id]);
      assert.equal(ids.includes(watch.id), false);
      const filtered = await get(a, '/api/v1/watches?active=true');
      assert.equal(filtered.text.includes(watch.id), false);
    });

    it('A cannot read B’s alert: 404', async () => {
      const { a, alertId } = await strangers();
      assertError(await get(a, `/api/v1/alerts/${alertId}`), 404, 'not_found');
    });

    it('A cannot change the state of B’s alert, and it stays unread', async () => {
      const { a, b, alertId } = await strangers();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: a,
        body: { state: 'dismissed' },
      });
      assertError(res, 404, 'not_found');
      assert.equal((await get(b, `/api/v1/alerts/${alertId}`)).body.data.state, 'unread');
    });

    it('A’s alert list does not include B’s alerts, with or without filters', async () => {
      const { a, watch, alertId } = await strangers();
      for (const query of ['', '?state=unread', `?watchId=${watch.id}`, '?since=2000-01-01']) {
        const res = await get(a, `/api/v1/alerts${query}`);
        assert.equal(res.status, 200);
        assert.equal(res.text.includes(alertId), false, query);
        assert.deepEqual(res.body.data, []);
      }
    });

    it('a cursor gives no access to another owner’s rows', async () => {
      const { a, b } = await strangers();
      await createWatch(server, b);
      const bPage = await get(b, '/api/v1/watches?limit=1');
      const cursor = bPage.body.pagination.nextCursor;
      assert.ok(cursor);
      const res = await get(a, `/api/v1/watches?cursor=${cursor}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, []);
    });

    it('two keys of one user see the same watches', async () => {
      const first = await server.make.makeKey();
      const second = await server.make.makeKey({ userId: first.userId });
      const watch = await createWatch(server, first.auth);
      assert.equal((await get(second.auth, `/api/v1/watches/${watch.id}`)).status, 200);
    });

    it('a burst of reads by two owners: each sees its own watches and alerts, the other’s are 404', async () => {
      // Concurrent reads by id share one statement (owned-lookup.ts): visibility must hold per
      // request inside it.
      const one = await strangers();
      const two = await strangers();
      const reads = [
        { auth: one.b, path: `/api/v1/watches/${one.watch.id}`, id: one.watch.id },
        { auth: two.b, path: `/api/v1/watches/${two.watch.id}`, id: two.watch.id },
        { auth: one.b, path: `/api/v1/alerts/${one.alertId}`, id: one.alertId },
        { auth: two.b, path: `/api/v1/alerts/${two.alertId}`, id: two.alertId },
        { auth: one.b, path: `/api/v1/watches/${two.watch.id}`, id: null },
        { auth: two.b, path: `/api/v1/alerts/${one.alertId}`, id: null },
        { auth: one.a, path: `/api/v1/watches/${one.watch.id}`, id: null },
        { auth: two.a, path: `/api/v1/alerts/${two.alertId}`, id: null },
      ];
      const burst = [...reads, ...reads, ...reads];
      const answers = await Promise.all(burst.map((read) => get(read.auth, read.path)));
      for (const [i, res] of answers.entries()) {
        const expected = burst[i]?.id;
        if (expected) {
          assert.equal(res.status, 200, burst[i]?.path);
          assert.equal(res.body.data.id, expected);
        } else {
          assertError(res, 404, 'not_found');
        }
      }
    });
  });

  describe('organizations', () => {
    async function organization() {
      const org = await server.make.makeOrg({ tier: 'team' });
      const alice = await server.make.makeKey({ orgId: org.id });
      const bob = await server.make.makeKey({ orgId: org.id });
      return { org, alice, bob };
    }

    it('a member’s new watch is owned by the organization and visible to another member', async () => {
      const { org, alice, bob } = await organization();
      const watch = await createWatch(server, alice.auth);
      const owner = await server.db.query<{ owner_id: string }>(
        'SELECT owner_id FROM watches WHERE id = $1',
        [watch.id],
      );
      assert.equal(owner[0]?.owner_id, org.id);
      const read = await get(bob.auth, `/api/v1/watches/${watch.id}`);
      assert.deepEqual(read.body.data, watch);
      const list = await get(bob.auth, '/api/v1/watches');
      assert.deepEqual(
        list.body.data.map((w: { id: string }) => w.id),
        [watch.id],
      );
    });

    it('members may change and delete each other’s watches', async () => {
      const { alice, bob } = await organization();
      const watch = await createWatch(server, alice.auth);
      const patched = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: bob.auth,
        body: { name: 'Renamed by Bob' },
      });
      assert.equal(patched.status, 200);
      const deleted = await server.request('DELETE', `/api/v1/watches/${watch.id}`, {
        headers: bob.auth,
      });
      assert.equal(deleted.status, 200);
    });

    it('members share alerts: one member’s state change is what the other sees', async () => {
      const { alice, bob } = await organization();
      const watch = await createWatch(server, alice.auth);
      const alertId = await server.make.makeAlert(watch.id);
      const list = await get(bob.auth, '/api/v1/alerts');
      assert.deepEqual(
        list.body.data.map((x: { id: string }) => x.id),
        [alertId],
      );
      await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: bob.auth,
        body: { state: 'read' },
      });
      assert.equal((await get(alice.auth, `/api/v1/alerts/${alertId}`)).body.data.state, 'read');
    });

    it('an outsider gets 404 for the organization’s watches and alerts', async () => {
      const { alice } = await organization();
      const outsider = await server.make.makeKey();
      const watch = await createWatch(server, alice.auth);
      const alertId = await server.make.makeAlert(watch.id);
      assertError(await get(outsider.auth, `/api/v1/watches/${watch.id}`), 404, 'not_found');
      assertError(await get(outsider.auth, `/api/v1/alerts/${alertId}`), 404, 'not_found');
      assert.deepEqual((await get(outsider.auth, '/api/v1/watches')).body.data, []);
      assert.deepEqual(
        (await get(outsider.auth, `/api/v1/alerts?watchId=${watch.id}`)).body.data,
        [],
      );
    });

    it('a member of another organization gets 404 too', async () => {
      const first = await organization();
      const second = await organization();
      const watch = await createWatch(server, first.alice.auth);
      assertError(await get(second.alice.auth, `/api/v1/watches/${watch.id}`), 404, 'not_found');
    });
  });
});
