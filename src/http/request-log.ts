import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

// Query parameters whose value is a credential whatever it looks like, and tokens of ours that
// may travel under any name (`?k=tmw_…`) or inside the path.
const SECRET_PARAM =
  /^(api[_-]?key|key|token|access[_-]?token|secret|password|passwd|auth|authorization|session|csrf)$/i;
const OUR_TOKENS = /\b(tmw|whsec|tmws)_[A-Za-z0-9_-]+/g;

/** A URL as it may be logged: credentials in its query string and any of our tokens redacted. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  let query = at === -1 ? '' : url.slice(at + 1);
  if (query !== '') {
    query = query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq === -1) return pair;
        let name = pair.slice(0, eq);
        try {
          name = decodeURIComponent(name.replaceAll('+', ' '));
        } catch {
          // A name that does not decode is compared as it is.
        }
        return SECRET_PARAM.test(name.trim()) ? `${pair.slice(0, eq)}=[redacted]` : pair;
      })
      .join('&');
  }
  const whole = at === -1 ? path : `${path}?${query}`;
  return whole.replace(OUR_TOKENS, '$1_[redacted]');
}

/**
 * Fastify's per-request log lines, replaced: no "incoming request" line, one `debug` line per
 * completed request (an idle dashboard otherwise writes a pair of `info` lines every few seconds),
 * its URL redacted, and a request the client abandoned is `info` without a stack: the client
 * going away is not a fault of the service.
 */
export class RequestLogController extends LogController {
  // The start line only at trace: it doubles the log for what the completion line says anyway.
  override incomingRequest(request: FastifyRequest) {
    request.log.trace({ method: request.method, url: redactUrl(request.url) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) {
      reply.log.info(
        { ...line, reason: (error as { code?: string }).code ?? error.message },
        'response not completed (the client went away)',
      );
    } else {
      reply.log.debug(line, 'request completed');
    }
  }

  override streamError(
    error: Error & { code?: string },
    _request: FastifyRequest,
    reply: FastifyReply,
  ) {
    reply.log.info({ reason: error.code ?? error.message }, 'response stream ended early');
  }
}
