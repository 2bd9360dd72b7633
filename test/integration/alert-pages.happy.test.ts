import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { createAlertListVersionLookup, setAlertState } from '../../src/data/repositories/alerts.ts';
import { markSent } from '../../src/data/repositories/outbox.ts';
import { createAlertService, type ListAlertsQuery } from '../../src/domain/alerts/service.ts';
import { alertListChanges, ownerWithAlerts } from '../helpers/alert-lists.ts';
import { type Auth, createWatch } from '../helpers/api.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// GET /alerts keeps the pages it has sent and answers a repeated request from memory while the
// owner's alert-list version (migration 007) is unchanged; the version is read from the database
// by every request. These tests hold the cache to "a request sees every write committed before it".

const FIRST_PAGE: ListAlertsQuery = { limit: 50 };

/**
 * A database wrapper that counts list queries (queryBytes) and other statements (query), and runs
 * `afterList` (if set) once a list query has read its rows, before they reach the caller.
 */
function counting(db: Db) {
  const counts = { statements: 0, lists: 0 };
  const hooks: { afterList?: () => Promise<void> } = {};
  // The app reads through the view with its statement deadline: that view is counted too.
  const wrap = (inner: Db): Db => ({
    kind: inner.kind,
    ping: () => inner.ping(),
    query: (text, params) => {
      counts.statements += 1;
      return inner.query(text, params);
    },
    queryBytes: async (text, params) => {
      counts.lists += 1;
      const rows = await inner.queryBytes(text, params);
      await hooks.afterList?.();
      return rows;
    },
    exec: (script) => inner.exec(script),
    copyFrom: (target, data) => inner.copyFrom(target, data),
    transaction: (fn) => inner.transaction(fn),
    withStatementTimeout: (ms) => wrap(inner.withStatementTimeout(ms)),
    close: () => inner.close(),
  });
  return { counts, hooks, db: wrap(db) };
}

type Page = { data: { id: string; state: string }[]; pagination: { nextCursor: string | null } };
const parse = (body: Buffer) => JSON.parse(body.toString()) as Page;

