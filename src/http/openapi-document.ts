import { STATUS_CODES } from 'node:http';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { documentedQuerySchema } from './query.ts';

// How the OpenAPI document at /openapi.json is generated from the route schemas. @fastify/swagger
// and fastify-type-provider-zod turn each route's Zod schemas into an operation; the two functions
// here finish that document by rules, so that it stays generated (never edited by hand) and a new
// route is described like the others without anyone remembering to:
// - a query parameter is documented as what it means (integer, boolean, date-time, array of
//   enums; query.ts `documentedAs`), not as the text the validator parses;
// - every response gets a description, X-Request-Id, and on an authenticated operation the
//   rate-limit headers of every authenticated response; every 429 and 503 gets Retry-After;
// - `servers` is the service's public URL; component schemas nothing refers to are dropped.

type Json = Record<string, unknown>;
type Operation = { security?: Json[]; responses?: Record<string, Json> };
type Document = Json & { paths?: Record<string, Record<string, Operation>>; components?: Json };

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader(
    'Requests a key (or, on the session route, a signed-in user) may make per wall-clock minute.',
  ),
  'X-RateLimit-Remaining': integerHeader(
    'Requests left in this minute, this one counted (0 on the last one allowed).',
  ),
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Whole seconds to wait before retrying (at least 1).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
};
const REQUEST_ID = {
  'X-Request-Id': {
    description:
      'The request’s id in the service’s logs: the caller’s own X-Request-Id when it sent a harmless one.',
    schema: { type: 'string' },
  },
};

/** What each status means on this API, as the response's description. */
const DESCRIPTIONS = new Map<string, string>([
  ['200', 'Success.'],
  ['201', 'Created.'],
  ['400', 'Malformed request: empty or malformed JSON, or a query value that does not parse.'],
  ['401', 'Missing, malformed, unknown or revoked credentials.'],
  [
    '402',
    'Plan quota: the plan’s cap of active watches or of webhook endpoints, or its fastest cadence.',
  ],
  ['403', 'The plan has no API access, the key lacks the scope, or a cross-site request.'],
  ['404', 'Absent, or not visible to the caller (the two look the same).'],
  ['408', 'The request was not received in time.'],
  ['413', 'The body is larger than 1 MiB.'],
  ['415', 'The body is not JSON (Content-Type: application/json).'],
  ['422', 'The body failed validation; `details` names each offending field.'],
  ['429', 'Rate limit exceeded; retry after Retry-After seconds.'],
  ['431', 'The request headers and URL are larger than 16 KiB.'],
  ['500', 'An unexpected error; its cause is in the service’s log under the request id.'],
  [
    '503',
    'The service is shutting down or a dependency is unavailable; retry after Retry-After seconds.',
  ],
]);

// Responses sent before the API key is looked at carry no rate-limit headers.
const BEFORE_AUTHENTICATION = new Set(['401', '408', '431', '503']);

const bodyExamples = new WeakMap<object, unknown>();

/**
 * The example of a request body schema. Zod leaves `examples` out of the input side of a schema
 * that transforms its values (a trimmed name), so the example is kept here and added after.
 */
export function withExample<T extends object>(schema: T, example: unknown): T {
  bodyExamples.set(schema, example);
  return schema;
}

const zodRouteTransform = createJsonSchemaTransform({
  zodToJsonConfig: {
    override(context) {
      const documented = documentedQuerySchema(context.zodSchema);
      if (!documented) return;
      const json = context.jsonSchema as Json;
      for (const key of Object.keys(json)) delete json[key];
      Object.assign(json, documented);
    },
  },
});

/** Per route: Zod → JSON Schema, with query parameters documented as what they mean. */
export const openApiRouteTransform: typeof zodRouteTransform = (route) => {
  const result = zodRouteTransform(route);
  const body = (route.schema as { body?: object } | undefined)?.body;
  const transformed = result.schema as { body?: Json } | undefined;
  if (body && transformed?.body && bodyExamples.has(body)) {
    transformed.body.examples = [bodyExamples.get(body)];
  }
  return result;
};

const toDocument = createJsonSchemaTransformObject({});

/** The whole document: the generated one, finished by the rules above. */
export function openApiDocumentTransform(publicUrl: string | undefined) {
  return (input: Parameters<typeof toDocument>[0]) => {
    const document = toDocument(input) as Document;
    for (const methods of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(methods)) describeResponses(operation);
    }
    dropUnusedSchemas(document);
    // Without a public URL (tests), the server is wherever the document was fetched from.
    if (publicUrl)
      (document.info as Json).contact = {
        ...((document.info as Json).contact as Json),
        url: publicUrl,
      };
    document.servers = [
      publicUrl
        ? { url: publicUrl, description: 'This service (PUBLIC_URL).' }
        : { url: '/', description: 'The origin this document was fetched from.' },
    ];
    return document;
  };
}

function describeResponses(operation: Operation) {
  // Key and session operations alike count against the rate limit once authenticated.
  const authenticated = (operation.security?.length ?? 0) > 0;
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    response.description = DESCRIPTIONS.get(status) ?? STATUS_CODES[Number(status)] ?? status;
    response.headers = {
      ...REQUEST_ID,
      ...(authenticated && !BEFORE_AUTHENTICATION.has(status) ? RATE_LIMIT_HEADERS : {}),
      ...(status === '429' || status === '503' ? RETRY_AFTER : {}),
    };
  }
}

/** Removes component schemas that no $ref reaches (Zod registers input twins of the output ones). */
function dropUnusedSchemas(document: Document) {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  const pending: unknown[] = [{ ...document, components: { ...document.components, schemas: {} } }];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const name =
          key === '$ref' && typeof child === 'string'
            ? /^#\/components\/schemas\/(.+)$/.exec(child)?.[1]
            : undefined;
        if (name !== undefined && !used.has(name)) {
          used.add(name);
          pending.push(schemas[name]);
        } else pending.push(child);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
