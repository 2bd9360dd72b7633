import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError } from '../domain/errors.ts';
import { isDependencyOutage } from '../outage.ts';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

// Framework errors a client can cause, and what the envelope says of them (pipeline step 6).
function fromFrameworkError(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'unsupported_media_type',
        'Send the request body as JSON with Content-Type: application/json.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('malformed_request', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('malformed_request', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('malformed_request', 'The Content-Length does not match the body.');
    // A path parameter beyond the router's limit (app.ts sets it past any URL Node accepts, so
    // this is a guard): a malformed id is simply absent (pipeline step 8), never a 500.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('not_found', 'No route matches this path.');
    default:
      break;
  }
  // The JSON parser reports malformed JSON as a SyntaxError with status 400.
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new ApiError('malformed_request', 'The request body is not valid JSON.');
  }
  if (error.statusCode === 400 && error.code === 'FST_ERR_BAD_URL') {
    return new ApiError('not_found', 'No route matches this path.');
  }
  return null;
}

/** Retry-After of a 503 for an unreachable dependency: a reconnection usually takes seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The client closed its connection before its request was complete (Node's "aborted", which
 * Fastify raises while reading the body). Its code, ECONNRESET, is also a dependency's: this one
 * is the client's doing, an ordinary 400 that nobody will read, never an outage or a stack trace.
 */
function isClientAbort(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isClientAbort(error)) {
    return new ApiError(
      'malformed_request',
      'The client closed the request before it was complete.',
    );
  }
  if (isDependencyOutage(error)) {
    return new ApiError(
      'unavailable',
      'A service the API depends on (its database or rate-limit store) cannot be reached; retry shortly.',
      {
        headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
      },
    );
  }
  return (
    fromFrameworkError(error as FastifyError) ??
    new ApiError('internal', 'An unexpected error occurred; it is safe to retry.')
  );
}

/** The driver's own words for an outage, for the log line. */
export function outageReason(error: unknown): string {
  const cause = error instanceof ApiError ? (error.cause ?? error) : error;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string').join(': ') || 'unknown';
}

export function sendError(reply: FastifyReply, error: ApiError) {
  const body: Record<string, unknown> = { code: error.wireCode, message: error.message };
  if (error.extra.details !== undefined) body.details = error.extra.details;
  if (error.extra.upgradeUrl !== undefined) body.upgradeUrl = error.extra.upgradeUrl;
  // A client that reads only the body (or whose stack hides headers) still learns when to retry.
  const retryAfter = Number(error.extra.headers?.['retry-after']);
  if (Number.isInteger(retryAfter) && retryAfter > 0) body.retryAfter = retryAfter;
  if (error.extra.headers) reply.headers(error.extra.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: body }));
}

/**
 * Errors Fastify raises before routing, and so before any hook or the error handler: a path that
 * cannot be percent-decoded (FST_ERR_BAD_URL). Without this they would answer Fastify's own body,
 * without the envelope or X-Request-Id. Passed to Fastify as its `frameworkErrors` option.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const apiError = toApiError(error);
  if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendError(reply, apiError);
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees a request: headers (or the URL) beyond
 * Node's 16 KiB, a request line that is not HTTP, a client too slow to send its headers. They
 * get the envelope too (instead of Fastify's own body) and a request id, then the connection
 * closes: after a parse error the rest of the stream cannot be trusted. Passed to Fastify as its
 * `clientErrorHandler` option.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex) {
  // The client went away: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headers_too_large', 'The request headers and URL may be at most 16 KiB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request_timeout', 'The request was not received in time.')
        : new ApiError('malformed_request', 'The request is not valid HTTP/1.1.');
  const body = JSON.stringify({ error: { code: apiError.wireCode, message: apiError.message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: req_${randomUUID().replaceAll('-', '')}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

/**
 * Every non-2xx leaves through here: domain errors, framework errors, unknown routes (404) and
 * unsupported methods (405 with Allow). A 5xx never shows its cause; the log has it, with the
 * request id that the client sees in X-Request-Id.
 */
export function registerErrorHandling(app: FastifyInstance) {
  // A second router holding every route only to answer "which methods does this path allow?".
  const methodsOf = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (
        METHODS.includes(method as HTTPMethod) &&
        !methodsOf.hasRoute(method as HTTPMethod, route.url)
      ) {
        methodsOf.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.kind === 'unavailable') {
      // An outage is the dependency's, and every request during it says the same: one line each
      // without a stack, so the log stays readable.
      request.log.warn({ reason: outageReason(error) }, 'unavailable: answered 503');
    } else if (apiError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (!(error instanceof ApiError)) {
      request.log.info({ code: error.code, message: error.message }, 'client error');
    }
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => methodsOf.find(method, path) !== null);
    if (allowed.length > 0) {
      return sendError(
        reply,
        new ApiError('method_not_allowed', `${request.method} is not supported on this path.`, {
          headers: { allow: allowed.join(', ') },
        }),
      );
    }
    return sendError(reply, new ApiError('not_found', 'No route matches this path.'));
  });
}
