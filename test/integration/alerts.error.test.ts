import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createWatch, fieldErrors } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The alert PATCH takes `state` and nothing else; bad filters are 400.

describe('alerts: errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function alertFixture() {
    const { auth } = await server.make.makeKey();
    const watch = await createWatch(server, auth);
    const alertId = await server.make.makeAlert(watch.id);
    return { auth, watch, alertId };
  }

  describe('PATCH /alerts/{id}', () => {
    it('a field besides state is a 422 whose details.field names it', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: { state: 'read', note: 'seen it' },
      });
      const errors = fieldErrors(res);
      assert.equal(res.body.error.details.field, 'note');
      assert.ok('note' in errors);
    });

    it('a body with only another field names that field, not the missing state', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: { severity: 'high' },
      });
      assertError(res, 422, 'validation_error');
      assert.equal(res.body.error.details.field, 'severity');
    });

    it('a server-assigned field such as id is refused like any other', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: { state: 'read', id: alertId },
      });
      assertError(res, 422, 'validation_error');
      assert.equal(res.body.error.details.field, 'id');
    });

    for (const state of ['archived', 'READ', '', null, 1]) {
      it(`state ${JSON.stringify(state)} is a 422 validation_error on state`, async () => {
        const { auth, alertId } = await alertFixture();
        const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
          headers: auth,
          body: { state },
        });
        assert.ok('state' in fieldErrors(res));
        assert.equal(res.body.error.details.field, 'state');
      });
    }

    it('an empty object is a 422: state is required', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: {},
      });
      assert.ok('state' in fieldErrors(res));
    });

    it('a refused PATCH leaves the state as it was', async () => {
      const { auth, alertId } = await alertFixture();
      await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: { state: 'read', extra: true },
      });
      const read = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
      assert.equal(read.body.data.state, 'unread');
    });

    it('malformed JSON is a 400 validation_error', async () => {
      const { auth, alertId } = await alertFixture();
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"state": read}',
      });
      assertError(res, 400, 'validation_error');
    });

    it('an absent alert is a 404 (after the body is validated)', async () => {
      const { auth } = await server.make.makeKey();
      const valid = await server.request('PATCH', '/api/v1/alerts/alt_0000000000000000000000', {
        headers: auth,
        body: { state: 'read' },
      });
      assertError(valid, 404, 'not_found');
      const invalid = await server.request('PATCH', '/api/v1/alerts/alt_0000000000000000000000', {
        headers: auth,
        body: { state: 'gone' },
      });
      assertError(invalid, 422, 'validation_error');
    });
  });

  describe('absent alerts', () => {
    for (const id of [
      'alt_0000000000000000000000',
      'nonsense',
      '%00',
      'wat_0000000000000000000000',
    ]) {
      it(`GET and PATCH of ${id} are 404`, async () => {
        const { auth } = await server.make.makeKey();
        assertError(
          await server.request('GET', `/api/v1/alerts/${id}`, { headers: auth }),
          404,
          'not_found',
        );
        assertError(
          await server.request('PATCH', `/api/v1/alerts/${id}`, {
            headers: auth,
            body: { state: 'read' },
          }),
          404,
          'not_found',
        );
      });
    }

    it('a watch id is not an alert id', async () => {
      const { auth, watch } = await alertFixture();
      assertError(
        await server.request('GET', `/api/v1/alerts/${watch.id}`, { headers: auth }),
        404,
        'not_found',
      );
    });
  });

  describe('GET /alerts query', () => {
    const BAD: [string, string, string][] = [
      ['an unknown state', 'state=archived', 'state'],
      ['an unknown state among good ones', 'state=read&state=archived', 'state'],
      ['a since that is not a date', 'since=yesterday', 'since'],
      ['an empty since', 'since=', 'since'],
      ['a since on an impossible day', 'since=2026-02-30', 'since'],
      ['a since in month 13', 'since=2026-13-01', 'since'],
      ['a since at hour 25', 'since=2026-03-01T25:00:00Z', 'since'],
      ['a since in US notation', 'since=03%2F01%2F2026', 'since'],
      ['a since given as a Unix time', 'since=1767225600', 'since'],
      ['a since given twice', 'since=2026-01-01&since=2026-02-01', 'since'],
    ];
    for (const [what, query, path] of BAD) {
      it(`${what} is a 400 validation_error naming ${path}`, async () => {
        const { auth } = await server.make.makeKey();
        const res = await server.request('GET', `/api/v1/alerts?${query}`, { headers: auth });
        assertError(res, 400, 'validation_error');
        assert.ok(path in res.body.error.details.fieldErrors, res.text);
      });
    }
  });
});
