import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlertService } from '../../domain/alerts/service.ts';
import {
  ALERT_ORIGINS,
  ALERT_SEVERITIES,
  ALERT_STATES,
  type AlertSeverity,
} from '../../domain/alerts/types.ts';
import { principalOf } from '../authenticate.ts';
import { alertExample, updateAlertExample } from '../examples.ts';
import { withExample } from '../openapi-document.ts';
import { cursorParam, documentedAs, enumListParam, isoInstantParam, limitParam } from '../query.ts';
import { sendData, sendJson } from '../reply.ts';
import { AlertSchema, dataOf, errorResponses, idParams, listOf } from '../schemas.ts';
import { withValidationOptions } from '../validation.ts';

// An alert's JSON is stored compact (migration 033).
const COMPACT = { compact: true };

const stateEnum = z.enum(ALERT_STATES, { error: 'Expected one of unread, read, dismissed.' });

const SEVERITY_LIST = new RegExp(
  `^(${ALERT_SEVERITIES.join('|')})(,(${ALERT_SEVERITIES.join('|')}))*$`,
);

const severityList = z
  .string()
  .regex(SEVERITY_LIST, { error: 'Expected high, medium or low, or a comma list of them.' });

const listQuery = z.object({
  limit: limitParam,
  cursor: cursorParam,
  state: enumListParam(ALERT_STATES, 'Repeat to match any of several states.'),
  severity: documentedAs(
    z
      .union([severityList, z.array(severityList)])
      .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')))
      .transform((values) => values as AlertSeverity[])
      .optional(),
    {
      type: 'array',
      items: { type: 'string', enum: [...ALERT_SEVERITIES] },
      description:
        'Only alerts of these severities: repeat the parameter, or give a comma list (`high,medium`). An extension beyond the v1 text.',
    },
  ),
  origin: documentedAs(
    z.enum(ALERT_ORIGINS, { error: 'Expected new_filing or existing_mark.' }).optional(),
    {
      type: 'string',
      enum: [...ALERT_ORIGINS],
      description:
        'Only new filings, or only the marks that were on the register already when the watch started looking (Alert.origin). An extension beyond the v1 text.',
    },
  ),
  watchId: z.string().optional(),
  since: isoInstantParam('Inclusive lower bound on createdAt.'),
});

const patchBody = withValidationOptions(
  withExample(z.strictObject({ state: stateEnum }), updateAlertExample),
  {
    reportField: true,
  },
);

const tags = ['Alerts'];
const security = [{ bearerAuth: [] }];

export function alertRoutes(app: FastifyInstance, alerts: AlertService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/alerts', {
    config: { scope: 'alerts:read' },
    schema: {
      operationId: 'listAlerts',
      tags,
      security,
      summary: 'List alerts',
      description:
        'Alerts of the watches the caller can see, newest first. A watchId the caller cannot see gives an empty list.',
      querystring: listQuery,
      response: { 200: listOf(AlertSchema, alertExample), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (request, reply) => {
      const query = request.query;
      const body = await alerts.listBody(principalOf(request), {
        limit: query.limit,
        cursor: query.cursor,
        states: query.state,
        severities: query.severity,
        origin: query.origin,
        watchId: query.watchId,
        since: query.since,
      });
      return sendJson(reply, 200, body);
    },
  });

  r.get('/alerts/:id', {
    config: { scope: 'alerts:read' },
    schema: {
      operationId: 'getAlert',
      tags,
      security,
      summary: 'Read an alert',
      description:
        'An alert of a watch the caller can see, with its hit, in the same shape as a list item. Any other id, however malformed, is a 404.',
      params: idParams,
      response: { 200: dataOf(AlertSchema, alertExample), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request, reply) => {
      return sendData(
        reply,
        200,
        await alerts.get(principalOf(request), request.params.id),
        COMPACT,
      );
    },
  });

  r.patch('/alerts/:id', {
    config: { scope: 'alerts:read' },
    schema: {
      operationId: 'updateAlert',
      tags,
      security,
      summary: 'Change the state of an alert',
      description:
        'The body holds only `state`. Any other key is a 422 whose `details.field` names it. Setting the current state again is a 200 and changes nothing.',
      params: idParams,
      body: patchBody,
      response: {
        200: dataOf(AlertSchema, alertExample),
        ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
      },
    },
    handler: async (request, reply) => {
      const json = await alerts.setState(
        principalOf(request),
        request.params.id,
        request.body.state,
      );
      return sendData(reply, 200, json, COMPACT);
    },
  });
}
