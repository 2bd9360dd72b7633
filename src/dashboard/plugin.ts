import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.ts';
import { csrfTokenFor, looksLikeSecret, sameToken } from '../domain/sessions.ts';
import { PRESESSION_COOKIE, readCookie, SESSION_COOKIE } from '../http/cookies.ts';
import { toApiError } from '../http/error-handler.ts';
import { isSameOriginRequest } from '../http/same-origin.ts';
import { outageReason } from '../outage.ts';
import { type DashboardServices, safeNext, seeOther, sendPage, viewerOf } from './context.ts';
import { formField } from './form.ts';
import { alertRoutes } from './routes/alerts.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { authRoutes } from './routes/auth.ts';
import { pageRoutes } from './routes/pages.ts';
import { watchRoutes } from './routes/watches.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { CSP_DIRECTIVES, cspHeaderValue, REFERRER_POLICY } from './security.ts';
import { errorPage, notFoundPage } from './views/errors.ts';

const CROSS_SITE_MESSAGE =
  'This request came from another site, so it was refused. Use the dashboard’s own pages.';
const CSRF_MESSAGE =
  'This form has expired or did not come from this dashboard. Go back, reload the page and try again.';

/**
 * Before every dashboard handler: load the session, refuse cross-site and token-less state
 * changes, and send anonymous visitors of private pages to sign in. Runs after body parsing,
 * because the CSRF token of a form is in its body.
 */
function guard(s: DashboardServices) {
  return async function dashboardGuard(request: FastifyRequest, reply: FastifyReply) {
    const config = request.routeOptions.config;
    if (config.dashboard === undefined || config.dashboard === 'asset') return;
    // Pages hold account data (and once, a new key): never keep them in any cache.
    reply.header('cache-control', 'no-store');
    request.dashboardSession = await s.sessions.resume(readCookie(request, SESSION_COOKIE));

    const changesState = request.method !== 'GET' && request.method !== 'HEAD';
    if (changesState && !isSameOriginRequest(request)) {
      throw new ApiError('forbidden', CROSS_SITE_MESSAGE);
    }
    if (config.dashboard === 'user' && !request.dashboardSession) {
      if (changesState) return seeOther(reply, '/sign-in?notice=session-ended');
      const next = safeNext(request.url.split('?')[0]);
      return seeOther(
        reply,
        next !== null && next !== '/' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in',
      );
    }
    if (changesState) {
      let expected: string | null = request.dashboardSession?.csrfToken ?? null;
      if (config.csrf === 'sign-in') {
        const presession = readCookie(request, PRESESSION_COOKIE);
        expected = looksLikeSecret(presession) ? csrfTokenFor(presession) : null;
      }
      if (expected === null || !sameToken(expected, formField(request.body, '_csrf'))) {
        throw new ApiError('forbidden', CSRF_MESSAGE);
      }
    }
  };
}

/** Dashboard errors are pages, not JSON; the status and the 5xx discretion are the API's. */
function errorHandler(s: DashboardServices) {
  return async function dashboardError(
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const apiError = toApiError(error);
    if (apiError.kind === 'unavailable') {
      request.log.warn({ reason: outageReason(error) }, 'unavailable: answered 503');
    } else if (apiError.status >= 500)
      request.log.error({ err: error }, 'dashboard request failed');
    else request.log.info({ code: apiError.wireCode, message: apiError.message }, 'refused');
    if (apiError.extra.headers) reply.headers(apiError.extra.headers);
    const viewer = await viewerOf(request, s.alerts).catch(() => null);
    if (apiError.status === 404) return sendPage(reply, notFoundPage(viewer), 404);
    const message =
      apiError.status >= 500
        ? `Something went wrong on our side. Try again in a moment; if it keeps happening, give your administrator this reference: ${request.id}.`
        : apiError.message;
    return sendPage(
      reply,
      errorPage({ status: apiError.status, message, viewer }),
      apiError.status,
    );
  };
}

function dashboardContext(s: DashboardServices) {
  return async function dashboard(app: FastifyInstance) {
    // Scoped to this context: the API's JSON and /docs (swagger-ui) keep their own headers.
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      referrerPolicy: { policy: REFERRER_POLICY },
      frameguard: { action: 'deny' },
    });
    // HTML forms post urlencoded bodies; only dashboard routes accept them (the API stays JSON).
    await app.register(formbody);
    // Pages are not part of the API's OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    app.addHook('preHandler', guard(s));
    app.setErrorHandler(errorHandler(s));

    authRoutes(app, s);
    pageRoutes(app, s);
    apiKeyRoutes(app, s);
    watchRoutes(app, s);
    alertRoutes(app, s);
    webhookRoutes(app, s);
  };
}

/**
 * Unknown pages outside /api/v1, asked for by a browser, get an HTML 404 instead of the JSON
 * envelope; everything else (the API, non-browser clients, 405s) is left to the one error handler.
 */
function htmlNotFound(s: DashboardServices) {
  return async function dashboardNotFound(request: FastifyRequest, reply: FastifyReply) {
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/')) return;
    if (!request.headers.accept?.includes('text/html')) return;
    request.dashboardSession = await s.sessions.resume(readCookie(request, SESSION_COOKIE));
    reply.headers({
      'content-security-policy': cspHeaderValue(),
      'referrer-policy': REFERRER_POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
    return sendPage(reply, notFoundPage(await viewerOf(request, s.alerts)), 404);
  };
}

/** The dashboard: server-rendered pages at / (docs/dashboard.md), on the services it is given. */
export function dashboardPlugin(services: DashboardServices) {
  return fp(
    async (app: FastifyInstance) => {
      // No parsing hook: the API's requests never pay for cookies they do not use.
      await app.register(cookie, { hook: false });
      app.decorateRequest('dashboardSession', null);
      app.addHook('onRequest', htmlNotFound(services));
      await app.register(dashboardContext(services));
    },
    { name: 'tmwatch-dashboard' },
  );
}
