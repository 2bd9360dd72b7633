// Every API answer is compact JSON, as JSON.stringify writes it. The resources' JSON is built by
// PostgreSQL, whose json_build_object writes `{"id" : "wat_…"}` and whose jsonb writes
// `{"niceClasses": [9]}`: without compaction the watch, webhook and alert answers looked unlike
// the rest. Text inside strings keeps its spaces, quotes and escapes exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactJson, copyCompactJson } from '../../src/json-text.ts';
import { type Auth, createWatch } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The answer's text is exactly JSON.stringify of what it parses to. */
function assertCompact(text: string, what: string) {
  assert.equal(text, JSON.stringify(JSON.parse(text)), `${what} is not compact JSON`);
}

describe('compact JSON', () => {
  it('removes whitespace between tokens and keeps strings byte for byte', () => {
    const value = {
      a: 'x : y , "z" \\ \t tab',
      b: [1, 2, { c: null, 'd e': ['ü €', '\u2028'] }],
      '"quoted" key': true,
    };
    const spaced = JSON.stringify(value, null, 2).replace(/": /g, '" : ');
    assert.equal(compactJson(spaced), JSON.stringify(value));
    const target = Buffer.alloc(64);
    const end = copyCompactJson(Buffer.from('[ "\\" " , 1 ]'), target, 3);
    assert.equal(target.toString('utf8', 3, end), '["\\" ",1]');
  });
});

describe('API answers are compact JSON', () => {
  let server: TestServer;
  let auth: Auth;
  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true });
    auth = (await server.make.makeKey({ tier: 'team' })).auth;
  });
  after(() => server.close());

  it('watches, webhooks and alerts: create, list, get, update and delete', async () => {
    const watch = await createWatch(server, auth, { name: 'Acme : "Tools"' });
    const alertId = await server.make.makeAlert(watch.id, {
      rawPayload: { note: 'a : b , c', nested: { list: [1, 2], none: null } },
    });
    const webhook = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: 'http://127.0.0.1:9/hook', events: ['alert.created'] },
    });
    assertCompact(webhook.text, 'POST /webhooks');
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/watches'],
      ['GET', `/api/v1/watches/${watch.id}`],
      ['PATCH', `/api/v1/watches/${watch.id}`, { name: 'Acme 2' }],
      ['GET', '/api/v1/alerts'],
      ['GET', `/api/v1/alerts/${alertId}`],
      ['PATCH', `/api/v1/alerts/${alertId}`, { state: 'read' }],
      ['GET', '/api/v1/webhooks'],
      ['GET', `/api/v1/webhooks/${webhook.body.data.id}`],
      ['GET', `/api/v1/webhooks/${webhook.body.data.id}/deliveries`],
      ['PATCH', `/api/v1/webhooks/${webhook.body.data.id}`, { description: 'a : b' }],
      ['DELETE', `/api/v1/webhooks/${webhook.body.data.id}`],
      ['DELETE', `/api/v1/watches/${watch.id}`],
    ];
    // Built compact by PostgreSQL, members in the order the API has always given them.
    const got = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
    assert.deepEqual(Object.keys(got.body.data), [
      'id',
      'watchType',
      'name',
      'attributes',
      'sources',
      'scanCadence',
      'active',
      'logoUrl',
      'logoSt13',
      'createdAt',
      'lastScannedAt',
      'mirrorCoveredUntil',
      'alertCounts',
    ]);
    assert.deepEqual(Object.keys(got.body.data.alertCounts), ['unread', 'read', 'dismissed']);
    for (const [method, path, body] of requests) {
      const res = await server.request(method, path, { headers: auth, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.text}`);
      assertCompact(res.text, `${method} ${path}`);
    }
  });
});