describe('alert pages: kept between requests, never stale', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());
  const owner = (alerts = 3) => ownerWithAlerts(database.db, alerts);

  it('a page asked for the first time is only read; from the second time on it is kept', async () => {
    const { principal } = await owner();
    const { counts, db } = counting(database.db);
    const alerts = createAlertService(db);
    const first = await alerts.listBody(principal, FIRST_PAGE);
    assert.deepEqual(counts, { statements: 0, lists: 1 }, 'first: the list query alone');
    const second = await alerts.listBody(principal, FIRST_PAGE);
    assert.deepEqual(counts, { statements: 1, lists: 2 }, 'second: version probe, list query');
    const third = await alerts.listBody(principal, FIRST_PAGE);
    assert.deepEqual(counts, { statements: 2, lists: 2 }, 'third: the version probe alone');
    assert.equal(second.toString(), first.toString());
    assert.equal(third.toString(), first.toString());
    assert.equal(parse(first).data.length, 3);
  });

  it('with the cache off (0 bytes) every request runs the list query, with the same body', async () => {
    const { principal } = await owner();
    const { counts, db } = counting(database.db);
    const cached = await createAlertService(database.db).listBody(principal, FIRST_PAGE);
    const alerts = createAlertService(db, { pageCacheBytes: 0 });
    const first = await alerts.listBody(principal, FIRST_PAGE);
    const again = await alerts.listBody(principal, FIRST_PAGE);
    assert.deepEqual(counts, { statements: 0, lists: 2 });
    assert.equal(first.toString(), cached.toString());
    assert.equal(again.toString(), cached.toString());
  });

  it('the version is read before the rows: a write committed in between is never hidden', async () => {
    const { principal, alertIds } = await owner(2);
    const { hooks, db } = counting(database.db);
    const alerts = createAlertService(db);
    const stateOf = async () =>
      parse(await alerts.listBody(principal, FIRST_PAGE)).data.find((a) => a.id === alertIds[0])
        ?.state;
    assert.equal(await stateOf(), 'unread', 'first request: only read');
    // The second request keeps the page; a write commits after its rows were read.
    hooks.afterList = async () => {
      hooks.afterList = undefined;
      await database.db.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [alertIds[0]]);
    };
    assert.equal(await stateOf(), 'unread', 'read before the write committed');
    assert.equal(await stateOf(), 'read', 'the kept page is older than the version now');
  });

  // Each query asked for twice, so that its page is kept: a key that left out any part of the
  // query would then hand one query's page to another.
  it('pages of different queries are kept apart: limit, cursor, state, watchId and since', async () => {
    const { principal, watchId, alertIds } = await owner(4);
    await setAlertState(database.db, principal.ownerId, alertIds[0] as string, 'read');
    const alerts = createAlertService(database.db);
    const pageOf = async (query: ListAlertsQuery) => {
      const first = await alerts.listBody(principal, query);
      const again = await alerts.listBody(principal, query);
      assert.equal(again.toString(), first.toString());
      return parse(first);
    };
    const all = await pageOf(FIRST_PAGE);
    assert.equal(all.data.length, 4);
    const two = await pageOf({ limit: 2 });
    assert.equal(two.data.length, 2);
    const cursor = two.pagination.nextCursor ?? undefined;
    assert.ok(cursor);
    const rest = await pageOf({ limit: 2, cursor });
    assert.deepEqual(
      [...two.data, ...rest.data].map((a) => a.id),
      all.data.map((a) => a.id),
    );
    assert.deepEqual(
      (await pageOf({ limit: 50, states: ['read'] })).data.map((a) => a.id),
      [alertIds[0]],
    );
    assert.equal((await pageOf({ limit: 50, states: ['unread'] })).data.length, 3);
    assert.equal((await pageOf({ limit: 50, states: ['unread', 'read'] })).data.length, 4);
    assert.equal((await pageOf({ limit: 50, states: ['read', 'unread'] })).data.length, 4);
    assert.equal((await pageOf({ limit: 50, watchId })).data.length, 4);
    assert.equal((await pageOf({ limit: 50, watchId: 'wat_other' })).data.length, 0);
    assert.equal((await pageOf({ limit: 50, since: '2999-01-01T00:00:00.000Z' })).data.length, 0);
    assert.equal((await pageOf({ limit: 50, since: '2000-01-01T00:00:00.000Z' })).data.length, 4);
  });

  it('two owners asking the same query each get their own page', async () => {
    const a = await owner(2);
    const b = await owner(2);
    const alerts = createAlertService(database.db);
    const idsOf = async (o: typeof a) =>
      parse(await alerts.listBody(o.principal, FIRST_PAGE))
        .data.map((x) => x.id)
        .sort();
    for (let round = 0; round < 3; round += 1) {
      assert.deepEqual(await idsOf(a), [...a.alertIds].sort());
      assert.deepEqual(await idsOf(b), [...b.alertIds].sort());
    }
  });

  it("a write through another process's service shows on this one's next request", async () => {
    const { principal, alertIds } = await owner(2);
    const here = createAlertService(database.db);
    const elsewhere = createAlertService(database.db);
    const id = alertIds[1] as string;
    const stateOf = async () =>
      parse(await here.listBody(principal, FIRST_PAGE)).data.find((x) => x.id === id)?.state;
    assert.equal(await stateOf(), 'unread');
    assert.equal(await stateOf(), 'unread', 'asked twice: the page is kept');
    await elsewhere.setState(principal, id, 'dismissed');
    assert.equal(await stateOf(), 'dismissed');
  });

  it('a PATCH to the state an alert already has keeps the kept page', async () => {
    const { principal, alertIds } = await owner(2);
    const { counts, db } = counting(database.db);
    const alerts = createAlertService(db);
    await alerts.listBody(principal, FIRST_PAGE);
    await alerts.listBody(principal, FIRST_PAGE);
    const lists = counts.lists;
    await alerts.setState(principal, alertIds[0] as string, 'unread');
    await alerts.listBody(principal, FIRST_PAGE);
    assert.equal(counts.lists, lists, 'answered from memory');
  });

  describe('the version of an owner’s alert list', () => {
    const versionOf = (ownerId: string) => createAlertListVersionLookup(database.db)(ownerId);

    it('is "none" before any alert of the owner was written', async () => {
      const user = await factories(database.db).makeUser();
      assert.equal(await versionOf(user.id), 'none');
      assert.equal(await alertListChanges(database.db, user.id), 0);
    });

    it('changes once per committed transaction, however many alerts it writes', async () => {
      const { principal, watchId, alertIds } = await owner(2);
      const start = await alertListChanges(database.db, principal.ownerId);
      const before = await versionOf(principal.ownerId);
      await database.db.transaction(async (tx) => {
        for (const id of alertIds) {
          await tx.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [id]);
        }
        await tx.query(`UPDATE alerts SET severity = 'low' WHERE owner_id = $1`, [
          principal.ownerId,
        ]);
      });
      assert.equal(await alertListChanges(database.db, principal.ownerId), start + 1);
      assert.notEqual(await versionOf(principal.ownerId), before);
      await factories(database.db).makeAlert(watchId);
      assert.equal(await alertListChanges(database.db, principal.ownerId), start + 2);
      await setAlertState(database.db, principal.ownerId, alertIds[0] as string, 'dismissed');
      assert.equal(await alertListChanges(database.db, principal.ownerId), start + 3);
    });

    it('does not change for an update that changes nothing', async () => {
      const { principal, alertIds } = await owner(1);
      const before = await versionOf(principal.ownerId);
      await database.db.query('UPDATE alerts SET state = state WHERE id = $1', [alertIds[0]]);
      await setAlertState(database.db, principal.ownerId, alertIds[0] as string, 'unread');
      assert.equal(await versionOf(principal.ownerId), before);
    });

    it('does not change for a transaction that rolls back', async () => {
      const { principal, alertIds } = await owner(1);
      const before = await versionOf(principal.ownerId);
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await tx.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [alertIds[0]]);
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      assert.equal(await versionOf(principal.ownerId), before);
    });

    it('changes for both owners when an alert moves from one to another, and on a delete', async () => {
      const a = await owner(2);
      const b = await owner(1);
      const a0 = await alertListChanges(database.db, a.principal.ownerId);
      const b0 = await alertListChanges(database.db, b.principal.ownerId);
      await database.db.query('UPDATE alerts SET owner_id = $2 WHERE id = $1', [
        a.alertIds[0],
        b.principal.ownerId,
      ]);
      assert.equal(await alertListChanges(database.db, a.principal.ownerId), a0 + 1);
      assert.equal(await alertListChanges(database.db, b.principal.ownerId), b0 + 1);
      await database.db.query('DELETE FROM alerts WHERE id = $1', [a.alertIds[1]]);
      assert.equal(await alertListChanges(database.db, a.principal.ownerId), a0 + 2);
    });

    it('changes for every owner a transaction writes alerts of', async () => {
      const a = await owner(1);
      const b = await owner(1);
      const a0 = await alertListChanges(database.db, a.principal.ownerId);
      const b0 = await alertListChanges(database.db, b.principal.ownerId);
      await database.db.transaction(async (tx) => {
        await tx.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [a.alertIds[0]]);
        await tx.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [b.alertIds[0]]);
      });
      assert.equal(await alertListChanges(database.db, a.principal.ownerId), a0 + 1);
      assert.equal(await alertListChanges(database.db, b.principal.ownerId), b0 + 1);
    });

    it('changes for writes under session_replication_role = replica (bulk loads)', async () => {
      const { principal, alertIds } = await owner(1);
      const start = await alertListChanges(database.db, principal.ownerId);
      await database.db.transaction(async (tx) => {
        await tx.query('SET LOCAL session_replication_role = replica');
        await tx.query(`UPDATE alerts SET state = 'read' WHERE id = $1`, [alertIds[0]]);
      });
      assert.equal(await alertListChanges(database.db, principal.ownerId), start + 1);
    });
  });
});

