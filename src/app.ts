import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import { type Clock, systemClock } from './clock.ts';
import { dashboardPlugin } from './dashboard/plugin.ts';
import type { Db } from './data/db.ts';
import { type ListReads, listReads, primaryOnly, type ReadReplica } from './data/replica.ts';
import { createAccountService } from './domain/accounts.ts';
import { createAlertReviewService } from './domain/alerts/review.ts';
import { createAlertService } from './domain/alerts/service.ts';
import { ApiError } from './domain/errors.ts';
import { createSessionService } from './domain/sessions.ts';
import { createSignInService } from './domain/sign-in.ts';
import { createWatchService } from './domain/watches.ts';
import { createWebhookService } from './domain/webhooks.ts';
import { apiAuthentication, requestCounter } from './http/authenticate.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
} from './http/error-handler.ts';
import { useStrictJsonBodies } from './http/json-body.ts';
import { openApiDocumentTransform, openApiRouteTransform } from './http/openapi-document.ts';
import { openApiInfo } from './http/openapi-info.ts';
import { FailedAuthLimiter } from './http/rate-limit/failed-auth.ts';
import type { RateLimitStore } from './http/rate-limit/store.ts';
import { RequestLogController } from './http/request-log.ts';
import { alertRoutes } from './http/routes/alerts.ts';
import { revokeKeyApiRoute, withSessionCookieAuth } from './http/routes/api-keys.ts';
import { healthRoutes } from './http/routes/health.ts';
import { meRoutes } from './http/routes/me.ts';
import { watchRoutes } from './http/routes/watches.ts';
import { webhookRoutes } from './http/routes/webhooks.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { DEFAULT_POLL_SECONDS } from './runner.ts';

export type AppDeps = {
  db: Db;
  /**
   * Where the API reads its lists (DATABASE_REPLICA_URL: a standby, data/replica.ts); default: `db`.
   * Everything else, authentication included, reads and writes `db`.
   */
  reads?: ReadReplica;
  logger: Logger;
  rateLimit: RateLimitStore;
  rateLimitPerMinute: number;
  clock?: Clock;
  /** Memory for the GET /alerts pages kept between requests (ALERT_LIST_CACHE_MB); 0: none. */
  alertListCacheBytes?: number;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: webhook URLs may be http:// and name private addresses. */
  webhookAllowPrivateUrls?: boolean;
  /** The service's public base URL (PUBLIC_URL): the `servers` entry of the OpenAPI document. */
  publicUrl?: string;
  /** TRUST_PROXY: whose X-Forwarded-* headers give the client address and protocol. */
  trustProxy?: boolean | string[];
  /** REQUEST_TIMEOUT_SECONDS in ms: a request not fully received by then gets 408, connection closed. */
  requestTimeoutMs?: number;
  /** MAX_CONNECTIONS: connections held at once; further ones are closed on arrival. */
  maxConnections?: number;
  /** Failed API authentications one client address may make per minute before 429 (no lookup). */
  failedAuthPerMinute?: number;
  /** DATABASE_STATEMENT_TIMEOUT_SECONDS in ms: each statement of a request, then 503. */
  statementTimeoutMs?: number;
  /**
   * SCAN_POLL_SECONDS: how soon a new watch's first scan starts; the dashboard says a watch younger
   * than this is waiting for it. Default: SCAN_POLL_SECONDS's.
   */
  scanPollSeconds?: number;
};

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 1000;
export const DEFAULT_FAILED_AUTH_PER_MINUTE = 300;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 1_500;
/** Retry-After of a 503 during shutdown: about the time another instance or a restart takes. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

// Accept a caller's request id if it is harmless to log; otherwise make one.
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
function requestId(request: { headers: Record<string, unknown> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming)
    ? incoming
    : `req_${randomUUID().replaceAll('-', '')}`;
}

/** The Fastify instance with the service's limits and error handling of requests it refuses. */
function createFastify(deps: AppDeps): FastifyInstance {
  const requestTimeout = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast only stops Fastify typing itself by pino's type.
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestId,
    logController: new RequestLogController(),
    trustProxy: deps.trustProxy ?? false,
    // A slow client (headers or a body trickled a byte at a time) holds a connection for at most
    // this long: then Node answers 408 through clientErrorHandler and closes it. Node checks the
    // deadlines every connectionsCheckingInterval (30 s by default, which would double the limit).
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Requests that arrive while the server closes get our own 503 (below), not Fastify's body.
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler,
    // Past find-my-way's default of 100 characters a path parameter is a routing error (a 500 if
    // nothing maps it). An over-long id must go through the pipeline like any other malformed id:
    // authentication first, then 404. Node's own header limit (16 KiB) bounds the URL.
    routerOptions: { maxParamLength: 65_536 },
  });
  // Beyond this many connections Node closes new ones on arrival, before they cost anything.
  app.server.maxConnections = deps.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  return app;
}

