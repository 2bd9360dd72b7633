import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../../src/domain/sessions.ts';
import { SIGN_IN_THROTTLE } from '../../src/domain/sign-in.ts';
import { cookieOptions } from '../../src/http/cookies.ts';
import {
  DashboardClient,
  manualClock,
  PASSWORD,
  sessionApiHeaders,
  signedIn,
  textOf,
} from '../helpers/dashboard.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MINUTE = 60_000;

describe('dashboard: sessions', () => {
  let server: TestServer;
  const clock = manualClock();
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, without Secure over plain http', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const client = new DashboardClient(server);
    await client.get('/sign-in');
    const response = await client.post('/sign-in', { email: user.email, password: PASSWORD });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tmw_session='));
    assert.ok(cookie, 'a session cookie is set');
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, new RegExp(`; Max-Age=${SESSION_LIFETIME_MS / 1000}`));
    assert.doesNotMatch(cookie, /; Secure/);
  });

  it('marks cookies Secure when the request came over https', () => {
    assert.equal(cookieOptions(true, 60).secure, true);
    assert.equal(cookieOptions(false, 60).secure, false);
  });

  it('stores only the SHA-256 of the session token', async () => {
    const { client, user } = await signedIn(server);
    const token = client.sessionToken ?? '';
    const rows = await server.db.query<Record<string, unknown>>(
      'SELECT * FROM dashboard_sessions WHERE user_id = $1',
      [user.id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.token_hash, sha256(token));
    assert.ok(!JSON.stringify(rows).includes(token), 'the token itself is not stored');
  });

  it('issues a new session token at sign-in and retires the one the browser came with', async () => {
    const { client, user } = await signedIn(server);
    const before = client.sessionToken ?? '';
    const stale = new DashboardClient(server);
    stale.cookies.set('tmw_session', before);

    // The sign-in form of another tab, submitted while the browser still holds a live session.
    client.cookies.delete('tmw_session');
    await client.get('/sign-in');
    client.cookies.set('tmw_session', before);
    assert.equal(
      (await client.post('/sign-in', { email: user.email, password: PASSWORD })).status,
      303,
    );
    assert.ok(client.sessionToken);
    assert.notEqual(client.sessionToken, before);
    const replay = await stale.get('/');
    assert.equal(replay.status, 303);
    assert.equal(replay.location, '/sign-in');
  });

  it('does not adopt a session token planted before sign-in', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const planted = 'A'.repeat(43);
    const client = new DashboardClient(server);
    client.cookies.set('tmw_session', planted);
    await client.signIn(user.email, PASSWORD);
    assert.notEqual(client.sessionToken, planted);
    assert.equal((await client.get('/')).status, 200);
  });

  it('sign-out deletes the session: the old cookie no longer opens a page', async () => {
    const { client, user } = await signedIn(server);
    const token = client.sessionToken ?? '';
    const out = await client.post('/sign-out');
    assert.equal(out.status, 303);
    assert.equal(out.location, '/sign-in?notice=signed-out');
    assert.equal(client.sessionToken, undefined, 'the cookie is cleared');
    const rows = await server.db.query('SELECT 1 FROM dashboard_sessions WHERE user_id = $1', [
      user.id,
    ]);
    assert.equal(rows.length, 0);
    const replay = new DashboardClient(server);
    replay.cookies.set('tmw_session', token);
    assert.equal((await replay.get('/alerts')).status, 303);
  });

  it('ends a session left idle for longer than the idle timeout', async () => {
    const { client } = await signedIn(server);
    clock.advance(SESSION_IDLE_MS - MINUTE);
    assert.equal((await client.get('/')).status, 200, 'still alive just before the timeout');
    clock.advance(SESSION_IDLE_MS + MINUTE);
    const response = await client.get('/watches');
    assert.equal(response.status, 303);
    assert.equal(response.location, '/sign-in?next=%2Fwatches');
  });

  it('ends a session at its absolute lifetime however busy it is', async () => {
    const { client } = await signedIn(server);
    const step = SESSION_IDLE_MS / 2;
    for (let elapsed = step; elapsed < SESSION_LIFETIME_MS - step; elapsed += step) {
      clock.advance(step);
      assert.equal((await client.get('/')).status, 200);
    }
    clock.advance(2 * step);
    assert.equal((await client.get('/')).status, 303);
  });

  it('sends anonymous visitors of a private page to sign in, remembering only the path', async () => {
    const client = new DashboardClient(server);
    const response = await client.get('/alerts/alt_123?state=unread');
    assert.equal(response.status, 303);
    assert.equal(response.location, '/sign-in?next=%2Falerts%2Falt_123');
  });

  it('says the same thing for a wrong password and an unknown e-mail', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const wrongPassword = await new DashboardClient(server).signIn(user.email, 'not the password');
    const unknownEmail = await new DashboardClient(server).signIn('nobody@example.test', PASSWORD);
    assert.equal(wrongPassword.status, 401);
    assert.equal(unknownEmail.status, 401);
    const message = 'The e-mail address or password is incorrect.';
    assert.ok(textOf(wrongPassword.text).includes(message));
    assert.ok(textOf(unknownEmail.text).includes(message));
    assert.ok(!(wrongPassword.headers.get('set-cookie') ?? '').includes('tmw_session'));
  });
});