// TRUNCATE empties every owner's list at once: on a database of its own, as it takes everything.
describe('alert pages: TRUNCATE alerts', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it("changes every owner's version, and a kept page is not served after it", async () => {
    const a = await ownerWithAlerts(database.db, 2);
    const b = await ownerWithAlerts(database.db, 1);
    const alerts = createAlertService(database.db);
    for (let i = 0; i < 2; i += 1) {
      assert.equal(parse(await alerts.listBody(a.principal, FIRST_PAGE)).data.length, 2);
    }
    const b0 = await alertListChanges(database.db, b.principal.ownerId);
    await database.db.query('TRUNCATE alerts');
    assert.equal(parse(await alerts.listBody(a.principal, FIRST_PAGE)).data.length, 0);
    assert.equal(await alertListChanges(database.db, b.principal.ownerId), b0 + 1);
  });
});

// The same rule end to end: a client that has just read its first page sees each kind of write on
// its very next request.
describe('GET /alerts after each kind of write: the next request shows it', () => {
  let server: TestServer;
  let auth: Auth;
  let watchId: string;
  before(async () => {
    server = await startTestServer();
    const key = await server.make.makeKey();
    auth = key.auth;
    watchId = (await createWatch(server, auth)).id;
    await server.make.makeAlert(watchId);
  });
  after(() => server.close());

  type Listed = { id: string; state: string; emailedAt: string | null; severity: string | null };
  const list = async (query = '') => {
    const res = await server.request('GET', `/api/v1/alerts${query}`, { headers: auth });
    assert.equal(res.status, 200, res.text);
    return res.body.data as Listed[];
  };
  /** The page as it is now, asked for twice so that the server keeps it (page-cache.ts). */
  const kept = async (query = '') => {
    const first = await list(query);
    assert.deepEqual(await list(query), first);
    return first;
  };
  const find = (rows: Listed[], id: string) => rows.find((row) => row.id === id);

  it('a new alert (as a scan records it)', async () => {
    const before = await kept();
    const id = await server.make.makeAlert(watchId);
    const now = await list();
    assert.equal(now.length, before.length + 1);
    assert.equal(now[0]?.id, id);
  });

  it('a state change through PATCH /alerts/{id}', async () => {
    const [first] = await kept();
    assert.ok(first);
    const other = first.state === 'read' ? 'dismissed' : 'read';
    await kept(`?state=${other}`);
    const res = await server.request('PATCH', `/api/v1/alerts/${first.id}`, {
      headers: auth,
      body: { state: other },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(find(await list(), first.id)?.state, res.body.data.state);
    assert.equal(find(await list(`?state=${res.body.data.state}`), first.id)?.id, first.id);
  });

  it('the e-mail sender setting emailedAt', async () => {
    const id = await server.make.makeAlert(watchId);
    assert.equal(find(await kept(), id)?.emailedAt, null);
    await server.db.transaction((tx) => markSent(tx, 'eml_none', [id]));
    assert.match(find(await list(), id)?.emailedAt ?? '', /^\d{4}-/);
  });

  it('any other statement on the alerts table', async () => {
    const id = await server.make.makeAlert(watchId);
    assert.equal(find(await kept(), id)?.severity, 'medium');
    await server.db.query(`UPDATE alerts SET severity = 'high' WHERE id = $1`, [id]);
    assert.equal(find(await list(), id)?.severity, 'high');
  });
});
