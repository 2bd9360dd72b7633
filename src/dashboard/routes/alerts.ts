import type { FastifyInstance } from 'fastify';
import { ALERT_STATES, type AlertState } from '../../domain/alerts.ts';
import { ApiError } from '../../domain/errors.ts';
import { nextCursorOf, pageItems } from '../../domain/pagination.ts';
import type { Principal } from '../../domain/principal.ts';
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
import { formField } from '../form.ts';
import {
  ALERT_FILTERS,
  type AlertFilter,
  type AlertView,
  alertDetailPage,
  alertsPage,
} from '../views/alerts.ts';

const STATES_OF: Record<AlertFilter, AlertState[] | undefined> = {
  inbox: ['unread', 'read'],
  unread: ['unread'],
  read: ['read'],
  dismissed: ['dismissed'],
  all: undefined,
};

const isFilter = (value: string | undefined): value is AlertFilter =>
  value !== undefined && (ALERT_FILTERS as readonly string[]).includes(value);
const isState = (value: string): value is AlertState =>
  (ALERT_STATES as readonly string[]).includes(value);

const WATCH_ID = /^wat_[0-9A-Za-z]{1,64}$/;
// Where a triage button may send the browser back to: an alerts page of this dashboard.
const RETURN_PATH = /^\/alerts(\/alt_[0-9A-Za-z]{1,64})?(\?[A-Za-z0-9_=&-]*)?$/;

/** Names of the watches some alerts belong to, for "may conflict with …". */
export async function watchNamesOf(
  s: DashboardServices,
  principal: Principal,
  watchIds: string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(watchIds)];
  const names = await Promise.all(
    ids.map(async (id) => {
      try {
        return [id, (JSON.parse(await s.watches.get(principal, id)) as { name: string }).name];
      } catch {
        return [id, null];
      }
    }),
  );
  return new Map(names.filter((entry): entry is [string, string] => entry[1] !== null));
}

export function alertRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/alerts', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    const requested = queryParam(request.query, 'state');
    const filter: AlertFilter = isFilter(requested) ? requested : 'inbox';
    const watchId = queryParam(request.query, 'watch');
    let watch: { id: string; name: string } | null = null;
    if (watchId !== undefined && WATCH_ID.test(watchId)) {
      const names = await watchNamesOf(s, principal, [watchId]);
      const name = names.get(watchId);
      if (name !== undefined) watch = { id: watchId, name };
    }
    const page = await s.alerts.list(principal, {
      limit: PAGE_SIZE,
      cursor: queryParam(request.query, 'cursor'),
      states: STATES_OF[filter],
      watchId: watch?.id,
    });
    const alerts = pageItems<AlertView>(page, PAGE_SIZE);
    const base = `/alerts?state=${filter}${watch ? `&watch=${watch.id}` : ''}`;
    const next = nextCursorOf(page, PAGE_SIZE);
    const nextHref = next === null ? null : `${base}&cursor=${next}`;
    return sendPage(
      reply,
      alertsPage({
        viewer: await requireViewer(request, s.alerts),
        filter,
        watch,
        alerts,
        watchNames: await watchNamesOf(
          s,
          principal,
          alerts.map((alert) => alert.watchId),
        ),
        returnTo: base,
        nextHref,
        notice: noticeFrom(request.query),
        now: new Date(s.clock.now()),
      }),
    );
  });

  // The alert e-mail links here.
  app.get<{ Params: { id: string } }>(
    '/alerts/:id',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      const principal = sessionOf(request).principal;
      const alert = JSON.parse(await s.alerts.get(principal, request.params.id)) as AlertView;
      const names = await watchNamesOf(s, principal, [alert.watchId]);
      return sendPage(
        reply,
        alertDetailPage({
          viewer: await requireViewer(request, s.alerts),
          alert,
          watchName: names.get(alert.watchId) ?? null,
          notice: noticeFrom(request.query),
          now: new Date(s.clock.now()),
        }),
      );
    },
  );

  // Triage: the same state change as PATCH /api/v1/alerts/{id}.
  app.post<{ Params: { id: string } }>(
    '/alerts/:id/state',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      const state = formField(request.body, 'state');
      if (!isState(state)) {
        throw new ApiError('validation_error', 'Expected one of unread, read, dismissed.');
      }
      await s.alerts.setState(sessionOf(request).principal, request.params.id, state);
      const back = formField(request.body, 'return');
      return seeOther(reply, RETURN_PATH.test(back) ? back : '/alerts');
    },
  );
}