describe('dashboard: CSRF', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const watchForm = { name: 'Acme', niceClasses: '9', designations: 'DE', scanCadence: 'daily' };

  it('accepts a same-origin form with the session’s token', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm);
    assert.equal(response.status, 303);
  });

  it('refuses a form without the CSRF token', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', { ...watchForm, _csrf: '' });
    assert.equal(response.status, 403);
    assert.match(textOf(response.text), /did not come from this dashboard/);
  });

  it('refuses a form carrying another session’s token', async () => {
    const { client } = await signedIn(server);
    const other = await signedIn(server);
    const response = await client.post('/watches', { ...watchForm, _csrf: other.client.csrf });
    assert.equal(response.status, 403);
  });

  it('refuses a cross-site Origin even with the right token', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm, {
      origin: 'https://evil.example',
    });
    assert.equal(response.status, 403);
    assert.match(textOf(response.text), /came from another site/);
  });

  it('refuses another origin on the same host (another port)', async () => {
    const { client } = await signedIn(server);
    const url = new URL(server.baseUrl);
    url.port = String(Number(url.port) + 1);
    const response = await client.post('/watches', watchForm, { origin: url.origin });
    assert.equal(response.status, 403);
  });

  it('refuses a request the browser labels cross-site (Sec-Fetch-Site)', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(response.status, 403);
  });

  it('refuses a state change with neither Origin nor Referer', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm, { origin: null });
    assert.equal(response.status, 403);
  });

  it('accepts a same-origin Referer when Origin is absent', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm, {
      origin: null,
      headers: { referer: `${server.baseUrl}/watches/new` },
    });
    assert.equal(response.status, 303);
  });

  it('refuses `Origin: null`', async () => {
    const { client } = await signedIn(server);
    const response = await client.post('/watches', watchForm, { origin: 'null' });
    assert.equal(response.status, 403);
  });

  it('refuses a sign-in form without the sign-in page’s token (login CSRF)', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const client = new DashboardClient(server);
    await client.get('/sign-in');
    const response = await client.post('/sign-in', {
      email: user.email,
      password: PASSWORD,
      _csrf: 'forged',
    });
    assert.equal(response.status, 403);
    assert.equal(client.sessionToken, undefined);
  });

  it('refuses a cross-site sign-in form', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const client = new DashboardClient(server);
    await client.get('/sign-in');
    const response = await client.post(
      '/sign-in',
      { email: user.email, password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    assert.equal(response.status, 403);
    assert.equal(client.sessionToken, undefined);
  });
});

