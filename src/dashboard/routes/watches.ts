import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ValidationDetails } from '../../domain/errors.ts';
import { nextCursorOf, pageItems } from '../../domain/pagination.ts';
import { type Cadence, isFasterThanAllowed } from '../../domain/plans.ts';
import type { Principal } from '../../domain/principal.ts';
import { flattenIssues, safeParseWithMessages } from '../../domain/validation.ts';
import { createWatchSchema, updateWatchSchema } from '../../domain/watch-input.ts';
import { capMessage } from '../../domain/watches.ts';
import {
  type DashboardServices,
  noticeFrom,
  PAGE_SIZE,
  queryParam,
  requireViewer,
  seeOther,
  sendPage,
  sessionOf,
} from '../context.ts';
import { html } from '../html.ts';
import type { Notice } from '../views/components.ts';
import {
  type WatchStatusFilter,
  type WatchView,
  watchesPage,
  watchFormPage,
} from '../views/watches.ts';
import {
  createInputFrom,
  emptyValues,
  errorsFromDetails,
  NO_ERRORS,
  updateInputFrom,
  valuesFromBody,
  valuesFromWatch,
  type WatchFormErrors,
  type WatchFormValues,
} from '../watch-form.ts';

type IdParams = { Params: { id: string } };

const STATUS_FILTER: Record<WatchStatusFilter, boolean | undefined> = {
  active: true,
  inactive: false,
  all: undefined,
};

const isStatusFilter = (value: string | undefined): value is WatchStatusFilter =>
  value !== undefined && Object.hasOwn(STATUS_FILTER, value);

/** The cadence a new watch starts with: daily, or the plan's fastest if daily is too fast. */
function defaultCadence(principal: Principal): Cadence {
  return isFasterThanAllowed(principal.plan, 'daily') ? principal.plan.minScanCadence : 'daily';
}

/**
 * A refusal from the watch service, as the form shows it. A plan limit (402, or the PATCH 422 for
 * a too-fast cadence) keeps the API's message and adds a link to /pricing.
 */
function errorsFromServiceError(
  error: unknown,
  principal: Principal,
  cadence: Cadence | undefined,
  values: WatchFormValues,
): WatchFormErrors | null {
  if (!(error instanceof ApiError)) return null;
  const cadenceRefused = cadence !== undefined && isFasterThanAllowed(principal.plan, cadence);
  if (error.kind === 'quota_exceeded') {
    return cadenceRefused
      ? { form: [], fields: { scanCadence: [error.message] }, planLimit: 'cadence' }
      : { form: [error.message], fields: {}, planLimit: 'cap' };
  }
  if (error.kind === 'validation_error' && error.extra.details) {
    const errors = errorsFromDetails(error.extra.details as ValidationDetails, values);
    return { ...errors, planLimit: cadenceRefused ? 'cadence' : null };
  }
  return null;
}

/** The create or edit form of a watch. */
async function renderWatchForm(
  s: DashboardServices,
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    mode: 'create' | 'edit';
    watch: WatchView | null;
    values: WatchFormValues;
    errors: WatchFormErrors;
    status: number;
  },
) {
  const principal = sessionOf(request).principal;
  return sendPage(
    reply,
    watchFormPage({
      viewer: await requireViewer(request, s.alerts),
      plan: principal.plan,
      activeCount: await s.watches.countActive(principal),
      ...o,
    }),
    o.status,
  );
}

async function loadWatch(
  s: DashboardServices,
  principal: Principal,
  id: string,
): Promise<WatchView> {
  return JSON.parse(await s.watches.get(principal, id)) as WatchView;
}

