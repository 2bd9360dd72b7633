import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PROTOTYPE_NAMES } from '../helpers/api-fuzz.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A body key named after an Object.prototype member (constructor, toString, valueOf…) was a 500
// on every route with a body, because validation errors were collected in a plain object indexed
// by the client's key names. Every such name, in every object of every request body the served
// document describes (its example body is the starting point, so a new route is covered as soon
// as it is documented), is a 422 naming the key, and changes nothing. `__proto__` is refused one
// step earlier by the JSON body parser, as a 400 (README, order of checks).

type Operation = {
  operationId: string;
  requestBody?: { content: { 'application/json': { example?: unknown } } };
};
type Doc = { paths: Record<string, Record<string, Operation>> };

/** The path of every object inside `value` ([] for the value itself). */
function objectPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return [
    path,
    ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, [...path, key])),
  ];
}

/** A copy of `body` with `key` (as an own key, even `__proto__`) in the object at `path`. */
function withKey(body: unknown, path: string[], key: string): string {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target = copy;
  for (const step of path) target = target[step] as Record<string, unknown>;
  Object.defineProperty(target, key, { value: 1, enumerable: true });
  return JSON.stringify(copy);
}

describe('keys named after Object.prototype members', () => {
  let server: TestServer;
  let auth: { authorization: string };
  let ids: Map<string, string>;
  let bodyOperations: { method: string; template: string; op: Operation; example: unknown }[];

  before(async () => {
    server = await startTestServer();
    const key = await server.make.makeKey();
    auth = key.auth;
    const created = await server.request('POST', '/api/v1/watches', {
      headers: auth,
      body: {
        watchType: 'trademark',
        name: 'Sargent',
        attributes: { niceClasses: [6, 20], designations: ['US'] },
      },
    });
    assert.equal(created.status, 201, created.text);
    ids = new Map([
      ['watches', created.body.data.id],
      ['alerts', await server.make.makeAlert(created.body.data.id)],
      ['api-keys', key.id],
    ]);
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Doc;
    bodyOperations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          template,
          op,
          example: op.requestBody?.content['application/json'].example,
        })),
    );
  });
  after(() => server.close());

  const urlOf = (template: string) =>
    template.replace(/\{[^}]+\}/g, () => ids.get(template.split('/')[3] ?? '') ?? 'none');

  /** What the caller can read of everything a body route could change. */
  async function snapshot() {
    const parts = await Promise.all(
      ['/api/v1/watches?limit=200', `/api/v1/alerts/${ids.get('alerts')}`].map(async (path) => {
        const res = await server.request('GET', path, { headers: auth });
        assert.equal(res.status, 200, res.text);
        return res.text;
      }),
    );
    return parts.join('\n');
  }

  it('the document has the three routes with a body, each with an example body', () => {
    const names = bodyOperations.map((o) => o.op.operationId);
    for (const name of ['createWatch', 'updateWatch', 'updateAlert']) {
      assert.ok(names.includes(name), name);
    }
    for (const o of bodyOperations) assert.notEqual(o.example, undefined, o.op.operationId);
  });

  it('every name at every depth of every body is a 422 naming the key, and nothing changes', async () => {
    const before = await snapshot();
    let checked = 0;
    for (const { method, template, op, example } of bodyOperations) {
      for (const path of objectPaths(example)) {
        for (const key of PROTOTYPE_NAMES.filter((name) => name !== '__proto__')) {
          const res = await server.request(method, urlOf(template), {
            headers: { ...auth, 'content-type': 'application/json' },
            body: withKey(example, path, key),
          });
          const where = `${op.operationId}: ${[...path, key].join('.')}`;
          assert.equal(res.status, 422, `${where}: ${res.text}`);
          assert.equal(res.body.error.code, 'validation_error', where);
          const dotted = [...path, key].join('.');
          assert.ok(
            Object.hasOwn(res.body.error.details.fieldErrors, dotted),
            `${where}: ${res.text}`,
          );
          if (op.operationId === 'updateAlert') assert.equal(res.body.error.details.field, dotted);
          checked++;
        }
      }
    }
    assert.ok(checked >= 5 * (PROTOTYPE_NAMES.length - 1), `only ${checked} requests`);
    assert.equal(await snapshot(), before);
  });

  it('__proto__ at every depth of every body is refused by the JSON parser as a 400', async () => {
    const before = await snapshot();
    for (const { method, template, op, example } of bodyOperations) {
      for (const path of objectPaths(example)) {
        const res = await server.request(method, urlOf(template), {
          headers: { ...auth, 'content-type': 'application/json' },
          body: withKey(example, path, '__proto__'),
        });
        assert.equal(res.status, 400, `${op.operationId} ${path.join('.')}: ${res.text}`);
        assert.equal(res.body.error.code, 'validation_error');
      }
    }
    assert.equal(await snapshot(), before);
  });
});
