import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sessionApiHeaders, signedIn } from './dashboard.ts';
import { startTestServer, type TestServer } from './server.ts';

// Property-based fuzzing of the API from its own OpenAPI document. Every operation of the served
// document under /api/v1 (so a new route is fuzzed as soon as it is documented) gets requests
// built from its parameter and body schemas: valid ones, and mutations of them (wrong types,
// missing and extra keys, Object.prototype member names as keys, boundary lengths, hostile
// Unicode, huge numbers, bad cursors and ids, bodies that are not JSON). The real app answers on
// an embedded database (or DATABASE_URL) and, for every request: no 5xx, the status is one the
// operation declares, and the body matches the schema declared for it (TestServer.request checks
// the last two against the served document on every response).

type Schema = { [key: string]: unknown };
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  explode?: boolean;
  schema?: Schema;
};
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema; example?: unknown } } };
  security?: Record<string, unknown>[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

export type FuzzRequest = {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
};

/** Every name Object.prototype answers to: keys that once made a body a 500. */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\u202eevil',
  '\ufeff',
  '\u200b',
  'e\u0301',
  '😀',
  '\r\n',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE watches; --",
  '<script>alert(1)</script>',
  'x'.repeat(201),
  'x'.repeat(70_000),
  ...PROTOTYPE_NAMES,
];
const HUGE_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 53) - 1,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
];
const BAD_CURSORS = [
  'x',
  'WyIi', // base64url of ["" (cut short)
  Buffer.from('["2026-02-30T00:00:00.000Z","wat_a"]').toString('base64url'),
  Buffer.from('["0000-01-01T00:00:00.000Z","wat_a"]').toString('base64url'),
  Buffer.from('{"constructor":1}').toString('base64url'),
  Buffer.from('[1,2]').toString('base64url'),
  'A'.repeat(200),
  'A'.repeat(201),
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(...HUGE_NUMBERS),
  fc.constantFrom(null, true, false, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);
const hostileKey = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 12 }));

/** Arbitraries of values that a JSON Schema of the document describes. */
class SchemaValues {
  constructor(private readonly components: Record<string, Schema>) {}

  resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    const target = this.components[name];
    assert.ok(target, `unresolved $ref ${ref}`);
    return this.resolve(target);
  }

  valid(input: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const examples = Array.isArray(schema.examples) ? schema.examples : [];
    const generated = this.generated(schema, depth);
    return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), generated) : generated;
  }

  private generated(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    if ('const' in schema) return fc.constant(schema.const);
    const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (options) return fc.oneof(...options.map((option) => this.valid(option, depth + 1)));
    const type = schema.type;
    if (Array.isArray(type)) {
      return fc.oneof(...type.map((t) => this.generated({ ...schema, type: t }, depth)));
    }
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({
          min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
          max: typeof schema.maximum === 'number' ? schema.maximum : 100_000,
        });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
      case 'string':
        return this.string(schema);
      case 'array': {
        const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
        const items = this.valid((schema.items ?? {}) as Schema, depth + 1);
        const normal = fc.array(items, { minLength, maxLength: Math.min(maxItems ?? 5, 5) });
        if (maxItems === undefined) return normal;
        // The boundary and one past it.
        return fc.oneof(
          { arbitrary: normal, weight: 8 },
          fc.array(items, { minLength: maxItems, maxLength: maxItems + 1 }),
        );
      }
      case 'object':
        return this.object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    if (schema.format === 'date-time') {
      return fc
        .date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    }
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    const normal =
      typeof schema.pattern === 'string'
        ? fc.stringMatching(new RegExp(schema.pattern))
        : fc.string({ minLength, maxLength: Math.min(maxLength ?? 30, 30) });
    if (maxLength === undefined) return normal;
    return fc.oneof(
      { arbitrary: normal, weight: 8 },
      fc.constantFrom('x'.repeat(maxLength), 'x'.repeat(maxLength + 1)),
    );
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as string[];
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, value] of Object.entries(properties))
      shape[key] = this.valid(value, depth + 1);
    const known = fc.record(shape, { requiredKeys: required });
    const extra = schema.additionalProperties;
    if (typeof extra === 'object' && extra !== null && depth < 4) {
      return fc
        .tuple(
          known,
          fc.dictionary(fc.string({ maxLength: 10 }), this.valid(extra as Schema, depth + 1), {
            maxKeys: 3,
          }),
        )
        .map(([a, b]) => ({ ...b, ...a }));
    }
    return known;
  }
}

