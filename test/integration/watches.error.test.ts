import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createWatch, fieldErrors } from '../helpers/api.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// every way a watch body can be wrong, each a 422 whose details name the dotted path.

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const attrs = (attributes: Record<string, unknown>) => ({
  attributes: { niceClasses: [9], designations: ['DE'], ...attributes },
});

/** [rule, body overrides on a valid watch, the path that must be reported]. */
const CREATE_CASES: [string, Record<string, unknown>, string][] = [
  ['an empty name is refused', { name: '' }, 'name'],
  ['a name of only whitespace is refused', { name: '    ' }, 'name'],
  ['a name of 201 characters after trimming is refused', { name: ` ${'n'.repeat(201)} ` }, 'name'],
  ['a name that is not a string is refused', { name: 42 }, 'name'],
  ['a missing name is refused', { name: undefined }, 'name'],
  ['a name containing a NUL character is refused', { name: 'Ac\u0000me' }, 'name'],
  ['a missing watchType is refused', { watchType: undefined }, 'watchType'],
  ['an unknown watchType is refused', { watchType: 'domain' }, 'watchType'],
  ['missing attributes are refused', { attributes: undefined }, 'attributes'],
  ['null attributes are refused', { attributes: null }, 'attributes'],
  [
    'missing niceClasses are refused',
    { attributes: { designations: ['DE'] } },
    'attributes.niceClasses',
  ],
  ['empty niceClasses are refused', attrs({ niceClasses: [] }), 'attributes.niceClasses'],
  ['Nice class 0 is refused', attrs({ niceClasses: [0] }), 'attributes.niceClasses.0'],
  ['Nice class 46 is refused', attrs({ niceClasses: [9, 46] }), 'attributes.niceClasses.1'],
  ['a fractional Nice class is refused', attrs({ niceClasses: [1.5] }), 'attributes.niceClasses.0'],
  [
    'a Nice class given as a string is refused',
    attrs({ niceClasses: ['9'] }),
    'attributes.niceClasses.0',
  ],
  [
    'the fourth bad Nice class is reported at index 3',
    attrs({ niceClasses: [1, 2, 3, 99] }),
    'attributes.niceClasses.3',
  ],
  ['duplicate Nice classes are refused', attrs({ niceClasses: [9, 9] }), 'attributes.niceClasses'],
  [
    '46 Nice class entries are refused',
    attrs({ niceClasses: [...range(1, 45), 45] }),
    'attributes.niceClasses',
  ],
  [
    'niceClasses that are not an array are refused',
    attrs({ niceClasses: 9 }),
    'attributes.niceClasses',
  ],
  [
    'missing designations are refused',
    { attributes: { niceClasses: [9] } },
    'attributes.designations',
  ],
  ['empty designations are refused', attrs({ designations: [] }), 'attributes.designations'],
  [
    'an unknown country code is refused',
    attrs({ designations: ['DE', 'XX'] }),
    'attributes.designations.1',
  ],
  [
    'an alpha-3 country code is refused',
    attrs({ designations: ['DEU'] }),
    'attributes.designations.0',
  ],
  [
    'a designation that is not a string is refused',
    attrs({ designations: [276] }),
    'attributes.designations.0',
  ],
  [
    'duplicate designations are refused',
    attrs({ designations: ['DE', 'DE'] }),
    'attributes.designations',
  ],
  [
    'designations duplicated up to case are refused (de + DE)',
    attrs({ designations: ['de', 'DE'] }),
    'attributes.designations',
  ],
  ['an unknown key inside attributes is refused', attrs({ goods: 'shoes' }), 'attributes.goods'],
  ['an unknown top-level key is refused, naming it', { colour: 'red' }, 'colour'],
  ['active cannot be sent on create', { active: false }, 'active'],
  ['id cannot be sent on create', { id: 'wat_mine' }, 'id'],
  ['an unknown scanCadence is refused', { scanCadence: 'minutely' }, 'scanCadence'],
  ['a null scanCadence is refused', { scanCadence: null }, 'scanCadence'],
];