/** The owner's watches, active or inactive, a page at a time. */
function watchList(s: DashboardServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = sessionOf(request).principal;
    const requested = queryParam(request.query, 'status');
    const status: WatchStatusFilter = isStatusFilter(requested) ? requested : 'active';
    const cursor = queryParam(request.query, 'cursor');
    const page = await s.watches.list(principal, {
      limit: PAGE_SIZE,
      cursor,
      active: STATUS_FILTER[status],
    });
    const next = nextCursorOf(page, PAGE_SIZE);
    const nextHref = next === null ? null : `/watches?status=${status}&cursor=${next}`;
    let notice: Notice | null = noticeFrom(request.query);
    if (queryParam(request.query, 'notice') === 'cap-reached') {
      notice = {
        kind: 'error',
        message: html`${capMessage(principal.plan)} <a href="/pricing">Compare plans</a>`,
      };
    }
    return sendPage(
      reply,
      watchesPage({
        viewer: await requireViewer(request, s.alerts),
        plan: principal.plan,
        activeCount: await s.watches.countActive(principal),
        status,
        watches: pageItems<WatchView>(page, PAGE_SIZE),
        nextHref,
        notice,
        now: new Date(s.clock.now()),
        scanPollSeconds: s.scanPollSeconds,
      }),
    );
  };
}

export function watchRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/watches', { config: { dashboard: 'user' } }, watchList(s));

  app.get('/watches/new', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    return renderWatchForm(s, request, reply, {
      mode: 'create',
      watch: null,
      values: emptyValues(defaultCadence(principal)),
      errors: NO_ERRORS,
      status: 200,
    });
  });

  app.post('/watches', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    const values = valuesFromBody(request.body);
    const refuse = (errors: WatchFormErrors, status: number) =>
      renderWatchForm(s, request, reply, { mode: 'create', watch: null, values, errors, status });

    // The API's schema and messages, on the JSON the form stands for.
    const parsed = safeParseWithMessages(createWatchSchema, createInputFrom(values));
    if (!parsed.ok) return refuse(errorsFromDetails(flattenIssues(parsed.issues), values), 422);
    try {
      await s.watches.create(principal, parsed.value);
    } catch (error) {
      const errors = errorsFromServiceError(error, principal, parsed.value.scanCadence, values);
      if (errors === null) throw error;
      return refuse(errors, (error as ApiError).status);
    }
    return seeOther(reply, '/watches?notice=watch-created');
  });

  app.get<IdParams>(
    '/watches/:id/edit',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      const watch = await loadWatch(s, sessionOf(request).principal, request.params.id);
      return renderWatchForm(s, request, reply, {
        mode: 'edit',
        watch,
        values: valuesFromWatch(watch),
        errors: NO_ERRORS,
        status: 200,
      });
    },
  );

  app.post<IdParams>('/watches/:id', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    const watch = await loadWatch(s, principal, request.params.id);
    const values = valuesFromBody(request.body);
    const refuse = (errors: WatchFormErrors, status: number) =>
      renderWatchForm(s, request, reply, { mode: 'edit', watch, values, errors, status });

    const parsed = safeParseWithMessages(updateWatchSchema, updateInputFrom(values));
    if (!parsed.ok) return refuse(errorsFromDetails(flattenIssues(parsed.issues), values), 422);
    try {
      await s.watches.update(principal, watch.id, parsed.value);
    } catch (error) {
      const errors = errorsFromServiceError(error, principal, parsed.value.scanCadence, values);
      if (errors === null) throw error;
      return refuse(errors, (error as ApiError).status);
    }
    return seeOther(reply, '/watches?notice=watch-updated');
  });

  app.post<IdParams>(
    '/watches/:id/deactivate',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      await s.watches.deactivate(sessionOf(request).principal, request.params.id);
      return seeOther(reply, '/watches?notice=watch-deactivated');
    },
  );

  app.post<IdParams>(
    '/watches/:id/restore',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      try {
        await s.watches.update(sessionOf(request).principal, request.params.id, { active: true });
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'quota_exceeded') {
          return seeOther(reply, '/watches?status=inactive&notice=cap-reached');
        }
        throw error;
      }
      return seeOther(reply, '/watches?notice=watch-restored');
    },
  );
}
