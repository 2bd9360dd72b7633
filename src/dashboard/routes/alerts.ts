import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseReviewQuery } from '../../domain/alerts/review.ts';
import { ALERT_STATES, type AlertState } from '../../domain/alerts/types.ts';
import { ApiError } from '../../domain/errors.ts';
import type { Principal } from '../../domain/principal.ts';
import { csvRecord, csvStream } from '../alerts-csv.ts';
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
import { formField, formList } from '../form.ts';
import { type AlertView, alertDetailPage, alertsPage, reviewSearch } from '../views/alerts.ts';
import type { Notice } from '../views/components.ts';

const isState = (value: string): value is AlertState =>
  (ALERT_STATES as readonly string[]).includes(value);

// Where a triage form may send the browser back to: an alerts page of this dashboard, with the
// list's own query (URLSearchParams text: letters, digits, %-escapes, +, *, ., _ and -).
const RETURN_PATH = /^\/alerts(\/alt_[0-9A-Za-z]{1,64})?(\?[A-Za-z0-9_=&%+*.-]*)?$/;

/** Every value of a repeated query parameter (`?state=read&state=unread`). */
function queryList(query: unknown, name: string): string[] {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, name)) return [];
  const value = (query as Record<string, unknown>)[name];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

function reviewQueryOf(query: unknown) {
  return parseReviewQuery({
    state: queryList(query, 'state'),
    severity: queryList(query, 'severity'),
    origin: queryParam(query, 'origin'),
    watch: queryParam(query, 'watch'),
    q: queryParam(query, 'q'),
    sort: queryParam(query, 'sort'),
  });
}

/** "12 alerts marked dismissed": the state and count travel as checked values, never as text. */
function bulkNotice(query: unknown): Notice | null {
  const state = queryParam(query, 'marked');
  const count = queryParam(query, 'count');
  if (state === undefined || !isState(state) || count === undefined || !/^\d{1,3}$/.test(count)) {
    return null;
  }
  const n = Number(count);
  return { kind: 'success', message: `${n} alert${n === 1 ? '' : 's'} marked ${state}` };
}

const withParams = (path: string, params: Record<string, string>) =>
  `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(params).toString()}`;

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

/** The owner's watches for the filter form (the first 200: more than any plan allows today). */
async function watchChoices(s: DashboardServices, principal: Principal) {
  const rows = await s.watches.list(principal, { limit: 200 });
  return rows
    .slice(0, 200)
    .map((row) => JSON.parse(row.toString('utf8')) as { id: string; name: string })
    .map(({ id, name }) => ({ id, name }));
}

/** The review desk's list: the filters of the query, one page, the counts of each choice. */
function alertList(s: DashboardServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = sessionOf(request).principal;
    const parsed = reviewQueryOf(request.query);
    // A list that cannot be read as asked shows the inbox and says why (never an error page).
    const query =
      parsed.problems.length > 0
        ? parseReviewQuery({
            state: [],
            severity: [],
            origin: undefined,
            watch: undefined,
            q: undefined,
            sort: undefined,
          }).query
        : parsed.query;
    const cursor = parsed.problems.length > 0 ? undefined : queryParam(request.query, 'cursor');
    let page: Awaited<ReturnType<typeof s.review.page>>;
    const problems = [...parsed.problems];
    try {
      page = await s.review.page(principal, query, cursor, PAGE_SIZE);
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'malformed_request') throw error;
      problems.push(error.message);
      page = await s.review.page(principal, query, undefined, PAGE_SIZE);
    }
    const alerts = page.rows.map((row) => ({
      alert: JSON.parse(row.json) as AlertView,
      note: row.note,
    }));
    const nextHref =
      page.next === null ? null : `/alerts${reviewSearch(query, { cursor: page.next })}`;
    return sendPage(
      reply,
      alertsPage({
        viewer: await requireViewer(request, s.alerts),
        query,
        problems,
        counts: await s.review.counts(principal, query),
        watches: await watchChoices(s, principal),
        alerts,
        watchNames: await watchNamesOf(
          s,
          principal,
          alerts.map((item) => item.alert.watchId),
        ),
        nextHref,
        notice: bulkNotice(request.query) ?? noticeFrom(request.query),
        now: new Date(s.clock.now()),
      }),
    );
  };
}

/** Every alert of the list's filters, for the client: streamed page by page (alerts-csv.ts). */
function alertExport(s: DashboardServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = sessionOf(request).principal;
    const parsed = reviewQueryOf(request.query);
    if (parsed.problems.length > 0) {
      throw new ApiError('malformed_request', parsed.problems.join(' '));
    }
    const names = new Map<string, string>();
    async function* records() {
      for await (const rows of s.review.all(principal, parsed.query)) {
        const alerts = rows.map((row) => ({
          alert: JSON.parse(row.json) as AlertView,
          note: row.note,
        }));
        const unknown = alerts.map((item) => item.alert.watchId).filter((id) => !names.has(id));
        if (unknown.length > 0) {
          for (const [id, name] of await watchNamesOf(s, principal, unknown)) names.set(id, name);
        }
        yield alerts.map((item) =>
          csvRecord(item.alert, item.note, names.get(item.alert.watchId) ?? ''),
        );
      }
    }
    const day = new Date(s.clock.now()).toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="alerts-${day}.csv"`)
      .send(csvStream(records()));
  };
}

export function alertRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/alerts', { config: { dashboard: 'user' } }, alertList(s));
  app.get('/alerts.csv', { config: { dashboard: 'user' } }, alertExport(s));

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
          note: await s.review.note(principal, alert.id),
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

  // Bulk triage: each alert changes as PATCH /api/v1/alerts/{id} would, all in one transaction.
  app.post('/alerts/bulk', { config: { dashboard: 'user' } }, async (request, reply) => {
    const state = formField(request.body, 'state');
    if (!isState(state)) {
      throw new ApiError(
        'validation_error',
        'Choose what to mark the selected alerts: read, unread or dismissed.',
      );
    }
    const ids = formList(request.body, 'ids');
    const back = formField(request.body, 'return');
    const list = RETURN_PATH.test(back) ? back : '/alerts';
    if (ids.length === 0) return seeOther(reply, withParams(list, { notice: 'none-selected' }));
    const count = await s.review.bulkSetState(sessionOf(request).principal, ids, state);
    return seeOther(reply, withParams(list, { marked: state, count: String(count) }));
  });

  app.post<{ Params: { id: string } }>(
    '/alerts/:id/note',
    { config: { dashboard: 'user' } },
    async (request, reply) => {
      const text = formField(request.body, 'note');
      await s.review.setNote(sessionOf(request).principal, request.params.id, text);
      const notice = text.trim() === '' ? 'note-cleared' : 'note-saved';
      return seeOther(reply, `/alerts/${request.params.id}?notice=${notice}`);
    },
  );
}
