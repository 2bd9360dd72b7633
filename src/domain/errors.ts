/**
 * The one error type of the service. Domain services throw it; the HTTP layer turns it into the
 * envelope in one place (http/error-handler.ts); the CLI prints its message.
 */
export type ErrorCode =
  | 'unauthenticated'
  | 'forbidden'
  | 'quota_exceeded'
  | 'not_found'
  | 'validation_error'
  | 'malformed_request'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'rate_limited'
  | 'conflict'
  | 'unavailable'
  | 'internal';

// The wire code and the status of each kind. `quota_exceeded` and `malformed_request` exist only to
// pick the status: on the wire they are `forbidden` (402) and `validation_error` (400), as the spec says.
const WIRE: Record<ErrorCode, { status: number; code: string }> = {
  unauthenticated: { status: 401, code: 'unauthenticated' },
  quota_exceeded: { status: 402, code: 'forbidden' },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  method_not_allowed: { status: 405, code: 'method_not_allowed' },
  conflict: { status: 409, code: 'conflict' },
  request_timeout: { status: 408, code: 'request_timeout' },
  payload_too_large: { status: 413, code: 'payload_too_large' },
  unsupported_media_type: { status: 415, code: 'unsupported_media_type' },
  headers_too_large: { status: 431, code: 'headers_too_large' },
  malformed_request: { status: 400, code: 'validation_error' },
  validation_error: { status: 422, code: 'validation_error' },
  rate_limited: { status: 429, code: 'rate_limited' },
  internal: { status: 500, code: 'internal' },
  unavailable: { status: 503, code: 'unavailable' },
};

export type ValidationDetails = {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
  field?: string;
};

export class ApiError extends Error {
  readonly status: number;
  readonly wireCode: string;
  constructor(
    readonly kind: ErrorCode,
    message: string,
    readonly extra: {
      details?: unknown;
      upgradeUrl?: string;
      headers?: Record<string, string>;
      /** What failed underneath (an outage's driver error): for the log, never the response. */
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ApiError';
    this.status = WIRE[kind].status;
    this.wireCode = WIRE[kind].code;
  }
}

export const notFound = () => new ApiError('not_found', 'The resource was not found.');

/** Where a plan's limits are compared: the `upgradeUrl` of every quota error. */
export const UPGRADE_URL = '/pricing';

/** A plan's limit reached (402 `forbidden` with `upgradeUrl`). */
export const quotaExceeded = (message: string) =>
  new ApiError('quota_exceeded', message, { upgradeUrl: UPGRADE_URL });

export function validationError(
  details: ValidationDetails,
  message = 'The request failed validation.',
): ApiError {
  return new ApiError('validation_error', message, { details });
}
