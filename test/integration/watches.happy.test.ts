import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
    assert.deepEqual(watch.attributes, { niceClasses: [9], designations: ['DE', 'EU'] });
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
});
