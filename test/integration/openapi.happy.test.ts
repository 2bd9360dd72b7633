import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildApp } from '../../src/app.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The published API reference. (Every response the other tests see is already checked against
// this document by the harness; here the document itself is checked.)

type Response = {
  content?: Record<string, { schema?: unknown; example?: unknown }>;
  headers?: Record<string, { required?: boolean; schema?: { type?: string } }>;
};
type Operation = {
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
};
type Doc = {
  openapi: string;
  info: { contact?: { name?: string; url?: string }; license?: { name?: string } };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/** The statuses each operation must document: the API reference's tables plus what the request pipeline adds. */
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
  'delete /api/v1/api-keys/{id}': [200, 401, 403, 404, 429],
};

/** The operationIds generated clients take their method names from: part of the contract. */
const OPERATION_IDS: Record<string, string> = {
  'get /api/v1/watches': 'listWatches',
  'post /api/v1/watches': 'createWatch',
  'get /api/v1/watches/{id}': 'getWatch',
  'patch /api/v1/watches/{id}': 'updateWatch',
  'delete /api/v1/watches/{id}': 'deleteWatch',
  'get /api/v1/alerts': 'listAlerts',
  'get /api/v1/alerts/{id}': 'getAlert',
  'patch /api/v1/alerts/{id}': 'updateAlert',
  'delete /api/v1/api-keys/{id}': 'revokeApiKey',
  'get /api/v1/me': 'getMe',
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
    for (const { key, op } of operations().filter(
      (o) => o.key in REQUIRED && !o.key.includes('api-keys'),
    )) {
      assert.deepEqual(op.security, [{ bearerAuth: [] }], key);
    }
  });

  it('the document describes the decisions the spec leaves open', async () => {
    const text = JSON.stringify(doc);
    for (const needle of ['Retry-After', 'upgradeUrl', '/pricing', 'createdAt', 'clamped']) {
      assert.ok(text.includes(needle), needle);
    }
  });

  it('every operation has its stable operationId and only described tags', () => {
    const ids = operations().map(({ key, op }) => [key, op.operationId]);
    assert.deepEqual(
      Object.fromEntries(ids.filter(([key]) => (key as string) in OPERATION_IDS)),
      OPERATION_IDS,
    );
    const described = new Set(doc.tags?.filter((t) => t.description).map((t) => t.name));
    for (const { key, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, key);
      for (const tag of op.tags ?? []) assert.ok(described.has(tag), `${key}: tag ${tag}`);
    }
  });

  it('query parameters are typed as what they mean', () => {
    const param = (key: string, name: string) =>
      operations()
        .find((o) => o.key === key)
        ?.op.parameters?.find((p) => p.in === 'query' && p.name === name)?.schema;
    for (const key of ['get /api/v1/watches', 'get /api/v1/alerts']) {
      assert.deepEqual(param(key, 'limit'), { type: 'integer', minimum: 1, default: 50 });
      assert.equal(param(key, 'cursor')?.maxLength, 200);
    }
    assert.deepEqual(param('get /api/v1/watches', 'active'), { type: 'boolean' });
    assert.deepEqual(param('get /api/v1/watches', 'watchType'), {
      type: 'string',
      enum: ['trademark'],
    });
    assert.deepEqual(param('get /api/v1/alerts', 'since'), { type: 'string', format: 'date-time' });
    assert.deepEqual(param('get /api/v1/alerts', 'state'), {
      type: 'array',
      items: { type: 'string', enum: ['unread', 'read', 'dismissed'] },
    });
  });

  it('attributes.designations[] is declared as the fixed list the service checks', () => {
    // Every `designations` property of the document: the Watch schema and the request bodies.
    const found: { items?: { type?: string; enum?: string[] } }[] = [];
    const visit = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'designations' && (value as { type?: string }).type === 'array') {
          found.push(value as (typeof found)[number]);
        } else visit(value);
      }
    };
    visit(doc.paths);
    visit(doc.components);
    assert.ok(found.length >= 3, `${found.length} designations schemas`);
    for (const schema of found) {
      assert.equal(schema.items?.type, 'string');
      assert.equal(schema.items?.enum?.length, 250, 'the 249 ISO 3166-1 codes and EU');
      for (const code of ['DE', 'EU', 'US', 'GB']) assert.ok(schema.items?.enum?.includes(code));
    }
  });

  it('every authenticated operation declares 429 with Retry-After and the rate-limit headers', () => {
    for (const { key, op } of operations().filter((o) => (o.op.security?.length ?? 0) > 0)) {
      const responses = op.responses ?? {};
      assert.equal(responses['429']?.headers?.['Retry-After']?.required, true, key);
      for (const [status, response] of Object.entries(responses)) {
        if (['401', '408', '431', '503'].includes(status)) continue;
        for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining']) {
          assert.equal(response.headers?.[header]?.schema?.type, 'integer', `${key} ${status}`);
        }
      }
    }
  });

  it('every operation declares 408, 431, 500 and 503 with Retry-After; every body 413 and 415', () => {
    for (const { key, op } of operations()) {
      const responses = op.responses ?? {};
      for (const status of ['408', '431', '500', '503'])
        assert.ok(responses[status], `${key} ${status}`);
      assert.equal(responses['503']?.headers?.['Retry-After']?.required, true, key);
      if (op.requestBody)
        for (const status of ['413', '415', '422'])
          assert.ok(responses[status], `${key} ${status}`);
    }
  });

  it('the error envelope is typed: details on 422, upgradeUrl on 402, known codes listed', () => {
    // biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are inspected field by field
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, any> }>;
    const error = schemas.Error?.properties?.error;
    assert.deepEqual(error.properties.code.anyOf[1], { type: 'string' });
    assert.ok(error.properties.code.anyOf[0].enum.includes('rate_limited'));
    assert.ok(schemas.ValidationError?.properties?.error.required.includes('details'));
    assert.equal(schemas.QuotaError?.properties?.error.properties.upgradeUrl.const, '/pricing');
    const post = operations().find((o) => o.key === 'post /api/v1/watches')?.op;
    const ref = (status: string) =>
      (
        post?.responses?.[status]?.content?.['application/json']?.schema as
          | { $ref?: string }
          | undefined
      )?.$ref;
    assert.equal(ref('422'), '#/components/schemas/ValidationError');
    assert.equal(ref('402'), '#/components/schemas/QuotaError');
  });

  it('every request body and success response has an example', () => {
    for (const { key, op } of operations()) {
      if (op.requestBody)
        assert.notEqual(op.requestBody.content?.['application/json']?.example, undefined, key);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (status.startsWith('2')) {
          assert.notEqual(
            response.content?.['application/json']?.example,
            undefined,
            `${key} ${status}`,
          );
        }
      }
    }
  });

  it('every component schema is used', () => {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: {} } });
    const schemas = JSON.stringify(doc.components.schemas);
    for (const name of Object.keys(doc.components.schemas)) {
      const ref = `"#/components/schemas/${name}"`;
      assert.ok(text.includes(ref) || schemas.includes(ref), name);
    }
  });

  it('info has a contact and a licence, and servers is the public URL', async () => {
    assert.ok(doc.info.contact?.name);
    assert.equal(doc.info.license?.name, 'Apache-2.0');
    assert.deepEqual(
      doc.servers?.map((s) => s.url),
      ['/'],
    );
    const app = await buildApp({
      db: server.db,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 60,
      publicUrl: 'https://watch.example.com',
    });
    try {
      const served = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc;
      assert.deepEqual(
        served.servers?.map((s) => s.url),
        ['https://watch.example.com'],
      );
      assert.equal(served.info.contact?.url, 'https://watch.example.com');
    } finally {
      await app.close();
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
