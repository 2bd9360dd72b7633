import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The published API reference. (Every response the other tests see is already checked against
// this document by the harness; here the document itself is checked.)

type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** The statuses each operation must document: the spec's tables plus what D1–D4 add. */
const REQUIRED: Record<string, number[]> = {
  'get /api/v1/me': [200, 401, 429],
  'get /api/v1/watches': [200, 400, 401, 403, 429],
  'post /api/v1/watches': [201, 400, 401, 402, 403, 413, 415, 422, 429],
  'get /api/v1/watches/{id}': [200, 401, 403, 404, 429],
  'patch /api/v1/watches/{id}': [200, 400, 401, 402, 403, 404, 413, 415, 422, 429],
  'delete /api/v1/watches/{id}': [200, 401, 403, 404, 429],
  'get /api/v1/alerts': [200, 400, 401, 403, 429],
  'get /api/v1/alerts/{id}': [200, 401, 403, 404, 429],
  'patch /api/v1/alerts/{id}': [200, 400, 401, 403, 404, 413, 415, 422, 429],
};

describe('OpenAPI document and docs page', () => {
  let server: TestServer;
  let doc: Doc;
  before(async () => {
    server = await startTestServer();
    doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Doc;
  });
  after(() => server.close());

  const operations = () =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ key: `${method} ${path}`, op })),
      );

  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.match(doc.openapi, /^3\.1\./);
  });

  for (const [key, statuses] of Object.entries(REQUIRED)) {
    it(`${key} documents statuses ${statuses.join(', ')}`, () => {
      const op = operations().find((o) => o.key === key)?.op;
      assert.ok(op, `${key} is documented`);
      const documented = Object.keys(op.responses ?? {}).map(Number);
      for (const status of statuses) assert.ok(documented.includes(status), `${key}: ${status}`);
    });
  }

  it('every documented status has a JSON body schema', () => {
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        assert.ok(response.content?.['application/json']?.schema, `${key} ${status}`);
      }
    }
  });

  it('every API-key operation declares bearer authentication', () => {
    for (const { key, op } of operations().filter((o) => o.key in REQUIRED)) {
      assert.deepEqual(op.security, [{ bearerAuth: [] }], key);
    }
  });

  it('the document describes the decisions the spec leaves open', async () => {
    const text = JSON.stringify(doc);
    for (const needle of ['Retry-After', 'upgradeUrl', '/pricing', 'createdAt', 'clamped']) {
      assert.ok(text.includes(needle), needle);
    }
  });

  it('GET /docs renders an HTML page', async () => {
    const res = await fetch(`${server.baseUrl}/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /<html/i);
  });

  it('GET /openapi.json needs no key', async () => {
    const res = await fetch(`${server.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
  });
});
