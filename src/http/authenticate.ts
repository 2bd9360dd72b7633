import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { AccountService } from '../domain/accounts.ts';
import { parseBearer, type Scope } from '../domain/api-keys.ts';
import { ApiError } from '../domain/errors.ts';
import { TIER_LABEL } from '../domain/plans.ts';
import type { Principal } from '../domain/principal.ts';
import { logFailure } from '../outage.ts';
import type { FailedAuthLimiter } from './rate-limit/failed-auth.ts';
import type { RateLimitStore } from './rate-limit/store.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an API route requires; null for none (GET /me). */
    scope?: Scope | null;
    /** GET /me answers every valid key, whatever its tier (pipeline step 4). */
    anyTier?: boolean;
    /**
     * 'session': the route authenticates by the dashboard session itself (DELETE
     * /api-keys/{id}), so this pipeline leaves it alone: no API key, no rate limit.
     */
    auth?: 'key' | 'session';
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const WINDOW_MS = 60_000;
const LAST_USED_EVERY_MS = 60_000;

export type AuthDeps = {
  accounts: AccountService;
  rateLimit: RateLimitStore;
  limitPerMinute: number;
  clock: Clock;
  failedAuth: FailedAuthLimiter;
};

/**
 * The /api/v1 pipeline after routing, in the order of docs/architecture.md: authenticate, count against the rate
 * limit (every authenticated request counts), then tier, then scope. Body, schema and visibility
 * checks come later in Fastify's lifecycle.
 */
export function apiAuthentication(deps: AuthDeps) {
  const countRequest = requestCounter(deps);
  return async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    if (request.routeOptions.config.auth === 'session') return;
    // An address that keeps failing is refused before its key costs a lookup (pipeline step 2 still
    // holds for everyone else: the limit counts failures only).
    const wait = deps.failedAuth.retryAfterSeconds(request.ip, deps.clock.now());
    if (wait > 0) {
      throw new ApiError(
        'rate_limited',
        `Too many requests with a missing or unknown API key from this address; retry in ${wait} seconds.`,
        { headers: { 'retry-after': String(wait) } },
      );
    }
    const token = parseBearer(request.headers.authorization);
    if (token === null) {
      deps.failedAuth.recordFailure(request.ip, deps.clock.now());
      throw new ApiError(
        'unauthenticated',
        'Send an API key as "Authorization: Bearer <key>"; the header is missing or malformed.',
      );
    }
    const principal = await deps.accounts.authenticate(token);
    if (!principal?.key) {
      deps.failedAuth.recordFailure(request.ip, deps.clock.now());
      throw new ApiError('unauthenticated', 'The API key is unknown or revoked.');
    }

    await countRequest(principal.key.id, reply);
    const now = deps.clock.now();

    if (
      principal.lastUsedAt === null ||
      now - principal.lastUsedAt.getTime() > LAST_USED_EVERY_MS
    ) {
      // Bookkeeping must never fail or slow the request it describes.
      deps.accounts.touchKey(principal.key.id).catch((error: unknown) => {
        logFailure(request.log, error, {}, 'could not record key use');
      });
    }
    request.principal = principal;

    const config = request.routeOptions.config;
    if (!config.anyTier && !principal.plan.apiAccess) {
      throw new ApiError(
        'forbidden',
        `REST API access is not included in the ${TIER_LABEL[principal.plan.tier]} plan; it requires the Team or Enterprise plan.`,
      );
    }
    const scope = config.scope ?? null;
    if (scope !== null && !principal.key.scopes.includes(scope)) {
      throw new ApiError('forbidden', `This API key lacks the required scope ${scope}.`);
    }
  };
}

/** Counts one authenticated request of `subject` against the rate limit; 429 past it. */
export type RequestCounter = (subject: string, reply: FastifyReply) => Promise<void>;

/**
 * The rate limit of pipeline step 3, for API keys here and for the dashboard session on the session
 * route: every authenticated request counts, and its response carries the X-RateLimit-* headers.
 */
export function requestCounter(
  deps: Pick<AuthDeps, 'rateLimit' | 'limitPerMinute' | 'clock'>,
): RequestCounter {
  return async (subject, reply) => {
    const now = deps.clock.now();
    const windowStart = now - (now % WINDOW_MS);
    const count = await deps.rateLimit.hit(subject, windowStart, WINDOW_MS);
    const limit = deps.limitPerMinute;
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - count)));
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter} seconds.`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
  };
}

/** The principal of a route behind apiAuthentication. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