type Mutation = 'replace' | 'delete' | 'add';

/** Every place in a JSON value: the path of each array entry and object member. */
function placesOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const places: (string | number)[][] = [path];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) places.push(...placesOf(v, [...path, i]));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) places.push(...placesOf(v, [...path, key]));
  }
  return places;
}

/** A copy of `value` with one mutation at one of its places (picked by `pick`). */
function mutate(value: unknown, mutation: Mutation, pick: number, key: string, hostile: unknown) {
  const copy = structuredClone(value) as unknown;
  const places = placesOf(copy);
  const path = places[pick % places.length] ?? [];
  if (path.length === 0) {
    if (mutation === 'replace') return hostile;
    if (typeof copy === 'object' && copy !== null && !Array.isArray(copy)) {
      Object.defineProperty(copy, key, {
        value: hostile,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  const target = parent[last];
  if (mutation === 'replace') parent[last] = hostile;
  else if (mutation === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
    // defineProperty, not assignment: a key named __proto__ must be an own key of the JSON.
    Object.defineProperty(target, key, {
      value: hostile,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else parent[last] = hostile;
  return copy;
}

/** The text of a query value the validator should accept, for a value of the parameter's schema. */
function queryText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (value === null || value === undefined) return [];
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

export type FuzzFixtures = {
  /** Real ids by the first path segment after /api/v1 (watches, alerts, api-keys…). */
  ids: Record<string, string[]>;
  /** Credentials by security scheme of the document (bearerAuth, sessionCookie). */
  credentials: Record<string, Record<string, string>>;
};

// A URL carries UTF-8: an unpaired surrogate has none, so it travels as U+FFFD (what a client's URL
// encoder sends too).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const pathSegment = (id: string) => encodeURIComponent(id.replace(LONE_SURROGATE, '\uFFFD'));

/** The arbitrary of requests to one operation of the document. */
function operationRequests(
  values: SchemaValues,
  fixtures: FuzzFixtures,
  template: string,
  method: string,
  operation: Operation,
): fc.Arbitrary<FuzzRequest> {
  const name = operation.operationId ?? `${method} ${template}`;
  const resource = template.split('/')[3] ?? '';
  const knownIds = fixtures.ids[resource] ?? [];
  const idArb = fc.oneof(
    { arbitrary: knownIds.length > 0 ? fc.constantFrom(...knownIds) : hostileString, weight: 6 },
    { arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 10_000), weight: 1 },
    fc.constantFrom(...Object.values(fixtures.ids).flat(), 'wat_0000000000000000000000'),
  );
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const pathArb = fc
    .tuple(...pathParams.map(() => idArb))
    .map((ids) =>
      pathParams.reduce(
        (path, param, i) => path.replace(`{${param.name}}`, pathSegment(ids[i] ?? '')),
        template,
      ),
    );
  const queryArb = fc
    .tuple(
      ...queryParams.map((param) =>
        fc.oneof(
          { arbitrary: fc.constant<string[]>([]), weight: 6 },
          {
            // A cursor is only ever one the service issued: any other text is a bad one.
            arbitrary:
              param.name === 'cursor'
                ? fc.constantFrom(...BAD_CURSORS).map((c) => [c])
                : values
                    .valid(param.schema ?? {})
                    .map(queryText)
                    // explode: false (style form) sends an array as one comma-separated value.
                    .map((texts) =>
                      param.explode === false && texts.length > 0 ? [texts.join(',')] : texts,
                    ),
            weight: 3,
          },
          fc.array(hostileString, { minLength: 1, maxLength: 2 }),
        ),
      ),
    )
    .map((texts) => {
      const search = new URLSearchParams();
      queryParams.forEach((param, i) => {
        for (const text of texts[i] ?? []) search.append(param.name, text);
      });
      const query = search.toString();
      return query ? `?${query}` : '';
    });
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  const credentials = (scheme && fixtures.credentials[scheme]) || {};
  const headersArb = fc.oneof(
    { arbitrary: fc.constant(credentials), weight: 12 },
    fc.constant({}),
    fc.constant({ authorization: 'Bearer tmw_not-a-key' }),
  );
  const media = operation.requestBody?.content?.['application/json'];
  const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = media?.schema
    ? fc.oneof(
        {
          // Valid: the document's example (which must succeed) or a value of the schema.
          arbitrary: (media.example === undefined
            ? values.valid(media.schema)
            : fc.oneof(
                { arbitrary: fc.constant(media.example), weight: 2 },
                values.valid(media.schema),
              )
          ).map((v) => ({ body: JSON.stringify(v) })),
          weight: 4,
        },
        {
          arbitrary: fc
            .tuple(
              media.example !== undefined ? fc.constant(media.example) : values.valid(media.schema),
              fc.constantFrom<Mutation>('replace', 'delete', 'add'),
              fc.nat(),
              hostileKey,
              hostileValue,
            )
            .map(([value, mutation, pick, key, hostile]) => ({
              body: JSON.stringify(mutate(value, mutation, pick, key, hostile)),
            })),
          weight: 6,
        },
        fc.constantFrom(
          { body: '' },
          { body: '{' },
          { body: '{"a":1}', contentType: 'text/plain' },
          { body: 'null' },
          { body: '[]' },
          { body: '{"__proto__":{"x":1}}' },
          { body: `{"name":"${'x'.repeat(1_100_000)}"}` },
        ),
      )
    : fc.constant({});
  return fc
    .record({ path: pathArb, query: queryArb, headers: headersArb, body: bodyArb })
    .map(({ path, query, headers, body }) => ({
      operation: name,
      method: method.toUpperCase(),
      path: `${path}${query}`,
      headers:
        body.body === undefined
          ? headers
          : { ...headers, 'content-type': body.contentType ?? 'application/json' },
      body: body.body,
    }));
}

/** Requests to every /api/v1 operation of the document. */
export function apiRequests(document: Document, fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  const values = new SchemaValues(document.components?.schemas ?? {});
  const operations = Object.entries(document.paths)
    .filter(([template]) => template.startsWith('/api/v1/'))
    .flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) =>
        operationRequests(values, fixtures, template, method, operation),
      ),
    );
  assert.ok(operations.length > 0, 'the document has no /api/v1 operation');
  return fc.oneof(...operations);
}

/** A running app with an owner, a watch and an alert to aim at. */
export async function startFuzzTarget(): Promise<{
  server: TestServer;
  document: Document;
  fixtures: FuzzFixtures;
}> {
  const server = await startTestServer();
  const signed = await signedIn(server, { tier: 'team' });
  const key = await server.make.makeKey({ userId: signed.user.id });
  // The key the session route revokes (again and again: idempotent), not the one fuzzing uses.
  const spareKey = await server.make.makeKey({ userId: signed.user.id });
  const created = await server.request('POST', '/api/v1/watches', {
    headers: key.auth,
    body: {
      watchType: 'trademark',
      name: 'Sargent',
      attributes: { niceClasses: [6, 20], designations: ['US'] },
    },
  });
  assert.equal(created.status, 201, created.text);
  const watchId: string = created.body.data.id;
  const alertId = await server.make.makeAlert(watchId);
  const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Document;
  return {
    server,
    document,
    fixtures: {
      credentials: {
        bearerAuth: key.auth,
        sessionCookie: sessionApiHeaders(server, signed.client),
      },
      ids: { watches: [watchId], alerts: [alertId], 'api-keys': [spareKey.id] },
    },
  };
}

/** One request: no 5xx; TestServer.request checks the status and body against the document. */
export async function sendFuzzRequest(server: TestServer, request: FuzzRequest) {
  const response = await server.request(request.method, request.path, {
    headers: request.headers,
    body: request.body === undefined ? undefined : new Blob([request.body]),
  });
  assert.ok(
    response.status < 500,
    `${request.method} ${request.path} answered ${response.status}: ${response.text.slice(0, 300)}`,
  );
  return response.status;
}

/** Runs `runs` generated requests with `seed`; fast-check reports the seed and shrunk request. */
export async function fuzzApi(options: { runs: number; seed: number }) {
  const { server, document, fixtures } = await startFuzzTarget();
  const statuses = new Map<string, number>();
  try {
    await fc.assert(
      fc.asyncProperty(apiRequests(document, fixtures), async (request) => {
        const status = await sendFuzzRequest(server, request);
        const key = `${request.operation} ${status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
      { numRuns: options.runs, seed: options.seed, endOnFailure: false },
    );
  } finally {
    await server.close();
  }
  return { statuses, operations: Object.keys(document.paths).length };
}
