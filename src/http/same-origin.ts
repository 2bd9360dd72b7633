import type { FastifyRequest } from 'fastify';

/**
 * The Origin check of CSRF protection: a state-changing request must come from a page of this
 * very origin. Browsers send Origin on every POST and DELETE (our Referrer-Policy, same-origin,
 * keeps it so); Referer is the fallback for the rare request without one. A request with
 * neither, or `Origin: null`, is refused: no page of ours sends one.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  // Fetch metadata, where the browser sends it: same-site is still another origin (a sibling
  // subdomain, another port), so only same-origin passes.
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return false;
  const origin = request.headers.origin;
  if (typeof origin === 'string') return matchesOwnOrigin(request, origin);
  const referer = request.headers.referer;
  if (typeof referer === 'string') return matchesOwnOrigin(request, referer);
  return false;
}

function matchesOwnOrigin(request: FastifyRequest, value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.host !== request.host) return false;
  // Behind a TLS-terminating proxy (without trustProxy) the page is https while this server sees
  // http: same host and port, so the same origin as far as the user is concerned.
  return url.protocol === `${request.protocol}:` || url.protocol === 'https:';
}
