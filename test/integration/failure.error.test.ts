import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A throwaway server whose alerts table is dropped: every alert query then fails inside
// PostgreSQL, a real unhandled error on a real route, and the 500 must say nothing about it.

describe('unhandled server errors', () => {
  let server: TestServer;
  let auth: { authorization: string };
  before(async () => {
    server = await startTestServer();
    auth = (await server.make.makeKey()).auth;
    await server.db.exec('DROP TABLE alerts');
  });
  after(() => server.close());

  it('an unhandled error is a 500 internal with a generic message', async () => {
    const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
    assertError(res, 500, 'internal');
    assert.doesNotMatch(res.body.error.message, /alerts|relation|exist|sql|select/i);
  });

  it('a 500 body has no stack trace, SQL or driver detail', async () => {
    const res = await server.request('GET', '/api/v1/alerts/alt_anything', { headers: auth });
    assert.equal(res.status, 500);
    assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message']);
    assert.doesNotMatch(res.text, /\bat \S+ \(|\.ts:\d+|node_modules|SELECT|relation "alerts"/);
  });

  it('a 500 carries an X-Request-Id, the caller’s own when it sent one', async () => {
    const res = await server.request('GET', '/api/v1/alerts', {
      headers: { ...auth, 'x-request-id': 'trace-500-check' },
    });
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('x-request-id'), 'trace-500-check');
  });

  it('a 500 still carries the rate-limit headers', async () => {
    const res = await server.request('GET', '/api/v1/alerts', { headers: auth });
    assert.equal(res.status, 500);
    assert.ok(res.headers.get('x-ratelimit-limit'));
    assert.ok(res.headers.get('x-ratelimit-remaining'));
  });

  it('routes the failure does not touch keep answering', async () => {
    // Not /watches: a watch counts its alerts (alertCounts).
    const res = await server.request('GET', '/api/v1/me', { headers: auth });
    assert.equal(res.status, 200);
  });
});
