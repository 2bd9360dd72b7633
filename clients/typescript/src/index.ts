import createFetchClient from 'openapi-fetch';
import type { components, paths } from './generated/api.js';
import { createPolicyFetch, type PolicyOptions } from './policy.js';

export type { components, paths } from './generated/api.js';
export { createPolicyFetch, type PolicyOptions, retryAfterSeconds } from './policy.js';
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.js';

type Schemas = components['schemas'];
export type Watch = Schemas['Watch'];
export type Alert = Schemas['Alert'];
export type Hit = Schemas['Hit'];
export type Me = Schemas['Me'];
export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Pagination = Schemas['Pagination'];

type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export type WatchListQuery = Omit<Query<'/api/v1/watches', 'get'>, 'cursor'>;
export type AlertListQuery = Omit<Query<'/api/v1/alerts', 'get'>, 'cursor'>;
export type CreateWatch = Body<'/api/v1/watches', 'post'>;
export type UpdateWatch = Body<'/api/v1/watches/{id}', 'patch'>;
export type CreateWebhook = Body<'/api/v1/webhooks', 'post'>;
export type UpdateWebhook = Body<'/api/v1/webhooks/{id}', 'patch'>;
export type AlertState = Alert['state'];

/** An error answer of the API: its status and the envelope's code, message and details. */
export class TrademarkWatchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly requestId?: string | undefined,
  ) {
    super(message);
    this.name = 'TrademarkWatchError';
  }
}

export type ClientOptions = PolicyOptions & {
  /** Where the service runs, e.g. https://watch.example.com (no /api/v1). */
  baseUrl: string;
  /** An API key, tmw_… */
  apiKey: string;
};

type Result<T> = { data?: T; error?: unknown; response: Response };

async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const envelope = (error as { error?: { code?: string; message?: string; details?: unknown } })
    ?.error;
  throw new TrademarkWatchError(
    response.status,
    envelope?.code ?? 'internal',
    envelope?.message ?? `HTTP ${response.status}`,
    envelope?.details,
    response.headers.get('x-request-id') ?? undefined,
  );
}

type Page<T> = { data: T[]; pagination: { nextCursor: string | null } };

/** Every item of every page, following nextCursor; a page is fetched only when it is reached. */
async function* everyItem<T>(fetchPage: (cursor?: string) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * A client of the Trademark Watch API. Every request goes through the rate-limit policy
 * (policy.ts); lists are async iterables over all their pages:
 *
 *   for await (const alert of client.alerts.list({ since })) { … }
 */
export function createClient(options: ClientOptions) {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: createPolicyFetch(options),
  });
  const id = (value: string) => ({ params: { path: { id: value } } });

  return {
    /** The underlying openapi-fetch client, for anything not wrapped here. */
    api,

    me: async (): Promise<Me> => (await unwrap(api.GET('/api/v1/me'))).data,

    watches: {
      list: (query: WatchListQuery = {}): AsyncGenerator<Watch> =>
        everyItem((cursor) =>
          unwrap(api.GET('/api/v1/watches', { params: { query: { ...query, cursor } } })),
        ),
      get: async (watchId: string): Promise<Watch> =>
        (await unwrap(api.GET('/api/v1/watches/{id}', id(watchId)))).data,
      create: async (body: CreateWatch): Promise<Watch> =>
        (await unwrap(api.POST('/api/v1/watches', { body }))).data,
      update: async (watchId: string, body: UpdateWatch): Promise<Watch> =>
        (await unwrap(api.PATCH('/api/v1/watches/{id}', { ...id(watchId), body }))).data,
      /** Soft delete: the watch stays readable with active: false. */
      delete: async (watchId: string): Promise<Watch> =>
        (await unwrap(api.DELETE('/api/v1/watches/{id}', id(watchId)))).data,
    },

    alerts: {
      list: (query: AlertListQuery = {}): AsyncGenerator<Alert> =>
        everyItem((cursor) =>
          unwrap(api.GET('/api/v1/alerts', { params: { query: { ...query, cursor } } })),
        ),
      get: async (alertId: string): Promise<Alert> =>
        (await unwrap(api.GET('/api/v1/alerts/{id}', id(alertId)))).data,
      setState: async (alertId: string, state: AlertState): Promise<Alert> =>
        (await unwrap(api.PATCH('/api/v1/alerts/{id}', { ...id(alertId), body: { state } }))).data,
    },

    webhooks: {
      list: (): AsyncGenerator<Webhook> =>
        everyItem((cursor) =>
          unwrap(api.GET('/api/v1/webhooks', { params: { query: { cursor } } })),
        ),
      get: async (webhookId: string): Promise<Webhook> =>
        (await unwrap(api.GET('/api/v1/webhooks/{id}', id(webhookId)))).data,
      /** The answer holds the signing secret, shown only this once. */
      create: async (body: CreateWebhook): Promise<WebhookWithSecret> =>
        (await unwrap(api.POST('/api/v1/webhooks', { body }))).data,
      update: async (webhookId: string, body: UpdateWebhook): Promise<Webhook> =>
        (await unwrap(api.PATCH('/api/v1/webhooks/{id}', { ...id(webhookId), body }))).data,
      delete: async (webhookId: string): Promise<Webhook> =>
        (await unwrap(api.DELETE('/api/v1/webhooks/{id}', id(webhookId)))).data,
      rotateSecret: async (webhookId: string): Promise<WebhookWithSecret> =>
        (await unwrap(api.POST('/api/v1/webhooks/{id}/rotate-secret', id(webhookId)))).data,
      deliveries: (webhookId: string): AsyncGenerator<WebhookDelivery> =>
        everyItem((cursor) =>
          unwrap(
            api.GET('/api/v1/webhooks/{id}/deliveries', {
              params: { path: { id: webhookId }, query: { cursor } },
            }),
          ),
        ),
    },
  };
}

export type TrademarkWatchClient = ReturnType<typeof createClient>;
