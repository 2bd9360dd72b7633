import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Auth, compareListOrder, createWatch, walkPages } from '../helpers/api.ts';
import { seedWatches } from '../helpers/seed.ts';
import { type ApiResponse, startTestServer, type TestServer } from '../helpers/server.ts';

// (createdAt desc, id desc), keyset cursors, default 50, clamp at 200.

type Row = { id: string; createdAt: string };

describe('pagination', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** A key whose owner has `count` watches, a third of them sharing one createdAt. */
  async function ownerWith(count: number, options: { active?: boolean } = {}) {
    const key = await server.make.makeKey();
    const owner = { ownerId: key.userId, createdBy: key.userId, active: options.active };
    const ties = Math.floor(count / 3);
    await seedWatches(server.db, { ...owner, count: count - ties });
    await seedWatches(server.db, { ...owner, count: ties, createdAt: '2026-01-15T08:00:00.000Z' });
    return key;
  }

  /** Every watch of the owner, in the order the API promises, straight from the database. */
  async function expectedWatches(ownerId: string): Promise<Row[]> {
    const rows = await server.db.query<Row>(
      'SELECT id, iso_ms(created_at) AS "createdAt" FROM watches WHERE owner_id = $1',
      [ownerId],
    );
    return rows.sort(compareListOrder);
  }

  const page = async (auth: Auth, query: string) => {
    const res = await server.request('GET', `/api/v1/watches${query}`, { headers: auth });
    assert.equal(res.status, 200, res.text);
    return res.body as { data: Row[]; pagination: { nextCursor: string | null; limit: number } };
  };

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  describe('page size', () => {
    it('the default page size is 50', async () => {
      const { auth } = await ownerWith(51);
      const first = await page(auth, '');
      assert.equal(first.data.length, 50);
      assert.equal(first.pagination.limit, 50);
      assert.equal(typeof first.pagination.nextCursor, 'string');
      const second = await page(auth, `?cursor=${first.pagination.nextCursor}`);
      assert.equal(second.data.length, 1);
      assert.equal(second.pagination.nextCursor, null);
    });

    it('a limit above 200 is clamped to 200 and pagination.limit says so', async () => {
      const { auth } = await ownerWith(205);
      const res = await page(auth, '?limit=1000');
      assert.equal(res.data.length, 200);
      assert.equal(res.pagination.limit, 200);
      assert.notEqual(res.pagination.nextCursor, null);
    });

    it('a limit of exactly 200 is used as given', async () => {
      const { auth } = await ownerWith(201);
      const res = await page(auth, '?limit=200');
      assert.equal(res.data.length, 200);
      assert.equal(res.pagination.limit, 200);
    });

    it('pagination.limit echoes the limit in effect', async () => {
      const { auth } = await ownerWith(3);
      assert.equal((await page(auth, '?limit=7')).pagination.limit, 7);
      assert.equal((await page(auth, '?limit=1')).pagination.limit, 1);
    });

    it('a page that ends exactly at the last row has nextCursor null', async () => {
      const { auth } = await ownerWith(10);
      const res = await page(auth, '?limit=10');
      assert.equal(res.data.length, 10);
      assert.equal(res.pagination.nextCursor, null);
    });

    it('alerts default to 50 and clamp at 200 too', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      for (let i = 0; i < 51; i++) await server.make.makeAlert(watch.id);
      const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
      assert.equal(res.body.data.length, 50);
      assert.equal(res.body.pagination.limit, 50);
      const clamped = await server.request('GET', '/api/v1/alerts?limit=201', { headers: auth });
      assert.equal(clamped.body.data.length, 51);
      assert.equal(clamped.body.pagination.limit, 200);
    });
  });

  describe('walking pages', () => {
    it('walking every page returns each watch exactly once, newest first then id descending', async () => {
      const { auth, userId } = await ownerWith(75);
      const walked = await walkPages(server, auth, '/api/v1/watches?limit=7');
      assert.equal(walked.length, 75);
      assert.equal(new Set(ids(walked)).size, 75);
      assert.deepEqual(ids(walked), ids(await expectedWatches(userId)));
    });

    it('a page boundary inside a run of equal createdAt loses and repeats nothing', async () => {
      const key = await server.make.makeKey();
      await seedWatches(server.db, {
        ownerId: key.userId,
        createdBy: key.userId,
        count: 20,
        createdAt: '2026-02-01T00:00:00.000Z',
      });
      const walked = await walkPages(server, key.auth, '/api/v1/watches?limit=3');
      assert.equal(new Set(ids(walked)).size, 20);
      assert.deepEqual(ids(walked), [...ids(walked)].sort().reverse());
    });

    it('watches created between page requests never make a page repeat or skip a row', async () => {
      const { auth, userId } = await ownerWith(30);
      const before = ids(await expectedWatches(userId));
      const first = await page(auth, '?limit=10');
      const created = [await createWatch(server, auth), await createWatch(server, auth)];
      const rest = await walkPages(
        server,
        auth,
        `/api/v1/watches?limit=10&cursor=${first.pagination.nextCursor}`,
      );
      assert.deepEqual([...ids(first.data), ...ids(rest)], before);
      const fresh = await walkPages(server, auth, '/api/v1/watches?limit=10');
      assert.deepEqual(ids(fresh).slice(2), before);
      assert.deepEqual(ids(fresh).slice(0, 2).sort(), created.map((w) => w.id).sort());
    });

    it('rows leaving a filter between pages do not shift the next page', async () => {
      const { auth, userId } = await ownerWith(20);
      const before = ids(await expectedWatches(userId));
      const first = await page(auth, '?active=true&limit=5');
      for (const id of ids(first.data)) {
        await server.request('DELETE', `/api/v1/watches/${id}`, { headers: auth });
      }
      const rest = await walkPages(
        server,
        auth,
        `/api/v1/watches?active=true&limit=5&cursor=${first.pagination.nextCursor}`,
      );
      assert.deepEqual(ids(rest), before.slice(5));
    });

    it('a filter holds on every page: active=false over mixed rows', async () => {
      const key = await server.make.makeKey();
      const owner = { ownerId: key.userId, createdBy: key.userId };
      await seedWatches(server.db, { ...owner, count: 13, active: true });
      const inactive = await seedWatches(server.db, { ...owner, count: 11, active: false });
      const walked = await walkPages(server, key.auth, '/api/v1/watches?active=false&limit=4');
      assert.deepEqual(ids(walked).sort(), [...inactive].sort());
      assert.ok(walked.every((w) => w.active === false));
    });

    it('the watchType filter combines with cursors', async () => {
      const { auth } = await ownerWith(9);
      const walked = await walkPages(server, auth, '/api/v1/watches?watchType=trademark&limit=2');
      assert.equal(walked.length, 9);
    });
  });

  describe('alert pages', () => {
    async function alertsOwner() {
      const { auth } = await server.make.makeKey();
      const a = await createWatch(server, auth, { name: 'A' });
      const b = await createWatch(server, auth, { name: 'B' });
      const all: { id: string; watchId: string; state: string; at: string }[] = [];
      for (let i = 0; i < 24; i++) {
        const watchId = i % 2 === 0 ? a.id : b.id;
        const id = await server.make.makeAlert(watchId);
        // Days 1–6, four alerts a day: ties on createdAt across page boundaries.
        const at = `2026-06-0${1 + (i % 6)}T00:00:00.000Z`;
        await server.db.query('UPDATE alerts SET created_at = $2 WHERE id = $1', [id, at]);
        const state = (['unread', 'read', 'dismissed'] as const)[i % 3] as string;
        if (state !== 'unread') {
          await server.request('PATCH', `/api/v1/alerts/${id}`, { headers: auth, body: { state } });
        }
        all.push({ id, watchId, state, at });
      }
      return { auth, a, all };
    }

    it('walking alert pages returns each alert once in (createdAt, id) descending order', async () => {
      const { auth, all } = await alertsOwner();
      const walked = await walkPages(server, auth, '/api/v1/alerts?limit=5');
      assert.equal(walked.length, all.length);
      assert.equal(new Set(ids(walked)).size, all.length);
      assert.deepEqual(
        ids(walked),
        ids(walked.map(({ id, createdAt }) => ({ id, createdAt })).sort(compareListOrder)),
      );
    });

    it('state, watchId and since filters hold across pages', async () => {
      const { auth, a, all } = await alertsOwner();
      const walked = await walkPages(
        server,
        auth,
        `/api/v1/alerts?limit=2&state=read&state=unread&watchId=${a.id}&since=2026-06-02`,
      );
      const expected = all.filter(
        (x) => x.watchId === a.id && x.state !== 'dismissed' && x.at >= '2026-06-02T00:00:00.000Z',
      );
      assert.ok(expected.length > 2, 'the filter leaves more than one page');
      assert.deepEqual(ids(walked).sort(), ids(expected).sort());
    });

    it('concurrent lists of two owners, with every filter and cursor: each gets what it gets alone', async () => {
      // Lists of one shape asked for together share one statement (createAlertListLookup): no
      // row may go to the wrong list, out of order, or be lost.
      const one = await alertsOwner();
      const two = await alertsOwner();
      const cursorOf = async (auth: Auth, query: string) =>
        (await server.request('GET', `/api/v1/alerts${query}`, { headers: auth })).body.pagination
          .nextCursor as string;
      const queries = async (owner: typeof one) => [
        '?limit=5',
        '?limit=7',
        '?state=read',
        '?state=read&state=dismissed&limit=3',
        `?watchId=${owner.a.id}&limit=4`,
        '?since=2026-06-03&limit=6',
        `?limit=5&cursor=${await cursorOf(owner.auth, '?limit=5')}`,
        `?limit=2&state=unread&cursor=${await cursorOf(owner.auth, '?limit=2&state=unread')}`,
      ];
      const requests = [
        ...(await queries(one)).map((query) => ({ auth: one.auth, query })),
        ...(await queries(two)).map((query) => ({ auth: two.auth, query })),
      ];
      const get = (r: { auth: Auth; query: string }) =>
        server.request('GET', `/api/v1/alerts${r.query}`, { headers: r.auth });
      const alone: ApiResponse[] = [];
      for (const r of requests) alone.push(await get(r));
      const together = await Promise.all([...requests, ...requests].map(get));
      for (const [i, res] of together.entries()) {
        const expected = alone[i % requests.length];
        assert.equal(res.status, 200, res.text);
        assert.ok((expected?.body.data.length ?? 0) > 0, requests[i % requests.length]?.query);
        assert.deepEqual(res.body, expected?.body, requests[i % requests.length]?.query);
      }
    });

    it('alerts raised between page requests never make a page repeat or skip a row', async () => {
      const { auth, a, all } = await alertsOwner();
      const first = await server.request('GET', '/api/v1/alerts?limit=6', { headers: auth });
      await server.make.makeAlert(a.id);
      const rest = await walkPages(
        server,
        auth,
        `/api/v1/alerts?limit=6&cursor=${first.body.pagination.nextCursor}`,
      );
      const walked = [...ids(first.body.data), ...ids(rest)];
      assert.equal(new Set(walked).size, walked.length);
      assert.deepEqual([...walked].sort(), all.map((x) => x.id).sort());
    });
  });
});
