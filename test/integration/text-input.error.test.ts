import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createWatch, fieldErrors } from '../helpers/api.ts';
import {
  checkLogsAfterEach,
  startTestServer,
  type TestServer,
  validWatch,
} from '../helpers/server.ts';

// Text the database cannot store as sent (U+0000, unpaired surrogates), bytes that are not UTF-8
// and over-long ids are the client's mistakes: each is a 4xx naming what is wrong, never a 500,
// never a silently altered value, and never a stack trace or the key in a response or a log line.

describe('hostile text in API requests', () => {
  let server: TestServer;
  let key: string;
  let auth: { authorization: string };
  let watchId: string;
  before(async () => {
    server = await startTestServer({ captureLogs: true });
    const made = await server.make.makeKey({ tier: 'team' });
    key = made.key;
    auth = made.auth;
    watchId = (await createWatch(server, auth)).id;
  });
  after(() => server.close());

  checkLogsAfterEach(
    () => server,
    () => [key],
  );

  const send = (method: string, path: string, body?: unknown, headers = {}) =>
    server.request(method, path, { headers: { ...auth, ...headers }, body });

  const assertClean = (text: string) => {
    assert.doesNotMatch(text, /\bat .+\.(ts|js):\d+/, 'the response holds a stack trace');
    assert.equal(text.includes(key), false, 'the response holds the API key');
  };

  /** [rule, body, path that must be reported, words of the message]. */
  const CREATE_CASES: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'a name with an unpaired high surrogate is refused, not stored as U+FFFD',
      validWatch({ name: 'Ac\ud800me' }),
      'name',
      /unpaired surrogate/,
    ],
    [
      'a name that is a lone low surrogate is refused',
      validWatch({ name: '\udc00' }),
      'name',
      /unpaired surrogate/,
    ],
    [
      'a name with a control character inside is refused',
      validWatch({ name: 'Acme\u001b[2J' }),
      'name',
      /control characters/,
    ],
    [
      'a name with a NUL character names the character',
      validWatch({ name: 'A\u0000' }),
      'name',
      /NUL/,
    ],
    [
      'a name with a right-to-left override (U+202E) is refused',
      validWatch({ name: 'Acme\u202Egpj.exe' }),
      'name',
      /bidirectional controls/,
    ],
    [
      'a name with a bidi isolate (U+2067) is refused',
      validWatch({ name: '\u2067Acme' }),
      'name',
      /bidirectional controls/,
    ],
    [
      'a name with a line separator (U+2028) is refused',
      validWatch({ name: 'Acme\u2028Bcc: x' }),
      'name',
      /line separators/,
    ],
    [
      'a name with a paragraph separator (U+2029) is refused',
      validWatch({ name: 'Acme\u2029' + 'Corp' }),
      'name',
      /line separators/,
    ],
    [
      'a name of zero-width characters only is refused',
      validWatch({ name: '\u200B\u200C\u200D\u2060\uFEFF' }),
      'name',
      /visible character/,
    ],
    [
      'a name of combining marks and a zero-width space only is refused',
      validWatch({ name: '\u0301\u200B\u0308' }),
      'name',
      /visible character/,
    ],
  ];

  for (const [rule, body, path, message] of CREATE_CASES) {
    it(rule, async () => {
      const res = await send('POST', '/api/v1/watches', body);
      const errors = fieldErrors(res);
      assert.deepEqual(Object.keys(errors), [path], res.text);
      assert.match(errors[path]?.[0] ?? '', message);
      assertClean(res.text);
    });
  }

  it('a name with a zero-width joiner between visible letters is stored as sent', async () => {
    const watch = await createWatch(server, auth, { name: 'Ac\u200Dme' });
    assert.equal(watch.name, 'Ac\u200Dme');
  });

  it('a name with a paired surrogate (an emoji) is stored exactly as sent', async () => {
    const watch = await createWatch(server, auth, { name: 'Acme 😀' });
    assert.equal(watch.name, 'Acme 😀');
  });

  const PATCH_CASES: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'a PATCH name with an unpaired surrogate is refused',
      { name: 'x\udfff' },
      'name',
      /surrogate/,
    ],
    [
      'a logoUrl with an unpaired surrogate is refused, not stored as U+FFFD',
      { logoUrl: 'https://logos.test/\ud800.png' },
      'logoUrl',
      /surrogate/,
    ],
    [
      'a PATCH name of invisible characters only is refused',
      { name: '\u200B\u200B' },
      'name',
      /visible character/,
    ],
    [
      'a PATCH name with a right-to-left override is refused',
      { name: 'Ac\u202Eme' },
      'name',
      /bidirectional/,
    ],
    [
      'a logoUrl with a line break is refused',
      { logoUrl: 'https://logos.test/a\nb.png' },
      'logoUrl',
      /control characters/,
    ],
  ];

  for (const [rule, body, path, message] of PATCH_CASES) {
    it(rule, async () => {
      const res = await send('PATCH', `/api/v1/watches/${watchId}`, body);
      const errors = fieldErrors(res);
      assert.deepEqual(Object.keys(errors), [path], res.text);
      assert.match(errors[path]?.[0] ?? '', message);
      const unchanged = await send('GET', `/api/v1/watches/${watchId}`);
      assert.equal(unchanged.body.data.name, 'Acme');
      assert.equal(unchanged.body.data.logoUrl, null);
    });
  }

  it('a body that is not UTF-8 is a 400, not a name full of U+FFFD', async () => {
    const before = await send('GET', '/api/v1/watches?limit=200');
    const json = Buffer.from(JSON.stringify(validWatch({ name: 'Caf_' })));
    json[json.indexOf('_')] = 0xe9; // "é" in Latin-1: not UTF-8
    const res = await send('POST', '/api/v1/watches', new Blob([json]), {
      'content-type': 'application/json',
    });
    assertError(res, 400, 'validation_error');
    assert.match(res.body.error.message, /UTF-8/);
    const after = await send('GET', '/api/v1/watches?limit=200');
    assert.equal(after.body.data.length, before.body.data.length, 'nothing was created');
  });

  it('a __proto__ key is a 400 that says so, not "not valid JSON"', async () => {
    const res = await send(
      'POST',
      '/api/v1/watches',
      '{"__proto__":{"admin":true},"watchType":"trademark","name":"x","attributes":{"niceClasses":[9],"designations":["DE"]}}',
      { 'content-type': 'application/json' },
    );
    assertError(res, 400, 'validation_error');
    assert.match(res.body.error.message, /__proto__/);
  });

  const LONG_ID_CASES: [string, string][] = [
    ['GET', `/api/v1/watches/wat_${'a'.repeat(5000)}`],
    ['PATCH', `/api/v1/watches/wat_${'a'.repeat(5000)}`],
    ['DELETE', `/api/v1/watches/wat_${'a'.repeat(5000)}`],
    ['GET', `/api/v1/alerts/alt_${'a'.repeat(5000)}`],
    ['PATCH', `/api/v1/alerts/alt_${'a'.repeat(5000)}`],
  ];

  for (const [method, path] of LONG_ID_CASES) {
    it(`${method} with an id of 5000 characters is absent (404), not a 500`, async () => {
      const patch = path.includes('/alerts/') ? { state: 'read' } : {};
      const body = method === 'PATCH' ? patch : undefined;
      const res = await send(method, path, body);
      assertError(res, 404, 'not_found');
      assertClean(res.text);
    });
  }

  it('an over-long id still needs a key first (401 before 404)', async () => {
    const res = await server.request('GET', `/api/v1/watches/wat_${'a'.repeat(5000)}`);
    assertError(res, 401, 'unauthenticated');
  });
});
