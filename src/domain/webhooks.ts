import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/webhooks.ts';
import { refusedUrlReason } from '../webhooks/http-post.ts';
import { generateWebhookSecret } from '../webhooks/signing.ts';
import { notFound, quotaExceeded, validationError } from './errors.ts';
import { isIdOf, newId } from './ids.ts';
import {
  type ListServiceOptions,
  type ListSource,
  listDb,
  positionFromCursor,
} from './pagination.ts';
import { type Plan, TIER_LABEL } from './plans.ts';
import type { Principal } from './principal.ts';
import { enqueueTestEvent } from './webhook-events.ts';
import type { CreateWebhookInput, UpdateWebhookInput } from './webhook-input.ts';

export type WebhookServiceOptions = ListServiceOptions & {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http:// and private addresses accepted (self-hosting, tests). */
  allowPrivateUrls: boolean;
};

export type ListQuery = { limit: number; cursor?: string | undefined };

export function webhookCapMessage(plan: Plan): string {
  return `Your ${TIER_LABEL[plan.tier]} plan allows at most ${plan.maxWebhooks} webhook endpoints; delete one or upgrade your plan.`;
}

/** The JSON of a webhook with its signing secret: only the create and rotate answers carry it. */
function withSecret(json: string, secret: string): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), secret });
}

/** A URL the sender would refuse is a 422 now rather than failed deliveries later. */
function checkWebhookUrl(url: string | undefined, allowPrivateUrls: boolean) {
  if (url === undefined) return;
  const parsed = new URL(url);
  // localhost is refused early too (its addresses would be refused at every send anyway).
  const reason =
    refusedUrlReason(parsed, allowPrivateUrls) ??
    (!allowPrivateUrls && /^localhost\.?$/i.test(parsed.hostname)
      ? 'localhost is not a public host'
      : null);
  if (reason !== null) {
    // The operator's setting that lifts the refusal is named: a self-hosted install whose receiver
    // sits next to it needs it, and nothing else says so.
    const liftable =
      !allowPrivateUrls &&
      /^https?:$/.test(parsed.protocol) &&
      parsed.username === '' &&
      parsed.password === '';
    const hint = liftable
      ? ' The server allows http:// and private addresses when its operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true.'
      : '';
    throw validationError({
      formErrors: [],
      fieldErrors: { url: [`Not allowed: ${reason}.${hint}`] },
    });
  }
}

/**
 * Webhook endpoints. Like watches, they belong to the caller's owner (the organization of a
 * member): another owner's endpoint is absent (404).
 */
export function createWebhookService(db: Db, options: WebhookServiceOptions) {
  const webhookJson = repo.createWebhookJsonLookup(db);

  const checkUrl = (url: string | undefined) => checkWebhookUrl(url, options.allowPrivateUrls);

  async function get(principal: Principal, id: string): Promise<string> {
    if (!isIdOf('whk', id)) throw notFound();
    const json = await webhookJson({ ownerId: principal.ownerId, id });
    if (json === null) throw notFound();
    return json;
  }

  return {
    get,

    async list(principal: Principal, query: ListQuery, source: ListSource = {}) {
      return repo.listWebhooksJson(await listDb(db, options, principal.ownerId, source), {
        ownerId: principal.ownerId,
        after: positionFromCursor(query.cursor),
        limit: query.limit,
      });
    },

    /** A new endpoint, within the plan's cap of endpoints per owner (402 beyond it). */
    async create(principal: Principal, input: CreateWebhookInput): Promise<string> {
      checkUrl(input.url);
      const secret = generateWebhookSecret();
      const { plan } = principal;
      const json = await db.transaction(async (tx) => {
        if (plan.maxWebhooks !== null) {
          await repo.lockOwnerWebhooks(tx, principal.ownerId);
          const count = await repo.countWebhooks(tx, principal.ownerId);
          if (count >= plan.maxWebhooks) throw quotaExceeded(webhookCapMessage(plan));
        }
        return repo.insertWebhook(tx, {
          id: newId('whk'),
          ownerId: principal.ownerId,
          createdBy: principal.userId,
          url: input.url,
          events: input.events,
          description: input.description || null,
          secret,
        });
      });
      return withSecret(json, secret);
    },

    async update(principal: Principal, id: string, input: UpdateWebhookInput): Promise<string> {
      if (!isIdOf('whk', id)) throw notFound();
      checkUrl(input.url);
      const description = input.description === '' ? null : input.description;
      const json = await repo.updateWebhook(db, principal.ownerId, id, { ...input, description });
      if (json === null) throw notFound();
      return json;
    },

    async remove(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('whk', id)) throw notFound();
      const json = await repo.deleteWebhook(db, principal.ownerId, id);
      if (json === null) throw notFound();
      return json;
    },

    /** A new secret, effective at once: the old one signs nothing after this. */
    async rotateSecret(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('whk', id)) throw notFound();
      const secret = generateWebhookSecret();
      const json = await repo.updateWebhook(db, principal.ownerId, id, { secret });
      if (json === null) throw notFound();
      return withSecret(json, secret);
    },

    async deliveries(principal: Principal, id: string, query: ListQuery) {
      await get(principal, id);
      return repo.listDeliveriesJson(db, {
        webhookId: id,
        after: positionFromCursor(query.cursor),
        limit: query.limit,
      });
    },

    /** Queues a `webhook.test` event for one endpoint (the dashboard's button). */
    async sendTestEvent(principal: Principal, id: string): Promise<string> {
      await get(principal, id);
      return enqueueTestEvent(db, id);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
