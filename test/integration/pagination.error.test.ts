import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// a bad limit, cursor or filter value on a list is a 400 validation_error naming the
// parameter; unknown parameters are ignored.

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const BAD_LIMITS = ['0', '-1', '1.5', 'abc', '', '1e3', '%2B5', '0x10'];

const BAD_CURSORS: [string, string][] = [
  ['punctuation', '!!!'],
  ['base64 that is not JSON', 'bm90IGpzb24'],
  ['base64 of an object', cursorOf({ createdAt: '2026-01-01T00:00:00.000Z', id: 'wat_a' })],
  ['base64 of a three-element array', cursorOf(['2026-01-01T00:00:00.000Z', 'wat_a', 1])],
  ['a position without milliseconds', cursorOf(['2026-01-01T00:00:00Z', 'wat_a'])],
  ['a position with a non-id', cursorOf(['2026-01-01T00:00:00.000Z', "x'; DROP TABLE watches"])],
  ['a position on February 30', cursorOf(['2026-02-30T00:00:00.000Z', 'wat_a'])],
  ['a position in year 0', cursorOf(['0000-01-01T00:00:00.000Z', 'wat_a'])],
  ['a position at hour 24', cursorOf(['2026-01-01T24:00:00.000Z', 'wat_a'])],
  ['an overlong cursor', 'A'.repeat(500)],
];

describe('pagination: malformed queries', () => {
  let server: TestServer;
  let auth: { authorization: string };
  before(async () => {
    server = await startTestServer();
    auth = (await server.make.makeKey()).auth;
  });
  after(() => server.close());

  const expect400 = async (path: string, param: string) => {
    const res = await server.request('GET', path, { headers: auth });
    assertError(res, 400, 'validation_error');
    assert.ok(param in res.body.error.details.fieldErrors, res.text);
  };

  for (const list of ['watches', 'alerts']) {
    for (const limit of BAD_LIMITS) {
      it(`GET /${list}?limit=${limit} is 400 naming limit`, async () => {
        await expect400(`/api/v1/${list}?limit=${limit}`, 'limit');
      });
    }

    it(`GET /${list} with limit given twice is 400`, async () => {
      await expect400(`/api/v1/${list}?limit=5&limit=6`, 'limit');
    });

    for (const [what, cursor] of BAD_CURSORS) {
      it(`GET /${list} with a cursor that is ${what} is 400 naming cursor`, async () => {
        await expect400(`/api/v1/${list}?cursor=${encodeURIComponent(cursor)}`, 'cursor');
      });
    }

    it(`GET /${list} ignores unknown parameters`, async () => {
      const res = await server.request('GET', `/api/v1/${list}?page=2&sort=name`, {
        headers: auth,
      });
      assert.equal(res.status, 200);
    });
  }

  for (const active of ['yes', '1', 'TRUE', '']) {
    it(`GET /watches?active=${active} is 400 naming active`, async () => {
      await expect400(`/api/v1/watches?active=${active}`, 'active');
    });
  }

  for (const watchType of ['domain', 'TRADEMARK', '']) {
    it(`GET /watches?watchType=${watchType} is 400 naming watchType`, async () => {
      await expect400(`/api/v1/watches?watchType=${watchType}`, 'watchType');
    });
  }

  it('a query error is reported before visibility: it is a 400 whatever the key can see', async () => {
    const { auth: stranger } = await server.make.makeKey();
    const res = await server.request('GET', '/api/v1/alerts?watchId=wat_x&state=nope', {
      headers: stranger,
    });
    assertError(res, 400, 'validation_error');
  });
});