describe('dashboard: sign-in throttling', () => {
  let server: TestServer;
  const clock = manualClock();
  // Behind a trusted proxy the client address is X-Forwarded-For: each test plays several clients.
  before(async () => {
    server = await startTestServer({ clock, app: { trustProxy: true } });
  });
  after(() => server.close());

  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  async function signInFrom(address: string, email: string, password: string) {
    const client = new DashboardClient(server);
    await client.get('/sign-in', from(address).headers);
    const response = await client.post('/sign-in', { email, password }, from(address));
    return { response, client };
  }
  const nextWindow = () => clock.advance(SIGN_IN_THROTTLE.windowMs + MINUTE);

  it('after 5 failures of one account from one address, that address waits, even with the right password', async () => {
    nextWindow();
    const user = await server.make.makeUser({ password: PASSWORD });
    for (let i = 0; i < SIGN_IN_THROTTLE.perPair; i++) {
      const { response } = await signInFrom('203.0.113.9', user.email, `wrong ${i}`);
      assert.equal(response.status, 401);
    }
    const { response: refused, client } = await signInFrom(
      '203.0.113.9',
      user.email.toUpperCase(),
      PASSWORD,
    );
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '30');
    assert.match(
      textOf(refused.text),
      /Too many failed sign-in attempts\. Try again in 30 seconds/,
    );
    assert.equal(client.sessionToken, undefined);

    clock.advance(31_000);
    const { response: allowed } = await signInFrom('203.0.113.9', user.email, PASSWORD);
    assert.equal(allowed.status, 303);
  });

  it('each further failure doubles the wait', async () => {
    nextWindow();
    const user = await server.make.makeUser({ password: PASSWORD });
    for (let i = 0; i < SIGN_IN_THROTTLE.perPair; i++) {
      await signInFrom('203.0.113.10', user.email, 'wrong');
    }
    const waits: string[] = [];
    for (let round = 0; round < 3; round++) {
      const { response } = await signInFrom('203.0.113.10', user.email, 'wrong');
      assert.equal(response.status, 429);
      const wait = response.headers.get('retry-after') ?? '';
      waits.push(wait);
      clock.advance(Number(wait) * 1000);
      assert.equal((await signInFrom('203.0.113.10', user.email, 'wrong')).response.status, 401);
    }
    assert.deepEqual(waits, ['30', '60', '120']);
  });

  it("an attacker's failures from another address never lock the owner out", async () => {
    nextWindow();
    const victim = await server.make.makeUser({ password: PASSWORD });
    for (let i = 0; i < 12; i++) {
      clock.advance(1_000);
      await signInFrom('198.51.100.66', victim.email, `guess ${i}`);
    }
    const { response, client } = await signInFrom('192.0.2.10', victim.email, PASSWORD);
    assert.equal(response.status, 303);
    assert.ok(client.sessionToken);
  });

  it('20 failures across accounts from one office address do not lock out a colleague there', async () => {
    nextWindow();
    for (let i = 0; i < 20; i++) {
      const { response } = await signInFrom('192.0.2.50', `guess-${i}@example.test`, 'wrong');
      assert.equal(response.status, 401);
    }
    const colleague = await server.make.makeUser({ password: PASSWORD });
    assert.equal((await signInFrom('192.0.2.50', colleague.email, PASSWORD)).response.status, 303);
  });

  it('one password tried against many accounts from one address is slowed past the address limit', async () => {
    nextWindow();
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) {
      await signInFrom('192.0.2.77', `spray-${i}@example.test`, 'Summer2026!');
    }
    const { response } = await signInFrom('192.0.2.77', 'spray-last@example.test', 'Summer2026!');
    assert.equal(response.status, 429);
    const user = await server.make.makeUser({ password: PASSWORD });
    assert.equal((await signInFrom('192.0.2.78', user.email, PASSWORD)).response.status, 303);
  });

  it('keeps the failure log in the database, without e-mails or addresses', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    await signInFrom('203.0.113.99', user.email, 'wrong');
    const rows = await server.db.query<{ bucket: string }>('SELECT bucket FROM sign_in_failures');
    assert.ok(rows.length >= 2);
    const text = JSON.stringify(rows);
    assert.ok(!text.includes(user.email) && !text.includes('203.0.113.99'));
    assert.ok(rows.every((row) => /^(pair|address):[0-9a-f]{64}$/.test(row.bucket)));
  });
});

describe('dashboard behind a TLS proxy (TRUST_PROXY)', () => {
  it('cookies are Secure when a trusted proxy says the client used https, and only then', async () => {
    for (const trustProxy of [true, false]) {
      const server = await startTestServer({ app: { trustProxy } });
      try {
        const response = await fetch(`${server.baseUrl}/sign-in`, {
          headers: { 'x-forwarded-proto': 'https', accept: 'text/html' },
        });
        const cookie = response.headers.get('set-cookie') ?? '';
        assert.match(cookie, /tmw_presession=/);
        assert.equal(/;\s*Secure/i.test(cookie), trustProxy, cookie);
      } finally {
        await server.close();
      }
    }
  });
});

