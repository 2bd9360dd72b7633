import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import { pageItems } from '../../domain/pagination.ts';
import { flattenIssues, safeParseWithMessages } from '../../domain/validation.ts';
import { createWebhookSchema } from '../../domain/webhook-input.ts';
import {
  type DashboardServices,
  noticeFrom,
  requireViewer,
  seeOther,
  sendPage,
  sessionOf,
} from '../context.ts';
import { formField, formList } from '../form.ts';
import {
  DEFAULT_WEBHOOK_FORM,
  type DeliveryRow,
  type WebhookForm,
  type WebhookRow,
  webhooksPage,
} from '../views/webhooks.ts';

const LISTED = 50;
const RECENT_DELIVERIES = 10;

type Id = { Params: { id: string } };

async function render(
  s: DashboardServices,
  request: FastifyRequest,
  reply: FastifyReply,
  extra: {
    status?: number;
    form?: WebhookForm;
    shownSecret?: { url: string; secret: string } | null;
  } = {},
) {
  const principal = sessionOf(request).principal;
  const webhooks = pageItems<WebhookRow>(
    await s.webhooks.list(principal, { limit: LISTED }),
    LISTED,
  );
  const withDeliveries = await Promise.all(
    webhooks.map(async (webhook) => ({
      webhook,
      deliveries: pageItems<DeliveryRow>(
        await s.webhooks.deliveries(principal, webhook.id, { limit: RECENT_DELIVERIES }),
        RECENT_DELIVERIES,
      ),
    })),
  );
  return sendPage(
    reply,
    webhooksPage({
      viewer: await requireViewer(request, s.alerts),
      canUse: principal.plan.apiAccess,
      webhooks: withDeliveries,
      form: extra.form ?? DEFAULT_WEBHOOK_FORM,
      shownSecret: extra.shownSecret ?? null,
      notice: noticeFrom(request.query),
    }),
    extra.status ?? 200,
  );
}

/** Webhooks come with the plans that include the API, as the API's tier rule says. */
function requireApiPlan(request: FastifyRequest) {
  const plan = sessionOf(request).principal.plan;
  if (!plan.apiAccess) {
    throw new ApiError('forbidden', 'Webhooks are part of the Team and Enterprise plans.');
  }
}

/** A new endpoint from the form; its secret is shown on the page that answers, only there. */
function createWebhook(s: DashboardServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    requireApiPlan(request);
    const form: WebhookForm = {
      url: formField(request.body, 'url'),
      events: formList(request.body, 'events'),
      description: formField(request.body, 'description'),
      errors: {},
    };
    const parsed = safeParseWithMessages(createWebhookSchema, {
      url: form.url,
      events: form.events,
      description: form.description,
    });
    try {
      if (!parsed.ok)
        throw new ApiError('validation_error', 'invalid', {
          details: flattenIssues(parsed.issues, {}),
        });
      const created = JSON.parse(
        await s.webhooks.create(sessionOf(request).principal, parsed.value),
      ) as { id: string; url: string; secret: string };
      request.log.info({ webhookId: created.id }, 'webhook created in the dashboard');
      // The only page that shows the secret: rendered here, never stored, never redirected to.
      return render(s, request, reply, { status: 201, shownSecret: created });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'validation_error') {
        const fields =
          (error.extra.details as { fieldErrors?: Record<string, string[]> })?.fieldErrors ?? {};
        form.errors = {
          url: fields.url,
          events: Object.entries(fields)
            .filter(([key]) => key === 'events' || key.startsWith('events.'))
            .flatMap(([, messages]) => messages),
          description: fields.description,
        };
        if (form.errors.events?.length === 0) delete form.errors.events;
        return render(s, request, reply, { status: 422, form });
      }
      throw error;
    }
  };
}

export function webhookRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/webhooks', { config: { dashboard: 'user' } }, (request, reply) =>
    render(s, request, reply),
  );

  app.post('/webhooks', { config: { dashboard: 'user' } }, createWebhook(s));

  const toggle = (active: boolean) => async (request: FastifyRequest<Id>, reply: FastifyReply) => {
    if (active) requireApiPlan(request);
    await s.webhooks.update(sessionOf(request).principal, request.params.id, { active });
    return seeOther(reply, `/webhooks?notice=${active ? 'webhook-enabled' : 'webhook-disabled'}`);
  };
  app.post<Id>('/webhooks/:id/enable', { config: { dashboard: 'user' } }, toggle(true));
  app.post<Id>('/webhooks/:id/disable', { config: { dashboard: 'user' } }, toggle(false));

  app.post<Id>(
    '/webhooks/:id/delete',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      await s.webhooks.remove(sessionOf(request).principal, request.params.id);
      return seeOther(reply, '/webhooks?notice=webhook-deleted');
    },
  );

  app.post<Id>('/webhooks/:id/test', { config: { dashboard: 'user' } }, async (request, reply) => {
    requireApiPlan(request);
    await s.webhooks.sendTestEvent(sessionOf(request).principal, request.params.id);
    return seeOther(reply, '/webhooks?notice=webhook-test-queued');
  });

  app.post<Id>(
    '/webhooks/:id/rotate-secret',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      requireApiPlan(request);
      const rotated = JSON.parse(
        await s.webhooks.rotateSecret(sessionOf(request).principal, request.params.id),
      ) as { url: string; secret: string };
      return render(s, request, reply, { shownSecret: rotated });
    },
  );
}
