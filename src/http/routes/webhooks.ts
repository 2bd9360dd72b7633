import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageBody } from '../../domain/pagination.ts';
import { PLANS } from '../../domain/plans.ts';
import { WEBHOOK_EVENTS } from '../../domain/webhook-events.ts';
import { createWebhookSchema, updateWebhookSchema } from '../../domain/webhook-input.ts';
import type { WebhookService } from '../../domain/webhooks.ts';
import { principalOf } from '../authenticate.ts';
import {
  createWebhookExample,
  updateWebhookExample,
  webhookDeliveryExample,
  webhookExample,
  webhookWithSecretExample,
} from '../examples.ts';
import { withExample } from '../openapi-document.ts';
import { cursorParam, limitParam } from '../query.ts';
import { sendData, sendJson } from '../reply.ts';
import { dataOf, errorResponses, idParams, listOf } from '../schemas.ts';

const timestamp = z.string().meta({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' });

export const WebhookSchema = z
  .object({
    id: z.string().meta({ example: 'whk_4Qm2c8VnXr0sKp1LdT9aBz' }),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    description: z.string().nullable(),
    active: z.boolean(),
    disabledAt: timestamp.nullable().meta({
      description:
        'Set when the service turned the endpoint off because every delivery failed for 5 days; PATCH `active: true` turns it back on.',
    }),
    disabledReason: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Webhook' });

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({
    description:
      'The signing secret (Standard Webhooks, `whsec_…`). Shown only in this response: keep it now.',
  }),
}).meta({ id: 'WebhookWithSecret' });

export const WebhookDeliverySchema = z
  .object({
    id: z.string().meta({ example: 'whd_4Qm2c8VnXr0sKp1LdT9aBz' }),
    eventId: z
      .string()
      .meta({ description: 'The `webhook-id` header, the same on every attempt.' }),
    eventType: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int(),
    lastStatusCode: z.int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: timestamp.nullable(),
    nextAttemptAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    failedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

const listQuery = z.object({ limit: limitParam, cursor: cursorParam });

const tags = ['Webhooks'];
const security = [{ bearerAuth: [] }];
const read = { scope: 'webhooks:read' as const };
const write = { scope: 'webhooks:write' as const };

/** GET and POST /webhooks. */
function webhookCollectionRoutes(app: FastifyInstance, webhooks: WebhookService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/webhooks', {
    config: read,
    schema: {
      operationId: 'listWebhooks',
      tags,
      security,
      summary: 'List webhook endpoints',
      description: 'The endpoints of the caller (or the caller’s organization), newest first.',
      querystring: listQuery,
      response: {
        200: listOf(WebhookSchema, webhookExample),
        ...errorResponses(400, 401, 403, 429),
      },
    },
    handler: async (request, reply) => {
      const rows = await webhooks.list(principalOf(request), request.query, { mayLag: true });
      return sendJson(reply, 200, pageBody(rows, request.query.limit));
    },
  });

  r.post('/webhooks', {
    config: write,
    schema: {
      operationId: 'createWebhook',
      tags,
      security,
      summary: 'Add a webhook endpoint',
      description: `Events: \`alert.created\` (a scan raised the alert), \`alert.updated\` (its state changed, or the register record behind it changed and the alert was assessed again: its hit as the record is now, with \`live\`, severity and rationale). The URL must be \`https://\` and must not name a loopback, private, link-local or metadata address (checked again on the resolved address at every delivery), unless the operator set \`WEBHOOK_ALLOW_PRIVATE_URLS=true\`, which also allows \`http://\`. The answer carries the signing \`secret\`, shown only this once. An owner has at most as many endpoints, active or not, as the plan allows (Team ${PLANS.team.maxWebhooks}, Enterprise ${PLANS.enterprise.maxWebhooks}); beyond that a 402 with \`upgradeUrl\`.`,
      body: withExample(createWebhookSchema, createWebhookExample),
      response: {
        201: dataOf(WebhookWithSecretSchema, webhookWithSecretExample),
        ...errorResponses(400, 401, 402, 403, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      return sendData(reply, 201, await webhooks.create(principalOf(request), request.body));
    },
  });
}

/** GET, PATCH and DELETE /webhooks/{id}. */
function webhookItemRoutes(app: FastifyInstance, webhooks: WebhookService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/webhooks/:id', {
    config: read,
    schema: {
      operationId: 'getWebhook',
      tags,
      security,
      summary: 'Read a webhook endpoint',
      description:
        'One endpoint of the caller (or the caller’s organization), with `active`, and `disabledAt` and `disabledReason` when the service turned it off. The secret is never shown again.',
      params: idParams,
      response: {
        200: dataOf(WebhookSchema, webhookExample),
        ...errorResponses(401, 403, 404, 429),
      },
    },
    handler: async (request, reply) => {
      return sendData(reply, 200, await webhooks.get(principalOf(request), request.params.id));
    },
  });

  r.patch('/webhooks/:id', {
    config: write,
    schema: {
      operationId: 'updateWebhook',
      tags,
      security,
      summary: 'Change a webhook endpoint',
      description:
        'Partial update of `url`, `events`, `description` and `active`; any other key is a 422. `active: true` also turns an endpoint back on that the service disabled.',
      params: idParams,
      body: withExample(updateWebhookSchema, updateWebhookExample),
      response: {
        200: dataOf(WebhookSchema, webhookExample),
        ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await webhooks.update(principalOf(request), request.params.id, request.body);
      return sendData(reply, 200, json);
    },
  });

  r.delete('/webhooks/:id', {
    config: write,
    schema: {
      operationId: 'deleteWebhook',
      tags,
      security,
      summary: 'Delete a webhook endpoint',
      description: 'Removes the endpoint and its deliveries; returns it as it was.',
      params: idParams,
      response: {
        200: dataOf(WebhookSchema, webhookExample),
        ...errorResponses(401, 403, 404, 429),
      },
    },
    handler: async (request, reply) => {
      return sendData(reply, 200, await webhooks.remove(principalOf(request), request.params.id));
    },
  });
}

/** POST /webhooks/{id}/rotate-secret and GET /webhooks/{id}/deliveries. */
function webhookActionRoutes(app: FastifyInstance, webhooks: WebhookService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/webhooks/:id/rotate-secret', {
    config: write,
    schema: {
      operationId: 'rotateWebhookSecret',
      tags,
      security,
      summary: 'Replace the signing secret',
      description:
        'Every request from now on is signed with the new secret, which this answer shows once. No body.',
      params: idParams,
      response: {
        200: dataOf(WebhookWithSecretSchema, webhookWithSecretExample),
        ...errorResponses(401, 403, 404, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await webhooks.rotateSecret(principalOf(request), request.params.id);
      return sendData(reply, 200, json);
    },
  });

  r.get('/webhooks/:id/deliveries', {
    config: read,
    schema: {
      operationId: 'listWebhookDeliveries',
      tags,
      security,
      summary: 'List the deliveries of an endpoint',
      description:
        'Newest first: the event, how many attempts were made, the last status code or error, the next attempt of a pending delivery and when it was delivered or given up.',
      params: idParams,
      querystring: listQuery,
      response: {
        200: listOf(WebhookDeliverySchema, webhookDeliveryExample),
        ...errorResponses(400, 401, 403, 404, 429),
      },
    },
    handler: async (request, reply) => {
      const rows = await webhooks.deliveries(
        principalOf(request),
        request.params.id,
        request.query,
      );
      return sendJson(reply, 200, pageBody(rows, request.query.limit));
    },
  });
}

export function webhookRoutes(app: FastifyInstance, webhooks: WebhookService) {
  webhookCollectionRoutes(app, webhooks);
  webhookItemRoutes(app, webhooks);
  webhookActionRoutes(app, webhooks);
}