/** Every domain service, built once and handed to the routes. */
function createServices(deps: AppDeps, clock: Clock, lists: ListReads) {
  return {
    accounts: createAccountService(deps.db),
    watches: createWatchService(deps.db, { lists }),
    alerts: createAlertService(deps.db, { pageCacheBytes: deps.alertListCacheBytes, lists }),
    review: createAlertReviewService(deps.db, clock),
    webhooks: createWebhookService(deps.db, {
      allowPrivateUrls: deps.webhookAllowPrivateUrls ?? false,
      lists,
    }),
    sessions: createSessionService({ db: deps.db, clock }),
    signIn: createSignInService({ db: deps.db, clock }),
  };
}

type Services = ReturnType<typeof createServices>;

/**
 * Between the start of a shutdown and the last request in flight, a new request (on a kept-alive
 * connection) is told to go elsewhere: 503 `unavailable` with Retry-After, in the envelope. Every
 * response carries its request id.
 */
function refuseWhileClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      throw new ApiError('unavailable', 'The service is shutting down; retry in a moment.', {
        headers: { 'retry-after': String(SHUTDOWN_RETRY_AFTER_SECONDS) },
      });
    }
  });
}

/** Methods that never write. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes for the lists read from a standby: before the answer to a request that may have
 * written (any other method, by an API key or a dashboard session) leaves, the primary's position
 * is noted for the owner, whose lists then read the primary until the standby has replayed it.
 * Refused requests (4xx) wrote nothing; a 5xx may have failed after its commit.
 */
function noteOwnerWrites(app: FastifyInstance, lists: ListReads) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (READ_ONLY_METHODS.has(request.method)) return payload;
    if (reply.statusCode >= 400 && reply.statusCode < 500) return payload;
    const ownerId = (request.principal ?? request.dashboardSession?.principal)?.ownerId;
    if (ownerId !== undefined) await lists.wrote(ownerId);
    return payload;
  });
}

/** The API under /api/v1: authentication, rate limit, body rules, then the routes. */
function apiPlugin(deps: AppDeps, services: Services, clock: Clock) {
  return async (api: FastifyInstance) => {
    // JSON is the only body the API takes; anything else is a 415 (pipeline step 6).
    api.removeContentTypeParser(['text/plain']);
    useStrictJsonBodies(api);
    api.addHook(
      'onRequest',
      apiAuthentication({
        accounts: services.accounts,
        rateLimit: deps.rateLimit,
        limitPerMinute: deps.rateLimitPerMinute,
        clock,
        failedAuth: new FailedAuthLimiter(
          deps.failedAuthPerMinute ?? DEFAULT_FAILED_AUTH_PER_MINUTE,
        ),
      }),
    );
    // A POST or PATCH without any body is "empty JSON" (400), not a schema failure (pipeline step 6);
    // a route that takes no body (POST /webhooks/{id}/rotate-secret) declares no body schema.
    api.addHook('preValidation', async (request: FastifyRequest) => {
      if (
        (request.method === 'POST' || request.method === 'PATCH') &&
        request.routeOptions.schema?.body !== undefined &&
        request.body === undefined
      ) {
        throw new ApiError('malformed_request', 'The request body is empty; send a JSON object.');
      }
    });
    meRoutes(api);
    watchRoutes(api, services.watches);
    alertRoutes(api, services.alerts);
    webhookRoutes(api, services.webhooks);
    revokeKeyApiRoute(api, {
      accounts: services.accounts,
      sessions: services.sessions,
      countRequest: requestCounter({
        rateLimit: deps.rateLimit,
        limitPerMinute: deps.rateLimitPerMinute,
        clock,
      }),
    });
  };
}

/** The HTTP application. It never listens: src/start/serve.ts (or a test) does that. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = createFastify(deps);
  const clock = deps.clock ?? systemClock;
  // Everything that serves requests reads the database through views with this deadline, so that
  // every statement of a request (its authentication and its lists on a standby included) has it:
  // a frozen database costs a request a 503 after it, never a wait without end.
  const statementTimeoutMs = deps.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const db = deps.db.withStatementTimeout(statementTimeoutMs);
  const lists = listReads(deps.reads ?? primaryOnly(deps.db), statementTimeoutMs);
  const services = createServices({ ...deps, db }, clock, lists);

  app.decorateRequest('principal', null);
  refuseWhileClosing(app);
  noteOwnerWrites(app, lists);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are serialised by PostgreSQL or JSON.stringify; response schemas only document them.
  app.setSerializerCompiler(
    () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
  );
  registerErrorHandling(app);

  await app.register(swagger, {
    openapi: withSessionCookieAuth(openApiInfo),
    transform: openApiRouteTransform,
    transformObject: openApiDocumentTransform(deps.publicUrl),
  });

  healthRoutes(app, db, deps.rateLimit);
  await app.register(apiPlugin(deps, services, clock), { prefix: '/api/v1' });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } });
  await app.register(
    dashboardPlugin({
      ...services,
      clock,
      scanPollSeconds: deps.scanPollSeconds ?? DEFAULT_POLL_SECONDS,
    }),
  );

  return app;
}
