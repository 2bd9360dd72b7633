import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALERT_SEVERITIES,
  ALERT_STATES,
  type AlertService,
  type AlertSeverity,
} from '../../domain/alerts.ts';
import { principalOf } from '../authenticate.ts';
import { cursorParam, isoInstantParam, limitParam } from '../query.ts';
import { sendData, sendJson } from '../reply.ts';
import { AlertSchema, dataOf, errorResponses, idParams, listOf } from '../schemas.ts';
import { withValidationOptions } from '../validation.ts';

const stateEnum = z.enum(ALERT_STATES, { error: 'Expected one of unread, read, dismissed.' });

const SEVERITY_LIST = new RegExp(
  `^(${ALERT_SEVERITIES.join('|')})(,(${ALERT_SEVERITIES.join('|')}))*$`,
);

const listQuery = z.object({
  limit: limitParam,
  cursor: cursorParam,
  state: z
    .union([stateEnum, z.array(stateEnum)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional()
    .meta({ description: 'Repeat to match any of several states.' }),
  severity: z
    .string()
    .regex(SEVERITY_LIST, { error: 'Expected high, medium or low, or a comma list of them.' })
    .transform((value) => value.split(',') as AlertSeverity[])
    .optional()
    .meta({
      description:
        'Only alerts of these severities: one of high, medium, low, or a comma list (`high,medium`). An extension beyond the v1 text.',
    }),
  watchId: z.string().optional(),
  since: isoInstantParam.optional().meta({
    description:
      'Inclusive lower bound on createdAt: an ISO 8601 date or date-time (UTC if no offset).',
  }),
});

const patchBody = withValidationOptions(z.strictObject({ state: stateEnum }), {
  reportField: true,
});

const tags = ['Alerts'];
const security = [{ bearerAuth: [] }];

export function alertRoutes(app: FastifyInstance, alerts: AlertService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/alerts', {
    config: { scope: 'alerts:read' },
    schema: {
      tags,
      security,
      summary: 'List alerts',
      description:
        'Alerts of the watches the caller can see, newest first. A watchId the caller cannot see gives an empty list.',
      querystring: listQuery,
      response: { 200: listOf(AlertSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (request, reply) => {
      const query = request.query;
      const body = await alerts.listBody(principalOf(request), {
        limit: query.limit,
        cursor: query.cursor,
        states: query.state,
        severities: query.severity,
        watchId: query.watchId,
        since: query.since,
      });
      return sendJson(reply, 200, body);
    },
  });

  r.get('/alerts/:id', {
    config: { scope: 'alerts:read' },
    schema: {
      tags,
      security,
      summary: 'Read an alert',
      params: idParams,
      response: { 200: dataOf(AlertSchema), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request, reply) => {
      return sendData(reply, 200, await alerts.get(principalOf(request), request.params.id));
    },
  });

  r.patch('/alerts/:id', {
    config: { scope: 'alerts:read' },
    schema: {
      tags,
      security,
      summary: 'Change the state of an alert',
      description:
        'The body holds only `state`. Any other key is a 422 whose `details.field` names it. Setting the current state again is a 200 and changes nothing.',
      params: idParams,
      body: patchBody,
      response: {
        200: dataOf(AlertSchema),
        ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await alerts.setState(
        principalOf(request),
        request.params.id,
        request.body.state,
      );
      return sendData(reply, 200, json);
    },
  });
}
