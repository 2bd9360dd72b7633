import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PLANS } from '../../src/domain/plans.ts';
import { cadenceMessage, capMessage } from '../../src/domain/watches.ts';
import { DashboardClient, PASSWORD, signedIn, textOf } from '../helpers/dashboard.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

const watchForm = (overrides: Record<string, string> = {}) => ({
  name: 'Acme',
  niceClasses: '9, 42',
  designations: 'de, EU',
  scanCadence: 'weekly',
  ...overrides,
});

describe('dashboard: pages', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function watchIdsOf(userId: string): Promise<string[]> {
    const rows = await server.db.query<{ id: string }>(
      'SELECT id FROM watches WHERE created_by = $1 ORDER BY created_at',
      [userId],
    );
    return rows.map((row) => row.id);
  }

  it('signs in to the overview, which names the user and the plan', async () => {
    const user = await server.make.makeUser({ tier: 'solo', password: PASSWORD });
    const client = new DashboardClient(server);
    const response = await client.signIn(user.email, PASSWORD);
    assert.equal(response.status, 303);
    assert.equal(response.location, '/');
    const page = await client.get('/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(textOf(page.text).includes(user.email));
    assert.ok(textOf(page.text).includes('Solo plan'));
  });

  it('returns to the page that asked for sign-in', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const client = new DashboardClient(server);
    await client.get('/sign-in?next=%2Fwatches');
    const response = await client.post('/sign-in', {
      email: user.email,
      password: PASSWORD,
      next: '/watches',
    });
    assert.equal(response.location, '/watches');
  });

  it('never redirects after sign-in to another site', async () => {
    const user = await server.make.makeUser({ password: PASSWORD });
    const client = new DashboardClient(server);
    await client.get('/sign-in');
    const response = await client.post('/sign-in', {
      email: user.email,
      password: PASSWORD,
      next: '//evil.example/',
    });
    assert.equal(response.location, '/');
  });

  it('shows a minted key once, and the key works against the API', async () => {
    const { client, user } = await signedIn(server, { tier: 'team' });
    await client.get('/api-keys');
    const created = await client.post('/api-keys', {
      name: 'CI pipeline',
      scopes: ['watches:read', 'alerts:read'],
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const key = /id="new-key"[^>]*value="(tmw_[0-9A-Za-z]+)"/.exec(created.text)?.[1];
    assert.ok(key, 'the plaintext key is on the page');

    const me = await server.request('GET', '/api/v1/me', {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.id, user.id);
    assert.deepEqual(me.body.data.key.scopes, ['watches:read', 'alerts:read']);

    const list = await client.get('/api-keys');
    assert.ok(!list.text.includes(key), 'the plaintext is never shown again');
    assert.ok(list.text.includes(key.slice(0, 12)), 'the display prefix is listed');
    assert.ok(textOf(list.text).includes('CI pipeline'));
  });

  it('asks for a key name and at least one scope', async () => {
    const { client } = await signedIn(server, { tier: 'enterprise' });
    const response = await client.post('/api-keys', { name: '  ' });
    assert.equal(response.status, 422);
    assert.ok(textOf(response.text).includes('Enter a name for the key.'));
    assert.ok(textOf(response.text).includes('Choose at least one scope.'));
  });

  it('revokes a key without JavaScript, and the key is refused next', async () => {
    const { client, user } = await signedIn(server, { tier: 'team' });
    const key = await server.make.makeKey({ userId: user.id });
    await client.get('/api-keys');
    const response = await client.post(`/api-keys/${key.id}/revoke`);
    assert.equal(response.status, 303);
    assert.equal(response.location, '/api-keys?notice=key-revoked');
    assert.equal((await server.request('GET', '/api/v1/me', { headers: key.auth })).status, 401);
    assert.match(textOf((await client.get('/api-keys')).text), /Revoked/);
  });

  it('answers 404 when revoking another user’s key through the form', async () => {
    const { client } = await signedIn(server, { tier: 'team' });
    const other = await server.make.makeKey();
    const response = await client.post(`/api-keys/${other.id}/revoke`);
    assert.equal(response.status, 404);
    assert.equal((await server.request('GET', '/api/v1/me', { headers: other.auth })).status, 200);
  });

  it('does not let a solo user mint a key, and says why with a link to /pricing', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    const page = await client.get('/api-keys');
    assert.ok(textOf(page.text).includes('API keys are not part of your Solo plan'));
    assert.match(page.text, /href="\/pricing"/);
    assert.ok(!page.text.includes('action="/api-keys"'), 'no create form');

    const response = await client.post('/api-keys', { name: 'sneaky', scopes: 'watches:read' });
    assert.equal(response.status, 403);
    const keys = await server.db.query('SELECT 1 FROM api_keys WHERE user_id = $1', [user.id]);
    assert.equal(keys.length, 0);
  });

  it('creates a watch for a solo user and lists it with the plan’s cap and cadence', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.get('/watches/new');
    const response = await client.post('/watches', watchForm({ scanCadence: 'daily' }));
    assert.equal(response.status, 303);
    assert.equal(response.location, '/watches?notice=watch-created');
    const list = textOf((await client.get('/watches')).text);
    assert.ok(list.includes('Acme'));
    assert.ok(list.includes('9, 42'));
    assert.ok(list.includes('DE, EU'));
    assert.ok(list.includes('1 of 25'));
    assert.ok(list.includes('Fastest scans Daily'));
    assert.equal((await watchIdsOf(user.id)).length, 1);
  });

  it('shows the API’s own validation messages next to the fields', async () => {
    const key = await server.make.makeKey({ tier: 'team' });
    const api = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: validWatch({ name: '  ', attributes: { niceClasses: [99], designations: ['XX'] } }),
    });
    assert.equal(api.status, 422);
    const expected = Object.values(
      api.body.error.details.fieldErrors as Record<string, string[]>,
    ).flat();
    assert.ok(expected.length >= 3);

    const { client } = await signedIn(server, { tier: 'team' });
    const response = await client.post(
      '/watches',
      watchForm({ name: '  ', niceClasses: '99', designations: 'XX' }),
    );
    assert.equal(response.status, 422);
    const text = textOf(response.text);
    for (const message of expected) assert.ok(text.includes(message), `shows “${message}”`);
    assert.match(
      response.text,
      /id="watch-classes-errors"[^>]*>.*Nice classes run from 1 to 45\./s,
    );
    assert.match(response.text, /id="watch-classes"[^>]*aria-invalid="true"/);
    assert.ok(text.includes('“99”: Nice classes run from 1 to 45.'), 'names the entry typed');
  });

  it('shows the plan message and a link to /pricing for a cadence the plan does not allow', async () => {
    const { client } = await signedIn(server, { tier: 'free' });
    const response = await client.post('/watches', watchForm({ scanCadence: 'hourly' }));
    assert.equal(response.status, 402);
    assert.ok(textOf(response.text).includes(cadenceMessage(PLANS.free, 'hourly')));
    assert.match(response.text, /href="\/pricing"/);
  });

  it('shows the plan message when a free user reaches the cap of 3 watches', async () => {
    const { client } = await signedIn(server, { tier: 'free' });
    for (const name of ['One', 'Two', 'Three']) {
      assert.equal((await client.post('/watches', watchForm({ name }))).status, 303);
    }
    const response = await client.post('/watches', watchForm({ name: 'Four' }));
    assert.equal(response.status, 402);
    assert.ok(textOf(response.text).includes(capMessage(PLANS.free)));
    assert.match(response.text, /href="\/pricing"/);
    assert.ok(textOf((await client.get('/watches')).text).includes('3 of 3'));
  });

  it('edits a watch with the same rules as the API', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ scanCadence: 'daily' }));
    const [id] = await watchIdsOf(user.id);
    const form = await client.get(`/watches/${id}/edit`);
    assert.equal(form.status, 200);
    assert.match(form.text, /value="Acme"/);
    // Related classes are on by default, and the form says so.
    assert.match(form.text, /<option value="true" selected>/);

    const tooFast = await client.post(`/watches/${id}`, watchForm({ scanCadence: 'hourly' }));
    assert.equal(tooFast.status, 422, 'a PATCH with a too-fast cadence is a 422');
    assert.ok(textOf(tooFast.text).includes(cadenceMessage(PLANS.solo, 'hourly')));

    const saved = await client.post(
      `/watches/${id}`,
      watchForm({
        name: 'Acme Labs',
        niceClasses: '35',
        relatedClasses: 'false',
        logoUrl: 'https://acme.example/logo.png',
      }),
    );
    assert.equal(saved.status, 303);
    const json = JSON.parse(
      (
        await server.db.query<{ json: string }>(
          "SELECT json_build_object('name', name, 'attributes', attributes, 'logoUrl', logo_url)::text AS json FROM watches WHERE id = $1",
          [id],
        )
      )[0]?.json ?? '{}',
    );
    assert.deepEqual(json, {
      name: 'Acme Labs',
      attributes: { niceClasses: [35], designations: ['DE', 'EU'], relatedClasses: false },
      logoUrl: 'https://acme.example/logo.png',
    });
  });

  it('deactivates and restores a watch, and filters the list by status', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Zenith', scanCadence: 'daily' }));
    const [id] = await watchIdsOf(user.id);
    const off = await client.post(`/watches/${id}/deactivate`);
    assert.equal(off.location, '/watches?notice=watch-deactivated');
    assert.ok(!textOf((await client.get('/watches?status=active')).text).includes('Zenith'));
    assert.ok(textOf((await client.get('/watches?status=inactive')).text).includes('Zenith'));
    const on = await client.post(`/watches/${id}/restore`);
    assert.equal(on.location, '/watches?notice=watch-restored');
    assert.ok(textOf((await client.get('/watches?status=active')).text).includes('Zenith'));
  });

  it('refuses to restore a watch beyond the cap, with the plan message', async () => {
    const { client, user } = await signedIn(server, { tier: 'free' });
    for (const name of ['A', 'B', 'C']) await client.post('/watches', watchForm({ name }));
    const [first] = await watchIdsOf(user.id);
    await client.post(`/watches/${first}/deactivate`);
    await client.post('/watches', watchForm({ name: 'D' }));
    const response = await client.post(`/watches/${first}/restore`);
    assert.equal(response.location, '/watches?status=inactive&notice=cap-reached');
    const page = await client.get(response.location ?? '');
    assert.ok(textOf(page.text).includes(capMessage(PLANS.free)));
  });

  it('lists alerts with the hit’s fields and triages them, changing the unread badge', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Acme', scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(user.id);
    const first = await server.make.makeAlert(watchId, { markText: 'ACMEE' });
    await server.make.makeAlert(watchId, { markText: 'AKME' });

    const list = await client.get('/alerts');
    const text = textOf(list.text);
    for (const field of [
      'ACMEE',
      'AKME',
      'Acme Holdings Ltd (GB)',
      'EM',
      '9, 42',
      'filed',
      '1 Oct 2026',
    ]) {
      assert.ok(text.includes(field), `shows ${field}`);
    }
    assert.match(list.text, /data-unread-count="2"/);

    const read = await client.post(`/alerts/${first}/state`, {
      state: 'read',
      return: '/alerts?state=inbox',
    });
    assert.equal(read.status, 303);
    assert.equal(read.location, '/alerts?state=inbox');
    assert.match((await client.get('/alerts')).text, /data-unread-count="1"/);

    await client.post(`/alerts/${first}/state`, { state: 'dismissed', return: '/alerts' });
    assert.ok(!textOf((await client.get('/alerts?state=inbox')).text).includes('ACMEE'));
    assert.ok(textOf((await client.get('/alerts?state=dismissed')).text).includes('ACMEE'));

    await client.post(`/alerts/${first}/state`, { state: 'unread', return: '/alerts' });
    assert.match((await client.get('/')).text, /data-unread-count="2"/);
  });

  it('shows an alert’s detail page, the one the alert e-mail links to', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Orbit', scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(user.id);
    const alertId = await server.make.makeAlert(watchId, { markText: 'ORBYT' });
    const page = await client.get(`/alerts/${alertId}`);
    assert.equal(page.status, 200);
    const text = textOf(page.text);
    for (const field of [
      'ORBYT',
      'Orbit',
      'Acme Holdings Ltd',
      'global_trademark_database',
      alertId,
    ]) {
      assert.ok(text.includes(field), `shows ${field}`);
    }
  });

  it('says "not published by this source" for each field the record lacks, and links the office number', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Suveneer', scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(user.id);
    const alertId = await server.make.makeAlert(watchId, {
      externalId: 'US500000098763166',
      markText: 'SUVENEER',
      jurisdiction: 'US',
      ownerName: null,
      ownerCountryCode: null,
      status: null,
      classes: [],
    });
    const absent = (label: string) =>
      new RegExp(
        `<dt>${label}</dt><dd><span class="muted not-published">Not published by this source</span></dd>`,
      );
    const tsdr =
      /US serial <a class="mono" href="https:\/\/tsdr\.uspto\.gov\/#caseNumber=98763166&amp;[^"]*"[^>]*>98763166<\/a>/;

    const detail = (await client.get(`/alerts/${alertId}`)).text;
    // The USPTO's daily XML gives no expiry date, and an application no registration date.
    for (const label of [
      'Owner',
      'Owner’s country',
      'Nice classes',
      'Status',
      'Published for opposition',
      'Registered',
      'Expires',
    ]) {
      assert.match(detail, absent(label), `detail: ${label}`);
    }
    assert.doesNotMatch(detail, /—/, 'detail: no dash for an absent field');
    assert.match(detail, tsdr, 'detail: office number');

    const list = (await client.get('/alerts')).text;
    for (const label of ['Owner', 'Classes', 'Status']) {
      assert.match(list, absent(label), `list: ${label}`);
    }
    assert.match(list, tsdr, 'list: office number');

    const home = (await client.get('/')).text;
    assert.equal(home.match(/Not published by this source/g)?.length, 2, 'home: owner, classes');
    assert.match(home, tsdr, 'home: office number');
    for (const page of [detail, list, home]) assert.doesNotMatch(page, /\(XX\)|\(null\)|>null</);
  });

  it('shows the registration and expiry dates the source gives', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Python', scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(user.id);
    const alertId = await server.make.makeAlert(watchId, {
      markText: 'PYTHON',
      registeredAt: '2004-03-23T00:00:00.000Z',
      expiresAt: '2034-03-23T00:00:00.000Z',
    });
    const detail = (await client.get(`/alerts/${alertId}`)).text;
    assert.match(detail, /<dt>Registered<\/dt><dd><time datetime="2004-03-23T00:00:00.000Z">/);
    assert.match(detail, /<dt>Expires<\/dt><dd><time datetime="2034-03-23T00:00:00.000Z">/);
  });

  it('shows a CIPO record’s number as CIPO writes it, linked to the Canadian Trademarks Database', async () => {
    const { client, user } = await signedIn(server, { tier: 'solo' });
    await client.post('/watches', watchForm({ name: 'Visetos', scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(user.id);
    // The key the ST.96 reader gives a CIPO record: office and application number.
    const alertId = await server.make.makeAlert(watchId, {
      externalId: 'CA-1829192',
      markText: 'VISETOS',
      jurisdiction: 'CA',
    });
    const cipo =
      /CA application <a class="mono" href="https:\/\/ised-isde\.canada\.ca\/cipo\/trademark-search\/1829192"[^>]*>1829192<\/a>/;
    const pages = {
      detail: (await client.get(`/alerts/${alertId}`)).text,
      list: (await client.get('/alerts')).text,
      home: (await client.get('/')).text,
    };
    for (const [name, page] of Object.entries(pages)) {
      assert.match(page, cipo, `${name}: the number and its page`);
      assert.doesNotMatch(
        page,
        /<span class="mono">CA-1829192<\/span>/,
        `${name}: not the mirror key as the number`,
      );
    }
  });

  it('answers an HTML 404 for another user’s alert', async () => {
    const owner = await signedIn(server, { tier: 'solo' });
    await owner.client.post('/watches', watchForm({ scanCadence: 'daily' }));
    const [watchId = ''] = await watchIdsOf(owner.user.id);
    const alertId = await server.make.makeAlert(watchId);
    const { client } = await signedIn(server, { tier: 'solo' });
    const page = await client.get(`/alerts/${alertId}`);
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  });

  it("credits the offices on /about, for anyone, linked from every page's footer", async () => {
    const client = new DashboardClient(server);
    const page = await client.get('/about');
    assert.equal(page.status, 200);
    const text = textOf(page.text);
    assert.ok(
      text.includes(
        'Contains data licensed by Her Majesty the Queen in right of Canada, as represented by the Minister of Industry, the minister responsible for the administration of the Canadian Intellectual Property Office.',
      ),
    );
    assert.ok(
      text.includes(
        'Source of the EU trade mark data: the European Union Intellectual Property Office (EUIPO). The data is freely available from EUIPO',
      ),
    );
    assert.match(page.text, /href="https:\/\/euipo\.europa\.eu\/eSearch\/"/);
    const pricing = await client.get('/pricing');
    assert.match(pricing.text, /<footer[\s\S]*href="\/about"[\s\S]*<\/footer>/);
    assert.match(
      textOf(pricing.text),
      /register data from the USPTO, the EUIPO \(freely available at EUIPO eSearch\) and CIPO/,
    );
  });

  it('lists the four plans on /pricing, for anyone', async () => {
    const page = await new DashboardClient(server).get('/pricing');
    assert.equal(page.status, 200);
    const text = textOf(page.text);
    for (const plan of ['Free', 'Solo', 'Team', 'Enterprise']) assert.ok(text.includes(plan));
    assert.ok(text.includes('Up to 3'));
    assert.ok(text.includes('Up to 25'));
    assert.ok(text.includes('Up to 500'));
    assert.ok(text.includes('Unlimited'));
  });
});

describe('dashboard: alongside the API', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('sends security headers with a strict CSP on pages', async () => {
    const page = await new DashboardClient(server).get('/sign-in');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(page.headers.get('referrer-policy'), 'same-origin');
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  });

  it('leaves the API’s JSON responses and /docs without the dashboard’s CSP', async () => {
    const key = await server.make.makeKey();
    const me = await server.request('GET', '/api/v1/me', { headers: key.auth });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('content-security-policy'), null);
    const docs = await fetch(`${server.baseUrl}/docs`);
    assert.equal(docs.status, 200);
    assert.equal(docs.headers.get('content-security-policy'), null);
  });

  it('serves the stylesheet and script with a year-long cache', async () => {
    const page = await new DashboardClient(server).get('/sign-in');
    for (const [, url] of page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)) {
      const asset = await fetch(`${server.baseUrl}${url}`);
      assert.equal(asset.status, 200);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
  });

  it('answers unknown pages with an HTML 404 for browsers', async () => {
    const page = await new DashboardClient(server).get('/no-such-page');
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(textOf(page.text).includes('Page not found'));
  });

  it('keeps the API’s JSON 404 and 405, even for browsers', async () => {
    const notFound = await server.request('GET', '/api/v1/nope', {
      headers: { accept: 'text/html' },
    });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.error.code, 'not_found');
    const notAllowed = await server.request('PUT', '/api/v1/watches');
    assert.equal(notAllowed.status, 405);
    assert.equal(notAllowed.body.error.code, 'method_not_allowed');
  });

  it('keeps a form body out of the API (415)', async () => {
    const key = await server.make.makeKey();
    const response = await server.request('POST', '/api/v1/watches', {
      headers: { ...key.auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Acme',
    });
    assert.equal(response.status, 415);
  });

  it('keeps dashboard pages out of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    assert.ok(Object.keys(doc.paths).every((path) => path.startsWith('/api/v1/')));
  });
});
