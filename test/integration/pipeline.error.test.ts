import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertError, createWatch } from '../helpers/api.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// The request pipeline (docs/architecture.md): routing, then authentication, then tier and scope, then the body,
// then the schema, then visibility. Each test pins one step or the order of two of them.

const ONE_MIB = 1024 * 1024;
const json = { 'content-type': 'application/json' };

/** A JSON body of exactly `size` bytes: a valid watch padded through its name. */
function paddedBody(size: number): string {
  const empty = JSON.stringify(validWatch({ name: '' }));
  const body = JSON.stringify(validWatch({ name: 'x'.repeat(size - empty.length) }));
  assert.equal(Buffer.byteLength(body), size);
  return body;
}

describe('request pipeline: routing, bodies, precedence and the error envelope', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('routing (pipeline step 1)', () => {
    it('an unknown path under /api/v1 is 404 not_found without any Authorization header', async () => {
      const res = await server.request('GET', '/api/v1/nothing-here');
      assertError(res, 404, 'not_found');
    });

    it('an unknown path is 404 even with a bad key (routing precedes authentication)', async () => {
      const res = await server.request('POST', '/api/v1/nothing-here', {
        headers: { authorization: 'Bearer nope' },
        body: '{not json',
      });
      assertError(res, 404, 'not_found');
    });

    it('a path one segment deeper than a route is 404', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('GET', '/api/v1/watches/wat_x/alerts', { headers: auth });
      assertError(res, 404, 'not_found');
    });

    it('a path that cannot be percent-decoded is 404 with the error envelope', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('GET', '/api/v1/watches/%ZZ', { headers: auth });
      assertError(res, 404, 'not_found');
      assert.ok(res.headers.get('x-request-id'));
    });

    const allowed: [method: string, path: string, allow: string[]][] = [
      ['PUT', '/api/v1/watches', ['GET', 'HEAD', 'POST']],
      ['DELETE', '/api/v1/watches', ['GET', 'HEAD', 'POST']],
      ['POST', '/api/v1/watches/wat_x', ['GET', 'HEAD', 'PATCH', 'DELETE']],
      ['PUT', '/api/v1/watches/wat_x', ['GET', 'HEAD', 'PATCH', 'DELETE']],
      ['POST', '/api/v1/alerts', ['GET', 'HEAD']],
      ['DELETE', '/api/v1/alerts/alt_x', ['GET', 'HEAD', 'PATCH']],
      ['POST', '/api/v1/me', ['GET', 'HEAD']],
    ];
    for (const [method, path, allow] of allowed) {
      it(`${method} ${path} is 405 with Allow: ${allow.join(', ')}, without a key`, async () => {
        const res = await server.request(method, path);
        assertError(res, 405, 'method_not_allowed');
        const header = res.headers.get('allow') ?? '';
        assert.deepEqual(
          header
            .split(',')
            .map((m) => m.trim())
            .sort(),
          [...allow].sort(),
        );
      });
    }

    it('405 precedes authentication: an unsupported method with a bad key is still 405', async () => {
      const res = await server.request('PUT', '/api/v1/watches', {
        headers: { authorization: 'Basic abc' },
      });
      assertError(res, 405, 'method_not_allowed');
    });

    it('HEAD is served wherever GET is', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('HEAD', '/api/v1/watches', { headers: auth });
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
    });
  });

  describe('bodies (pipeline step 6)', () => {
    it('a text/plain body is 415 unsupported_media_type', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, 'content-type': 'text/plain' },
        body: JSON.stringify(validWatch()),
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('a body without any Content-Type is 415', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: new Blob([JSON.stringify(validWatch())]),
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('a form-encoded body is 415', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'watchType=trademark&name=Acme',
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('a text/plain PATCH of a watch is 415', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: { ...auth, 'content-type': 'text/plain' },
        body: '{"name":"New"}',
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('a text/plain PATCH of an alert is 415', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const alertId = await server.make.makeAlert(watch.id);
      const res = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: { ...auth, 'content-type': 'text/plain' },
        body: '{"state":"read"}',
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('an empty application/json body is 400 validation_error', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
      });
      assertError(res, 400, 'validation_error');
    });

    it('a POST with no body and no Content-Type is 400 validation_error', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', { headers: auth });
      assertError(res, 400, 'validation_error');
    });

    it('a PATCH with no body is 400 validation_error', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, { headers: auth });
      assertError(res, 400, 'validation_error');
    });

    it('malformed JSON is 400 validation_error', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
        body: '{"watchType": "trademark",',
      });
      assertError(res, 400, 'validation_error');
    });

    it('a body over 1 MiB is 413 payload_too_large', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
        body: paddedBody(ONE_MIB + 1),
      });
      assertError(res, 413, 'payload_too_large');
    });

    it('a body of exactly 1 MiB is read (its oversized name is a 422, not a 413)', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
        body: paddedBody(ONE_MIB),
      });
      assertError(res, 422, 'validation_error');
    });

    it('application/json with a charset parameter is accepted', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(validWatch()),
      });
      assert.equal(res.status, 201, res.text);
    });
  });

  describe('precedence', () => {
    it('a bad key with a bad body is 401 (authentication precedes the body)', async () => {
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { authorization: 'Bearer tmw_unknown', ...json },
        body: '{bad',
      });
      assertError(res, 401, 'unauthenticated');
    });

    it('a missing key with a text/plain body is 401, not 415', async () => {
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      assertError(res, 401, 'unauthenticated');
    });

    it('a missing key with an oversized body is 401, not 413', async () => {
      const res = await server.request('POST', '/api/v1/watches', {
        headers: json,
        body: paddedBody(ONE_MIB + 1),
      });
      assertError(res, 401, 'unauthenticated');
    });

    it('a wrong scope with malformed JSON is 403 (scope precedes the body)', async () => {
      const { auth } = await server.make.makeKey({ scopes: ['watches:read'] });
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
        body: '{bad',
      });
      assertError(res, 403, 'forbidden');
    });

    it('a wrong scope with a text/plain body is 403, not 415', async () => {
      const { auth } = await server.make.makeKey({ scopes: ['watches:read'] });
      const res = await server.request('PATCH', '/api/v1/watches/wat_x', {
        headers: { ...auth, 'content-type': 'text/plain' },
        body: 'x',
      });
      assertError(res, 403, 'forbidden');
    });

    it('a Free-tier key with an invalid body is 403 (tier precedes the body)', async () => {
      const { auth } = await server.make.makeKey({ tier: 'free' });
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: { nonsense: true },
      });
      assertError(res, 403, 'forbidden');
    });

    it('text/plain with malformed content is 415, not 400 (media type before parsing)', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, 'content-type': 'text/plain' },
        body: '{bad',
      });
      assertError(res, 415, 'unsupported_media_type');
    });

    it('malformed JSON is 400, not 422 (parsing before the schema)', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, ...json },
        body: '{"name": }',
      });
      assertError(res, 400, 'validation_error');
    });

    it('an invalid body for an absent watch is 422, not 404 (schema before visibility)', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('PATCH', '/api/v1/watches/wat_doesNotExist', {
        headers: auth,
        body: { watchType: 'trademark' },
      });
      assertError(res, 422, 'validation_error');
    });

    it('a valid body for an absent watch is 404', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('PATCH', '/api/v1/watches/wat_doesNotExist', {
        headers: auth,
        body: { name: 'Fine' },
      });
      assertError(res, 404, 'not_found');
    });
  });

  describe('envelope and request id', () => {
    it('every kind of error answers { error: { code, message } } and no data', async () => {
      const { auth } = await server.make.makeKey();
      const { auth: readOnly } = await server.make.makeKey({ scopes: ['watches:read'] });
      const cases: [number, string, Promise<Awaited<ReturnType<TestServer['request']>>>][] = [
        [401, 'unauthenticated', server.request('GET', '/api/v1/watches')],
        [403, 'forbidden', server.request('POST', '/api/v1/watches', { headers: readOnly })],
        [404, 'not_found', server.request('GET', '/api/v1/watches/wat_none', { headers: auth })],
        [405, 'method_not_allowed', server.request('PUT', '/api/v1/me')],
        [
          415,
          'unsupported_media_type',
          server.request('POST', '/api/v1/watches', { headers: auth, body: 'x' }),
        ],
        [
          400,
          'validation_error',
          server.request('POST', '/api/v1/watches', { headers: { ...auth, ...json }, body: '[' }),
        ],
        [
          422,
          'validation_error',
          server.request('POST', '/api/v1/watches', { headers: auth, body: {} }),
        ],
        [
          400,
          'validation_error',
          server.request('GET', '/api/v1/watches?limit=0', { headers: auth }),
        ],
      ];
      for (const [status, code, pending] of cases) {
        const res = await pending;
        assertError(res, status, code);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(res.body.error.upgradeUrl, undefined, 'upgradeUrl only on a 402');
      }
    });

    // Rejected by Node's HTTP parser, before Fastify has a request: still the envelope.
    it('a request Node cannot parse answers the envelope: 431 for oversized headers, 400 for a bad request line', async () => {
      const raw = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const url = new URL(server.baseUrl);
          const socket = connect(Number(url.port), url.hostname, () => socket.end(text));
          let answer = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk) => {
            answer += chunk;
          });
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
        });
      const parse = (answer: string) => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) };
      };
      const huge = parse(
        await raw(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      );
      assert.equal(huge.status, 431);
      assert.deepEqual(Object.keys(huge.body), ['error']);
      assert.equal(huge.body.error.code, 'headers_too_large');
      assert.match(huge.head, /content-type: application\/json/i);
      assert.match(huge.head, /x-request-id: req_[0-9a-f]{32}/i);
      const garbage = parse(await raw('NOT HTTP AT ALL\r\n\r\n'));
      assert.equal(garbage.status, 400);
      assert.equal(garbage.body.error.code, 'validation_error');
      assert.equal(typeof garbage.body.error.message, 'string');
    });

    it('a success body carries data and no error key', async () => {
      const { auth } = await server.make.makeKey();
      const created = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: validWatch(),
      });
      const list = await server.request('GET', '/api/v1/watches', { headers: auth });
      const me = await server.request('GET', '/api/v1/me', { headers: auth });
      for (const res of [created, list, me]) {
        assert.ok('data' in res.body);
        assert.equal('error' in res.body, false);
      }
    });

    it('every response carries an X-Request-Id, errors included', async () => {
      const { auth } = await server.make.makeKey();
      const responses = [
        await server.request('GET', '/api/v1/watches', { headers: auth }),
        await server.request('GET', '/api/v1/watches'),
        await server.request('GET', '/api/v1/nowhere'),
        await server.request('PUT', '/api/v1/watches'),
      ];
      for (const res of responses) assert.match(res.headers.get('x-request-id') ?? '', /^\S+$/);
    });

    it('a well-formed incoming X-Request-Id is echoed back', async () => {
      const res = await server.request('GET', '/api/v1/nowhere', {
        headers: { 'x-request-id': 'client-req.42' },
      });
      assert.equal(res.headers.get('x-request-id'), 'client-req.42');
    });

    it('an incoming X-Request-Id unsafe to log is replaced', async () => {
      const res = await server.request('GET', '/api/v1/nowhere', {
        headers: { 'x-request-id': 'bad id <script>' },
      });
      const id = res.headers.get('x-request-id') ?? '';
      assert.notEqual(id, 'bad id <script>');
      assert.match(id, /^req_[0-9a-f]+$/);
    });
  });
});
