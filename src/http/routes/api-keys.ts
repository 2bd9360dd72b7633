import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountService } from '../../domain/accounts.ts';
import { ApiError } from '../../domain/errors.ts';
import { type DashboardSession, type SessionService, sameToken } from '../../domain/sessions.ts';
import type { RequestCounter } from '../authenticate.ts';
import { readCookie, SESSION_COOKIE } from '../cookies.ts';
import { apiKeyExample } from '../examples.ts';
import { sendData } from '../reply.ts';
import { isSameOriginRequest } from '../same-origin.ts';
import { ApiKeySchema, dataOf, errorResponses, idParams } from '../schemas.ts';

export const CSRF_HEADER = 'x-csrf-token';

/** The OpenAPI security scheme of routes authenticated by the dashboard session. */
export const SESSION_SECURITY_SCHEME = {
  type: 'apiKey' as const,
  in: 'cookie' as const,
  name: SESSION_COOKIE,
  description:
    'The dashboard session cookie, set at sign-in. Requests must also come from the dashboard’s own origin (Origin header) and carry its CSRF token in X-CSRF-Token.',
};

/** Adds the session-cookie scheme and the API keys tag to the API's OpenAPI description. */
export function withSessionCookieAuth<
  T extends { components: { securitySchemes: object }; tags: object[] },
>(info: T): T {
  return {
    ...info,
    components: {
      ...info.components,
      securitySchemes: {
        ...info.components.securitySchemes,
        sessionCookie: SESSION_SECURITY_SCHEME,
      },
    },
    tags: [
      ...info.tags,
      {
        name: 'API keys',
        description: 'Keys are minted in the dashboard; revoking one takes the dashboard session.',
      },
    ],
  };
}

const sessions = new WeakMap<FastifyRequest, DashboardSession>();

/**
 * DELETE /api/v1/api-keys/{id}: authenticated by the dashboard session cookie,
 * never by an API key, and refused when cross-site. In order: no live session → 401; another
 * origin, or no matching CSRF token → 403; a key that is not the caller's → 404; revoked already →
 * 200 with the first revocation time.
 */
export function revokeKeyApiRoute(
  api: FastifyInstance,
  deps: { accounts: AccountService; sessions: SessionService; countRequest: RequestCounter },
) {
  api.withTypeProvider<ZodTypeProvider>().delete('/api-keys/:id', {
    config: { auth: 'session' },
    schema: {
      operationId: 'revokeApiKey',
      tags: ['API keys'],
      security: [{ sessionCookie: [] }],
      summary: 'Revoke an API key (dashboard session)',
      description:
        'Called by the dashboard. Authenticated by the dashboard session cookie, not by an API key: a Bearer key alone is a 401. The request must come from the dashboard’s origin (`Origin`, or `Referer`) and carry the session’s CSRF token in `X-CSRF-Token`; otherwise 403 `forbidden`. A key that is not the signed-in user’s is a 404. Revoking a key that is already revoked is a 200 and keeps the first `revokedAt`. Each signed-in request counts against the user’s rate limit, as API requests count against their key’s (429 with `Retry-After` past it). Requests that use the key are refused from the very next one.',
      params: idParams,
      headers: z.looseObject({
        [CSRF_HEADER]: z.string().optional().meta({ description: 'The dashboard’s CSRF token.' }),
      }),
      response: { 200: dataOf(ApiKeySchema, apiKeyExample), ...errorResponses(401, 403, 404, 429) },
    },
    onRequest: async (request, reply) => {
      const session = await deps.sessions.resume(readCookie(request, SESSION_COOKIE));
      if (!session) {
        throw new ApiError(
          'unauthenticated',
          'Sign in to the dashboard: this endpoint is authenticated by the dashboard session cookie, not by an API key.',
        );
      }
      // Every signed-in request counts against the rate limit of its user (pipeline step 3).
      await deps.countRequest(`session:${session.principal.userId}`, reply);
      if (!isSameOriginRequest(request)) {
        throw new ApiError(
          'forbidden',
          'Cross-site request refused: it did not come from the dashboard.',
        );
      }
      if (!sameToken(session.csrfToken, request.headers[CSRF_HEADER])) {
        throw new ApiError(
          'forbidden',
          'The X-CSRF-Token header is missing or does not match the dashboard session.',
        );
      }
      sessions.set(request, session);
    },
    handler: async (request, reply) => {
      const session = sessions.get(request);
      if (!session) throw new Error('route reached without a session');
      const key = await deps.accounts.revokeKey(request.params.id, session.principal.userId);
      request.log.info({ keyId: key.id }, 'API key revoked through the session API');
      return sendData(reply, 200, JSON.stringify(key));
    },
  });
}
