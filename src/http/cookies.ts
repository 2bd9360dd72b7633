import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Cookies go through @fastify/cookie, registered by the dashboard plugin without its parsing
// hook: only the routes that care (the dashboard, DELETE /api/v1/api-keys/{id}) read them.

/** The session token (see src/domain/sessions.ts); HttpOnly, so page scripts never see it. */
export const SESSION_COOKIE = 'tmw_session';
/** The sign-in form's pre-session secret: its CSRF token is derived from it. */
export const PRESESSION_COOKIE = 'tmw_presession';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  return request.server.parseCookie(header)[name];
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent with cross-site POSTs or subrequests),
 * Path=/ (the dashboard and the key-revocation API both need it), and Secure whenever the request
 * came over https, as Fastify sees it: behind a TLS-terminating proxy, configure trustProxy so
 * that X-Forwarded-Proto counts.
 */
export function cookieOptions(secure: boolean, maxAgeSeconds: number): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: maxAgeSeconds };
}

export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
) {
  reply.setCookie(name, value, cookieOptions(request.protocol === 'https', maxAgeSeconds));
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string) {
  reply.clearCookie(name, cookieOptions(request.protocol === 'https', 0));
}