/** [rule, PATCH body, the path that must be reported]. */
const PATCH_CASES: [string, Record<string, unknown>, string][] = [
  [
    'watchType is immutable, even set to its current value',
    { watchType: 'trademark' },
    'watchType',
  ],
  ['watchType is immutable', { watchType: 'domain' }, 'watchType'],
  ['sources cannot be set', { sources: ['global_trademark_database'] }, 'sources'],
  ['id cannot be set', { id: 'wat_other' }, 'id'],
  ['createdAt cannot be set', { createdAt: '2026-01-01T00:00:00.000Z' }, 'createdAt'],
  ['an unknown key is refused, naming it', { owner: 'someone' }, 'owner'],
  ['an empty name is refused', { name: '' }, 'name'],
  ['a name of 201 characters is refused', { name: 'n'.repeat(201) }, 'name'],
  ['a null name is refused', { name: null }, 'name'],
  [
    'attributes without designations are refused (they are replaced wholesale)',
    { attributes: { niceClasses: [9] } },
    'attributes.designations',
  ],
  [
    'a bad Nice class inside new attributes is reported by index',
    { attributes: { niceClasses: [9, 100], designations: ['DE'] } },
    'attributes.niceClasses.1',
  ],
  ['an unknown scanCadence is refused', { scanCadence: 'monthly' }, 'scanCadence'],
  ['active must be a boolean', { active: 'yes' }, 'active'],
  ['active cannot be null', { active: null }, 'active'],
  ['an ftp logoUrl is refused', { logoUrl: 'ftp://example.com/logo.png' }, 'logoUrl'],
  ['a logoUrl that is not a URL is refused', { logoUrl: 'logo.png' }, 'logoUrl'],
  ['a javascript: logoUrl is refused', { logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
  ['an empty logoUrl is refused', { logoUrl: '' }, 'logoUrl'],
  [
    'a logoUrl containing a NUL character is refused',
    { logoUrl: 'https://x.test/\u0000' },
    'logoUrl',
  ],
  ['a logoSt13 with punctuation is refused', { logoSt13: 'EM-500000018' }, 'logoSt13'],
  ['an empty logoSt13 is refused', { logoSt13: '' }, 'logoSt13'],
  ['a logoSt13 of 51 characters is refused', { logoSt13: '1'.repeat(51) }, 'logoSt13'],
  ['a numeric logoSt13 is refused', { logoSt13: 500000018 }, 'logoSt13'],
];

describe('watches: validation and absence', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('POST /watches', () => {
    for (const [rule, overrides, path] of CREATE_CASES) {
      it(`${rule} (422 at ${path})`, async () => {
        const { auth } = await server.make.makeKey();
        const res = await server.request('POST', '/api/v1/watches', {
          headers: auth,
          body: validWatch(overrides),
        });
        const errors = fieldErrors(res);
        assert.ok(path in errors, `expected ${path} in ${JSON.stringify(errors)}`);
        assert.ok((errors[path]?.length ?? 0) > 0);
      });
    }

    it('the spec’s example: missing niceClasses and designations and a bad cadence', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: { watchType: 'trademark', name: 'Acme', attributes: {}, scanCadence: 'monthly' },
      });
      const errors = fieldErrors(res);
      assert.deepEqual(Object.keys(errors).sort(), [
        'attributes.designations',
        'attributes.niceClasses',
        'scanCadence',
      ]);
      assert.match(errors['attributes.niceClasses']?.join(' ') ?? '', /required/i);
      assert.match(errors['attributes.designations']?.join(' ') ?? '', /required/i);
      const cadence = errors.scanCadence?.join(' ') ?? '';
      for (const value of ['hourly', 'daily', 'weekly'])
        assert.ok(cadence.includes(value), cadence);
    });

    it('an unknown key’s message names the key', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: validWatch({ colour: 'red' }),
      });
      assert.match(fieldErrors(res).colour?.join(' ') ?? '', /colour/);
    });

    it('every failing field is reported at once', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: {
          watchType: 'boat',
          name: '',
          attributes: { niceClasses: [0], designations: ['ZZ'] },
        },
      });
      assert.deepEqual(Object.keys(fieldErrors(res)).sort(), [
        'attributes.designations.0',
        'attributes.niceClasses.0',
        'name',
        'watchType',
      ]);
    });

    it('a JSON body that is not an object is a 422 with a form error', async () => {
      const { auth } = await server.make.makeKey();
      const res = await server.request('POST', '/api/v1/watches', {
        headers: { ...auth, 'content-type': 'application/json' },
        body: '[1, 2]',
      });
      assertError(res, 422, 'validation_error');
      assert.ok(res.body.error.details.formErrors.length > 0);
    });

    it('a refused create stores nothing', async () => {
      const { auth, userId } = await server.make.makeKey();
      await server.request('POST', '/api/v1/watches', {
        headers: auth,
        body: validWatch({ attributes: { niceClasses: [0], designations: ['DE'] } }),
      });
      const rows = await server.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM watches WHERE owner_id = $1',
        [userId],
      );
      assert.equal(rows[0]?.n, 0);
    });
  });

  describe('PATCH /watches/{id}', () => {
    for (const [rule, body, path] of PATCH_CASES) {
      it(`${rule} (422 at ${path})`, async () => {
        const { auth } = await server.make.makeKey();
        const watch = await createWatch(server, auth);
        const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
          headers: auth,
          body,
        });
        const errors = fieldErrors(res);
        assert.ok(path in errors, `expected ${path} in ${JSON.stringify(errors)}`);
      });
    }

    it('the 422 for watchType says that it is immutable', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const res = await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: auth,
        body: { watchType: 'trademark' },
      });
      assert.match(fieldErrors(res).watchType?.join(' ') ?? '', /immutable/);
    });

    it('a refused PATCH changes nothing, not even its valid fields', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      await server.request('PATCH', `/api/v1/watches/${watch.id}`, {
        headers: auth,
        body: { name: 'Changed', sources: ['whois'] },
      });
      const read = await server.request('GET', `/api/v1/watches/${watch.id}`, { headers: auth });
      assert.deepEqual(read.body.data, watch);
    });
  });

  describe('absent watches', () => {
    const ABSENT = [
      'wat_0000000000000000000000',
      'not-an-id',
      'alt_0000000000000000000000',
      '%00',
      'wat_%E2%9C%93',
    ];
    for (const id of ABSENT) {
      it(`GET, PATCH and DELETE of ${decodeURIComponent(id) === id ? id : `"${id}"`} are 404`, async () => {
        const { auth } = await server.make.makeKey();
        assertError(
          await server.request('GET', `/api/v1/watches/${id}`, { headers: auth }),
          404,
          'not_found',
        );
        assertError(
          await server.request('PATCH', `/api/v1/watches/${id}`, {
            headers: auth,
            body: { name: 'X' },
          }),
          404,
          'not_found',
        );
        assertError(
          await server.request('DELETE', `/api/v1/watches/${id}`, { headers: auth }),
          404,
          'not_found',
        );
      });
    }

    it('an alert id is not a watch id', async () => {
      const { auth } = await server.make.makeKey();
      const watch = await createWatch(server, auth);
      const alertId = await server.make.makeAlert(watch.id);
      assertError(
        await server.request('GET', `/api/v1/watches/${alertId}`, { headers: auth }),
        404,
        'not_found',
      );
    });
  });
});