describe('DELETE /api/v1/api-keys/{id}', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function sessionWithKey() {
    const signed = await signedIn(server);
    const key = await server.make.makeKey({ userId: signed.user.id });
    return { ...signed, key, headers: sessionApiHeaders(server, signed.client) };
  }

  it('refuses a Bearer key alone with 401 unauthenticated', async () => {
    const key = await server.make.makeKey();
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, {
      headers: key.auth,
    });
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'unauthenticated');
    assert.equal((await server.request('GET', '/api/v1/me', { headers: key.auth })).status, 200);
  });

  it('revokes the caller’s key: 200 with the key, and the key is refused next', async () => {
    const { key, headers } = await sessionWithKey();
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, { headers });
    assert.equal(response.status, 200);
    const data = response.body.data;
    assert.deepEqual(Object.keys(data).sort(), [
      'createdAt',
      'id',
      'name',
      'prefix',
      'revokedAt',
      'scopes',
    ]);
    assert.equal(data.id, key.id);
    assert.equal(data.name, key.name);
    assert.equal(data.prefix, key.prefix);
    assert.deepEqual(data.scopes, key.scopes);
    assert.equal(data.createdAt, key.createdAt);
    assert.match(data.revokedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const me = await server.request('GET', '/api/v1/me', { headers: key.auth });
    assert.equal(me.status, 401);
  });

  it('answers 200 for a key already revoked, keeping the first revocation time', async () => {
    const { key, headers } = await sessionWithKey();
    const first = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, { headers });
    const second = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, { headers });
    assert.equal(second.status, 200);
    assert.equal(second.body.data.revokedAt, first.body.data.revokedAt);
  });

  it('answers 404 for another user’s key, and leaves it working', async () => {
    const { headers } = await sessionWithKey();
    const other = await server.make.makeKey();
    const response = await server.request('DELETE', `/api/v1/api-keys/${other.id}`, { headers });
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'not_found');
    assert.equal((await server.request('GET', '/api/v1/me', { headers: other.auth })).status, 200);
  });

  it('answers 404 for a key that does not exist', async () => {
    const { headers } = await sessionWithKey();
    const response = await server.request('DELETE', '/api/v1/api-keys/key_nope', { headers });
    assert.equal(response.status, 404);
  });

  it('refuses a request without the X-CSRF-Token header (403 forbidden)', async () => {
    const { key, headers } = await sessionWithKey();
    const { 'x-csrf-token': _, ...withoutToken } = headers;
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, {
      headers: withoutToken,
    });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'forbidden');
    assert.equal((await server.request('GET', '/api/v1/me', { headers: key.auth })).status, 200);
  });

  it('refuses a wrong CSRF token (403 forbidden)', async () => {
    const { key, headers } = await sessionWithKey();
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, {
      headers: { ...headers, 'x-csrf-token': 'x'.repeat(43) },
    });
    assert.equal(response.status, 403);
  });

  it('refuses a cross-site request even with the session and token (403 forbidden)', async () => {
    const { key, headers } = await sessionWithKey();
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, {
      headers: { ...headers, origin: 'https://evil.example' },
    });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'forbidden');
    assert.equal((await server.request('GET', '/api/v1/me', { headers: key.auth })).status, 200);
  });

  it('refuses an expired or signed-out session with 401', async () => {
    const { client, key, headers } = await sessionWithKey();
    await client.post('/sign-out');
    const response = await server.request('DELETE', `/api/v1/api-keys/${key.id}`, { headers });
    assert.equal(response.status, 401);
  });

  it('keeps the API’s 405 for other methods on the path', async () => {
    const response = await server.request('GET', '/api/v1/api-keys/key_x');
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'DELETE');
    assert.equal(response.body.error.code, 'method_not_allowed');
  });

  it('is documented in the OpenAPI document with the session-cookie scheme', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security: unknown; responses: object }>>;
      components: { securitySchemes: Record<string, { type: string; in: string }> };
    };
    const operation = doc.paths['/api/v1/api-keys/{id}']?.delete;
    assert.ok(operation);
    assert.deepEqual(operation.security, [{ sessionCookie: [] }]);
    for (const status of ['200', '401', '403', '404']) {
      assert.ok(status in operation.responses, `documents ${status}`);
    }
    assert.equal(doc.components.securitySchemes.sessionCookie?.in, 'cookie');
  });
});

describe('DELETE /api/v1/api-keys/{id}: rate limit', () => {
  it('counts each signed-in request against the user’s limit: headers, then 429 with Retry-After', async () => {
    // A clock that stands still: the three requests fall in one rate-limit minute.
    const server = await startTestServer({ clock: manualClock(), rateLimitPerMinute: 2 });
    try {
      const signed = await signedIn(server);
      const key = await server.make.makeKey({ userId: signed.user.id });
      const headers = sessionApiHeaders(server, signed.client);
      const path = `/api/v1/api-keys/${key.id}`;
      const first = await server.request('DELETE', path, { headers });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers.get('x-ratelimit-limit'), '2');
      assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
      assert.equal((await server.request('DELETE', path, { headers })).status, 200);
      const third = await server.request('DELETE', path, { headers });
      assert.equal(third.status, 429, third.text);
      assert.equal(third.body.error.code, 'rate_limited');
      assert.match(third.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    } finally {
      await server.close();
    }
  });
});
