import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageBody } from '../../domain/pagination.ts';
import {
  createWatchSchema,
  UPDATE_KEY_MESSAGES,
  updateWatchSchema,
  WATCH_TYPES,
} from '../../domain/watch-input.ts';
import type { WatchService } from '../../domain/watches.ts';
import { principalOf } from '../authenticate.ts';
import { createWatchExample, updateWatchExample, watchExample } from '../examples.ts';
import { withExample } from '../openapi-document.ts';
import { booleanParam, cursorParam, limitParam } from '../query.ts';
import { sendData, sendJson } from '../reply.ts';
import { dataOf, errorResponses, idParams, listOf, WatchSchema } from '../schemas.ts';
import { withValidationOptions } from '../validation.ts';

// A watch's JSON is built compact by PostgreSQL (WATCH_JSON in json-sql.ts).
const COMPACT = { compact: true };

const listQuery = z.object({
  limit: limitParam,
  cursor: cursorParam,
  watchType: z.enum(WATCH_TYPES).optional(),
  active: booleanParam('`true` lists active watches only, `false` only soft-deleted ones.'),
});

const createBody = withExample(createWatchSchema, createWatchExample);
const patchBody = withExample(
  withValidationOptions(updateWatchSchema, { keyMessages: UPDATE_KEY_MESSAGES }),
  updateWatchExample,
);

const tags = ['Watches'];
const security = [{ bearerAuth: [] }];

/** GET and POST /watches. */
function watchCollectionRoutes(app: FastifyInstance, watches: WatchService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/watches', {
    config: { scope: 'watches:read' },
    schema: {
      operationId: 'listWatches',
      tags,
      security,
      summary: 'List watches',
      description:
        'Watches owned by the caller (or the caller’s organization), newest first (createdAt, then id, descending).',
      querystring: listQuery,
      response: { 200: listOf(WatchSchema, watchExample), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (request, reply) => {
      const rows = await watches.list(principalOf(request), request.query, { mayLag: true });
      return sendJson(reply, 200, pageBody(rows, request.query.limit, COMPACT));
    },
  });

  r.post('/watches', {
    config: { scope: 'watches:write' },
    schema: {
      operationId: 'createWatch',
      tags,
      security,
      summary: 'Create a watch',
      description:
        '`sources` is ignored; any other unknown key is a 422. A plan cap or a cadence faster than the plan allows is a 402 with `upgradeUrl`.',
      body: createBody,
      response: {
        201: dataOf(WatchSchema, watchExample),
        ...errorResponses(400, 401, 402, 403, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await watches.create(principalOf(request), request.body);
      return sendData(reply, 201, json, COMPACT);
    },
  });
}

/** GET, PATCH and DELETE /watches/{id}. */
function watchItemRoutes(app: FastifyInstance, watches: WatchService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/watches/:id', {
    config: { scope: 'watches:read' },
    schema: {
      operationId: 'getWatch',
      tags,
      security,
      summary: 'Read a watch',
      description:
        'A watch the caller (or the caller’s organization) owns, active or not. Any other id, however malformed, is a 404.',
      params: idParams,
      response: { 200: dataOf(WatchSchema, watchExample), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request, reply) => {
      return sendData(
        reply,
        200,
        await watches.get(principalOf(request), request.params.id),
        COMPACT,
      );
    },
  });

  r.patch('/watches/:id', {
    config: { scope: 'watches:write' },
    schema: {
      operationId: 'updateWatch',
      tags,
      security,
      summary: 'Update a watch',
      description:
        'Partial update. `attributes` is replaced wholesale. `watchType`, `sources`, `id`, `createdAt` and unknown keys are a 422 naming the key; `{}` changes nothing. A cadence faster than the plan allows is a 422; re-activating beyond the plan cap is a 402.',
      params: idParams,
      body: patchBody,
      response: {
        200: dataOf(WatchSchema, watchExample),
        ...errorResponses(400, 401, 402, 403, 404, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await watches.update(principalOf(request), request.params.id, request.body);
      return sendData(reply, 200, json, COMPACT);
    },
  });

  r.delete('/watches/:id', {
    config: { scope: 'watches:write' },
    schema: {
      operationId: 'deleteWatch',
      tags,
      security,
      summary: 'Deactivate a watch (soft delete)',
      description: 'Sets `active` to false; idempotent. Alerts stay readable.',
      params: idParams,
      response: { 200: dataOf(WatchSchema, watchExample), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request, reply) => {
      return sendData(
        reply,
        200,
        await watches.deactivate(principalOf(request), request.params.id),
        COMPACT,
      );
    },
  });
}

export function watchRoutes(app: FastifyInstance, watches: WatchService) {
  watchCollectionRoutes(app, watches);
  watchItemRoutes(app, watches);
}
