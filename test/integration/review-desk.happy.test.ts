import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedIn, textOf } from '../helpers/dashboard.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// The review desk's rules at the HTTP level (the browser suite drives the same pages):
// bulk triage is PATCH's rule with its events, all or none; notes and filters refuse bad input
// with a message, never a 500.
describe('review desk', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true });
  });

  after(async () => {
    await server?.close();
  });

  /** A signed-in team user with a key, a watch and a webhook endpoint subscribed to alert.updated. */
  async function desk() {
    const { user, client } = await signedIn(server, { tier: 'team' });
    const key = await server.make.makeKey({ userId: user.id });
    const watch = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: validWatch({ name: 'Acme' }),
    });
    const hook = await server.request('POST', '/api/v1/webhooks', {
      headers: key.auth,
      body: { url: 'http://127.0.0.1:9/hook', events: ['alert.updated'] },
    });
    assert.equal(hook.status, 201);
    return { user, client, key, watchId: watch.body.data.id as string };
  }

  const updatedEvents = async (alertIds: string[]) =>
    (
      await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries
          WHERE event_type = 'alert.updated' AND body::jsonb #>> '{data,id}' = ANY($1::text[])`,
        [alertIds],
      )
    )[0]?.n ?? 0;

  it('marks many alerts as PATCH would, with one alert.updated event per real change', async () => {
    const { client, key, watchId } = await desk();
    const a = await server.make.makeAlert(watchId, { markText: 'AAA' });
    const b = await server.make.makeAlert(watchId, { markText: 'BBB' });
    await server.request('PATCH', `/api/v1/alerts/${b}`, {
      headers: key.auth,
      body: { state: 'read' },
    });
    assert.equal(await updatedEvents([a, b]), 1);

    const response = await client.post('/alerts/bulk', {
      ids: [a, b, 'alt_doesnotexist', 'not-an-id'],
      state: 'read',
      return: '/alerts?state=unread&severity=medium',
    });
    assert.equal(response.status, 303);
    assert.equal(response.location, '/alerts?state=unread&severity=medium&marked=read&count=2');
    const page = await client.get(response.location ?? '');
    assert.ok(textOf(page.text).includes('2 alerts marked read'));
    for (const id of [a, b]) {
      const alert = await server.request('GET', `/api/v1/alerts/${id}`, { headers: key.auth });
      assert.equal(alert.body.data.state, 'read');
    }
    // a changed (one event); b was read already: no event, as with PATCH.
    assert.equal(await updatedEvents([a, b]), 2);
  });

  it('changes nothing when one alert of the batch cannot change (one transaction)', async () => {
    const { client, key, watchId } = await desk();
    const a = await server.make.makeAlert(watchId, { markText: 'FIRST' });
    const b = await server.make.makeAlert(watchId, { markText: 'SECOND' });
    // A real database failure on the second alert's update.
    await server.db.exec(`
      CREATE FUNCTION review_desk_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
      CREATE TRIGGER review_desk_fail BEFORE UPDATE ON alerts FOR EACH ROW
        WHEN (NEW.id = '${b}') EXECUTE FUNCTION review_desk_fail();`);
    try {
      const response = await client.post('/alerts/bulk', { ids: [a, b], state: 'dismissed' });
      assert.equal(response.status, 500);
    } finally {
      await server.db.exec(
        'DROP TRIGGER review_desk_fail ON alerts; DROP FUNCTION review_desk_fail();',
      );
    }
    const first = await server.request('GET', `/api/v1/alerts/${a}`, { headers: key.auth });
    assert.equal(first.body.data.state, 'unread', 'the first alert’s change was rolled back');
    assert.equal(await updatedEvents([a, b]), 0, 'and so was its event');
  });

  it('refuses more than 200 alerts at once, and a state it does not know, with a message', async () => {
    const { client } = await desk();
    const ids = Array.from({ length: 201 }, (_, i) => `alt_x${i}`);
    const tooMany = await client.post('/alerts/bulk', { ids, state: 'read' });
    assert.equal(tooMany.status, 422);
    assert.ok(textOf(tooMany.text).includes('Select at most 200 alerts at a time'));
    const badState = await client.post('/alerts/bulk', { ids: ['alt_x'], state: 'archived' });
    assert.equal(badState.status, 422);
    const none = await client.post('/alerts/bulk', { state: 'read', return: '/alerts' });
    assert.equal(none.location, '/alerts?notice=none-selected');
  });

  it('keeps a note of at most 2,000 characters, trimmed, and refuses a longer one', async () => {
    const { client, watchId } = await desk();
    const id = await server.make.makeAlert(watchId, { markText: 'NOTE' });
    const long = await client.post(`/alerts/${id}/note`, { note: 'x'.repeat(2001) });
    assert.equal(long.status, 422);
    assert.ok(textOf(long.text).includes('A note has at most 2000 characters'));
    const saved = await client.post(`/alerts/${id}/note`, { note: `  ${'é'.repeat(2000)}  ` });
    assert.equal(saved.location, `/alerts/${id}?notice=note-saved`);
    assert.ok((await client.get(`/alerts/${id}`)).text.includes('é'.repeat(2000)));
    const other = await signedIn(server, { tier: 'team' });
    const foreign = await other.client.post(`/alerts/${id}/note`, { note: 'mine now' });
    assert.equal(foreign.status, 404);
    // The note goes with its alert.
    await server.db.query('DELETE FROM alerts WHERE id = $1', [id]);
    const left = await server.db.query('SELECT 1 FROM alert_notes WHERE alert_id = $1', [id]);
    assert.equal(left.length, 0);
  });

  it('answers bad list and export parameters with a message, never a 500', async () => {
    const { client } = await desk();
    for (const query of ['state=archived', 'sort=x', 'watch=nope', 'cursor=garbage', 'q=a%00b']) {
      const page = await client.get(`/alerts?${query}`);
      assert.equal(page.status, 200, query);
      assert.ok(textOf(page.text).includes('shows the inbox instead'), query);
    }
    const csv = await client.get('/alerts.csv?severity=urgent');
    assert.equal(csv.status, 400);
    assert.ok(textOf(csv.text).includes('“urgent” is not a severity'));
  });

  it('filters by origin, labels each alert new or existing, and exports the origin', async () => {
    const { client, watchId } = await desk();
    await server.make.makeAlert(watchId, { markText: 'NEWCOMER' });
    await server.make.makeAlert(watchId, { markText: 'OLDTIMER', origin: 'existing_mark' });
    const existing = textOf((await client.get('/alerts?origin=existing_mark')).text);
    assert.ok(existing.includes('OLDTIMER'));
    assert.ok(!existing.includes('NEWCOMER'));
    assert.match(existing, /OLDTIMER Medium severity Unread Existing mark/);
    const both = textOf((await client.get('/alerts')).text);
    assert.match(both, /NEWCOMER Medium severity Unread New filing/);
    const csv = (await client.get('/alerts.csv?origin=new_filing')).text;
    const [header, ...rows] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.ok(header?.endsWith(',origin,removed'), header);
    assert.equal(rows.length, 1);
    // The record is in the register: the removal day after the origin is empty.
    assert.ok(rows[0]?.includes('NEWCOMER') && rows[0].endsWith(',new_filing,'), rows[0]);
    const bad = await client.get('/alerts?origin=ancient');
    assert.ok(textOf(bad.text).includes('“ancient” is not an origin'));
  });
});
