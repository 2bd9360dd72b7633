import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { AccountService } from '../domain/accounts.ts';
import type { AlertReviewService } from '../domain/alerts/review.ts';
import type { AlertService } from '../domain/alerts/service.ts';
import { TIER_LABEL } from '../domain/plans.ts';
import type { DashboardSession, SessionService } from '../domain/sessions.ts';
import type { SignInService } from '../domain/sign-in.ts';
import type { WatchService } from '../domain/watches.ts';
import type { WebhookService } from '../domain/webhooks.ts';
import type { SafeHtml } from './html.ts';
import type { Notice } from './views/components.ts';
import type { Viewer } from './views/layout.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may open a dashboard route: 'user' sends anonymous visitors to /sign-in, 'anyone' loads
     * the session when there is one, 'asset' skips sessions altogether.
     */
    dashboard?: 'user' | 'anyone' | 'asset';
    /** Which CSRF token a POST must carry: the session's (default) or the sign-in form's. */
    csrf?: 'session' | 'sign-in';
  }
  interface FastifyRequest {
    dashboardSession: DashboardSession | null;
  }
}

/** What every dashboard route may use: the API's own services, plus sessions and sign-in. */
export type DashboardServices = {
  accounts: AccountService;
  watches: WatchService;
  alerts: AlertService;
  /** The review desk: filtered lists, bulk triage, notes, the export. */
  review: AlertReviewService;
  webhooks: WebhookService;
  sessions: SessionService;
  signIn: SignInService;
  /** "Opposition closes in N days" is counted from its now. */
  clock: Clock;
  /** SCAN_POLL_SECONDS: a watch younger than this is waiting for its first scan. */
  scanPollSeconds: number;
};

/** The session of a route behind `dashboard: 'user'`. */
export function sessionOf(request: FastifyRequest): DashboardSession {
  if (!request.dashboardSession) throw new Error('dashboard route reached without a session');
  return request.dashboardSession;
}

export async function viewerOf(
  request: FastifyRequest,
  alerts: AlertService,
): Promise<Viewer | null> {
  const session = request.dashboardSession;
  if (!session) return null;
  const p = session.principal;
  return {
    email: p.email,
    planLabel: TIER_LABEL[p.plan.tier],
    organization: p.organization?.name ?? null,
    csrfToken: session.csrfToken,
    // The unread badge, on every page (alert state drives it).
    unread: await alerts.unreadCount(p),
  };
}

export async function requireViewer(request: FastifyRequest, alerts: AlertService) {
  const viewer = await viewerOf(request, alerts);
  if (!viewer) throw new Error('dashboard route reached without a session');
  return viewer;
}

export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200) {
  return reply.code(status).type('text/html; charset=utf-8').send(page.toString());
}

/** After a POST: 303 makes the browser GET the next page, so reload never re-submits. */
export function seeOther(reply: FastifyReply, location: string) {
  return reply.redirect(location, 303);
}

// Confirmations travel as a fixed code in the query string: never user data. A Map, because it
// is looked up by whatever the query says (`?notice=constructor` must find nothing).
const NOTICES: ReadonlyMap<string, Notice> = new Map<string, Notice>([
  ['signed-out', { kind: 'success', message: 'You have signed out.' }],
  [
    'session-ended',
    { kind: 'info', message: 'Your session has ended. Sign in again to continue.' },
  ],
  [
    'key-revoked',
    {
      kind: 'success',
      message: 'The key was revoked. Requests that use it are refused from now on.',
    },
  ],
  [
    'watch-created',
    { kind: 'success', message: 'Watch created. Its first scan starts within a minute.' },
  ],
  ['watch-updated', { kind: 'success', message: 'Changes saved.' }],
  [
    'watch-deactivated',
    {
      kind: 'success',
      message: 'Watch deactivated. It is no longer scanned; you can restore it at any time.',
    },
  ],
  [
    'watch-restored',
    { kind: 'success', message: 'Watch restored. Scanning resumes within a minute.' },
  ],
  ['note-saved', { kind: 'success', message: 'Note saved.' }],
  ['note-cleared', { kind: 'success', message: 'Note removed.' }],
  [
    'none-selected',
    { kind: 'warning', message: 'No alerts were selected: tick the alerts to change first.' },
  ],
  ['webhook-enabled', { kind: 'success', message: 'Endpoint enabled. Deliveries resume.' }],
  [
    'webhook-disabled',
    { kind: 'success', message: 'Endpoint disabled. Its events wait until you enable it again.' },
  ],
  ['webhook-deleted', { kind: 'success', message: 'Endpoint deleted, with its deliveries.' }],
  [
    'webhook-test-queued',
    {
      kind: 'success',
      message: 'Test event queued: it is sent within a few seconds (see Recent deliveries).',
    },
  ],
]);

export function noticeFrom(query: unknown): Notice | null {
  const code = queryParam(query, 'notice');
  return code === undefined ? null : (NOTICES.get(code) ?? null);
}

export function queryParam(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, name)) return undefined;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

const LOCAL_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*$/;

/** A path of this dashboard to return to after sign-in, or null: never another site. */
export function safeNext(value: string | undefined): string | null {
  if (value === undefined || !LOCAL_PATH.test(value) || value.startsWith('/sign-')) return null;
  return value;
}

export const PAGE_SIZE = 25;
