import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compareListOrder, createWatch, fieldErrors } from '../helpers/api.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

describe('watches: happy paths', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('creates a watch with server-assigned fields and canonical sources', async () => {
    const { auth } = await server.make.makeKey();
    const res = await server.request('POST', '/api/v1/watches', {
      headers: auth,
      body: validWatch({
        name: '  Acme  ',
        sources: ['whois'],
        attributes: { niceClasses: [9], designations: ['de', 'eu'] },
      }),
    });
    assert.equal(res.status, 201);
    const watch = res.body.data;
    assert.match(watch.id, /^wat_[0-9A-Za-z]+$/);
    assert.equal(watch.name, 'Acme');
    assert.deepEqual(watch.sources, ['global_trademark_database']);
    // relatedClasses defaults to true: filings in related classes are compared too.
    assert.deepEqual(watch.attributes, {
      niceClasses: [9],
      designations: ['DE', 'EU'],
      relatedClasses: true,
    });
    assert.equal(watch.scanCadence, 'daily');
    assert.equal(watch.active, true);
    assert.equal(watch.logoUrl, null);
    assert.equal(watch.logoSt13, null);
    assert.match(watch.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(res.body.error, undefined);
  });

  it('reads back the created watch by id', async () => {
    const { auth } = await server.make.makeKey();
    const created = await server.request('POST', '/api/v1/watches', {
      headers: auth,
      body: validWatch(),
    });
    const read = await server.request('GET', `/api/v1/watches/${created.body.data.id}`, {
      headers: auth,
    });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, created.body.data);
  });
  it('accepts a name of exactly 200 characters after trimming', async () => {
    const { auth } = await server.make.makeKey();
    const name = 'N'.repeat(200);
    const watch = await createWatch(server, auth, { name: `   ${name}   ` });
    assert.equal(watch.name, name);
  });

  it('accepts all 45 Nice classes, in the order given', async () => {
    const { auth } = await server.make.makeKey();
    const niceClasses = Array.from({ length: 45 }, (_, i) => 45 - i);
    const watch = await createWatch(server, auth, {
      attributes: { niceClasses, designations: ['US'] },
    });
    assert.deepEqual(watch.attributes.niceClasses, niceClasses);
  });

  it('accepts EU as a designation and upper-cases country codes', async () => {
    const { auth } = await server.make.makeKey();
    const watch = await createWatch(server, auth, {
      attributes: { niceClasses: [25], designations: ['eu', 'Gb', 'us'] },
    });
    assert.deepEqual(watch.attributes.designations, ['EU', 'GB', 'US']);
  });

  it('creates with each cadence the Team plan allows', async () => {
    const { auth } = await server.make.makeKey();
    for (const scanCadence of ['hourly', 'daily', 'weekly']) {
      const watch = await createWatch(server, auth, { scanCadence });
      assert.equal(watch.scanCadence, scanCadence);
    }
  });

  it('lists the caller’s watches newest first with a pagination object', async () => {
    const { auth } = await server.make.makeKey();
    const first = await createWatch(server, auth, { name: 'First' });
    const second = await createWatch(server, auth, { name: 'Second' });
    const res = await server.request('GET', '/api/v1/watches', { headers: auth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, [first, second].sort(compareListOrder));
    assert.deepEqual(res.body.pagination, { nextCursor: null, limit: 50 });
  });

  it('filters the list by watchType', async () => {
    const { auth } = await server.make.makeKey();
    const watch = await createWatch(server, auth);
    const res = await server.request('GET', '/api/v1/watches?watchType=trademark', {
      headers: auth,
    });
    assert.deepEqual(
      res.body.data.map((w: { id: string }) => w.id),
      [watch.id],
    );
  });

  describe('PATCH', () => {
    const patch = (auth: object, id: string, body: unknown) =>
      server.request('PATCH', `/api/v1/watches/${id}`, {
        headers: auth as Record<string, string>,
        body,
      });

    it('an empty object changes nothing and answers the watch', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, {});
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, watch);
    });

    it('name is trimmed and changes only the name', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, { name: '  Acme Rockets ' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, { ...watch, name: 'Acme Rockets' });
    });

    it('attributes are replaced wholesale, not merged', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth, {
        attributes: { niceClasses: [9, 42], designations: ['DE', 'EU'] },
      });
      const res = await patch(auth, watch.id, {
        attributes: { niceClasses: [3], designations: ['fr'], relatedClasses: false },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data.attributes, {
        niceClasses: [3],
        designations: ['FR'],
        relatedClasses: false,
      });
      // Wholesale: attributes without relatedClasses take its default again.
      const again = await patch(auth, watch.id, {
        attributes: { niceClasses: [3], designations: ['fr'] },
      });
      assert.equal(again.body.data.attributes.relatedClasses, true);
    });

    it('relatedClasses must be a boolean', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, {
        attributes: { niceClasses: [3], designations: ['FR'], relatedClasses: 'yes' },
      });
      assert.equal(res.status, 422);
      assert.deepEqual(fieldErrors(res)['attributes.relatedClasses'], ['Expected true or false.']);
    });

    it('scanCadence changes', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, { scanCadence: 'weekly' });
      assert.equal(res.body.data.scanCadence, 'weekly');
    });

    it('logoUrl accepts http and https URLs and null', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      for (const logoUrl of [
        'https://cdn.example.com/logo.png',
        'http://example.com/a.svg',
        null,
      ]) {
        const res = await patch(auth, watch.id, { logoUrl });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.logoUrl, logoUrl);
      }
    });

    it('logoSt13 accepts 1 to 50 letters or digits and null', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      for (const logoSt13 of ['EM500000018765432', 'A', '9'.repeat(50), null]) {
        const res = await patch(auth, watch.id, { logoSt13 });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.logoSt13, logoSt13);
      }
    });

    it('several fields change together and the rest stay as they were', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, { name: 'Both', scanCadence: 'hourly' });
      assert.deepEqual(res.body.data, { ...watch, name: 'Both', scanCadence: 'hourly' });
    });

    it('the change is what a later GET returns', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const patched = await patch(auth, watch.id, { name: 'Persisted' });
      const read = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
      assert.deepEqual(read.body.data, patched.body.data);
    });

    it('active:false deactivates the watch', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await patch(auth, watch.id, { active: false });
      assert.equal(res.body.data.active, false);
    });
  });

  describe('soft delete and restore', () => {
    it('DELETE answers 200 with the watch, active false', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: auth });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, { ...watch, active: false });
    });

    it('DELETE of an already inactive watch is 200 again', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: auth });
      const again = await server.request('DELETE', `/api/v1/watches/${watch.id}`, {
        headers: auth,
      });
      assert.equal(again.status, 200);
      assert.equal(again.body.data.active, false);
    });

    it('a deleted watch stays readable by id', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: auth });
      const res = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, { ...watch, active: false });
    });

    it('a deleted watch is listed with active=false and not with active=true', async () => {
      const { auth } = await server.make.makeKey();
      const kept = await createWatch(server, auth, { name: 'Kept' });
      const gone = await createWatch(server, auth, { name: 'Gone' });
      await server.request('DELETE', `/api/v1/watches/${gone.id}`, { headers: auth });
      const ids = async (query: string) =>
        (await server.request('GET', `/api/v1/watches${query}`, { headers: auth })).body.data.map(
          (w: { id: string }) => w.id,
        );
      assert.deepEqual(await ids('?active=false'), [gone.id]);
      assert.deepEqual(await ids('?active=true'), [kept.id]);
      assert.deepEqual(
        await ids(''),
        [kept, gone].sort(compareListOrder).map((w) => w.id),
      );
    });

    it('alerts of a deleted watch stay listed and readable', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const alertId = await server.make.makeAlert(watch.id);
      await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: auth });
      const list = await server.request('GET', `/api/v1/alerts?watchId=${watch.id}`, {
        headers: auth,
      });
      assert.deepEqual(
        list.body.data.map((a: { id: string }) => a.id),
        [alertId],
      );
      const read = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: auth });
      assert.equal(read.status, 200);
      const patched = await server.request('PATCH', `/api/v1/alerts/${alertId}`, {
        headers: auth,
        body: { state: 'dismissed' },
      });
      assert.equal(patched.status, 200);
    });

    it('PATCH active:true restores a deleted watch', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      await server.request('DELETE', `/api/v1/watches/${watch.id}`, { headers: auth });
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: auth,
        body: { active: true },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, watch);
    });
  });
});
