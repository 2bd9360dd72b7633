// The parts of the OpenAPI document that are not generated from route schemas: the API's
// description, including the decisions that settle what the spec leaves open.
export const openApiInfo = {
  openapi: '3.1.0',
  info: {
    title: 'Trademark Watch API',
    version: '1.0.0',
    // The URL of whoever runs the service is added by openapi-document.ts (PUBLIC_URL).
    contact: { name: 'The operator of this Trademark Watch service' },
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    description: [
      'Watches (a brand, Nice classes, countries) are scanned against the trademark register mirror; alerts report newly filed marks that may conflict.',
      '',
      '**Authentication.** `Authorization: Bearer <API key>`. Missing, malformed, unknown or revoked keys get 401 `unauthenticated`; a revoked key is refused on the very next request. Keys belong to Team or Enterprise users; a key of a lower tier gets 403 (except on `GET /me`).',
      '',
      '**Order of checks.** Routing (404 / 405 with `Allow`, no key needed) → authentication (401) → rate limit (429; every authenticated request counts) → tier (403) → scope (403, naming the scope) → body (415 not JSON, 400 empty or malformed JSON, 413 over 1 MiB) → schema (400 query, 422 body) → visibility (404) → plan quota (402 with `upgradeUrl: "/pricing"`).',
      '',
      '**Errors.** Every non-2xx body is `{ "error": { "code", "message", "details"?, "upgradeUrl"? } }`. `validation_error` details are `{ formErrors: string[], fieldErrors: { "<dotted.path>": string[] } }`; the alert PATCH adds `field`, the first offending key. A body key the schema does not know is a 422 naming it, whatever its name (`constructor`, `toString`…); `__proto__` is refused as a 400. A database or Redis that cannot be reached, or a request arriving while the server shuts down, is a 503 `unavailable` with `Retry-After`.',
      '',
      '**Rate limit.** 60 requests per key per wall-clock minute, resetting at second 0. Every authenticated response carries `X-RateLimit-Limit` and `X-RateLimit-Remaining` (which counts the current request: the first of a minute says 59, the 60th says 0). The 61st gets 429 with `Retry-After` in whole seconds (≥ 1). With several instances on one Redis the limit holds across all of them.',
      '',
      '**Lists.** Ordered by `createdAt` then `id`, both descending, with opaque keyset cursors: rows created after a cursor was issued never make a page repeat or skip a row. `limit` defaults to 50; values above 200 are clamped and `pagination.limit` echoes the limit used. Bad `limit`, `cursor` or filter values are a 400; unknown parameters are ignored.',
      '',
      '**Plans.** free: no API, 3 active watches, weekly at fastest; solo: no API, 25, daily; team: API, 500, hourly; enterprise: API, unlimited, hourly. Members of an organization share its plan and its watches.',
      '',
      '**Resources.** Ids are opaque and prefixed (`wat_`, `alt_`, `hit_`, `key_`, `usr_`, `org_`, `whk_`). Timestamps are UTC ISO 8601 with milliseconds. Watch names are trimmed (1–200 characters); `niceClasses` are 1–45 distinct integers 1..45; `designations` are distinct ISO 3166-1 alpha-2 codes or `EU`, case-insensitive in and upper case out. `relatedClasses` (default `true`) also compares filings in classes whose goods tribunals found related to the watched ones (beer and spirits, wine and cheese); their alerts weigh less than the same class. New alerts are `unread`, with `severity` and `rationale` null.',
      '',
      '**Webhooks.** Scopes `webhooks:read` and `webhooks:write` (keys made before they existed do not have them). Events `alert.created` (every new alert) and `alert.updated` (a state change through the API or the dashboard) are POSTed as `{ "type", "timestamp", "data" }`, `data` being the alert as `GET /alerts/{id}` returns it, signed per Standard Webhooks: headers `webhook-id` (the same on every attempt of an event: de-duplicate on it), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret). A 2xx within 10 s is delivered; anything else, redirects included (never followed), is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed. Delivery is at least once and in no guaranteed order. An endpoint whose every delivery failed for 5 days is disabled (`active: false`, `disabledAt`).',
    ].join('\n'),
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http' as const, scheme: 'bearer', description: 'An API key: tmw_…' },
    },
  },
  tags: [
    { name: 'Watches', description: 'Tracked brands.' },
    { name: 'Alerts', description: 'Possible conflicts found by scans.' },
    { name: 'Webhooks', description: 'Signed events pushed to the caller’s endpoints.' },
    { name: 'Account', description: 'The caller.' },
  ],
};
