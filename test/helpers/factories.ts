import type { Db } from '../../src/data/db.ts';
import {
  insertHitsWithAlerts,
  type NewAlert,
  type NewHit,
} from '../../src/data/repositories/alerts.ts';
import { createAccountService } from '../../src/domain/accounts.ts';
import type { AlertSeverity } from '../../src/domain/alerts/types.ts';
import { SCOPES } from '../../src/domain/api-keys.ts';
import { newId } from '../../src/domain/ids.ts';
import { type Cadence, PLANS, type Tier } from '../../src/domain/plans.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { createWatchService } from '../../src/domain/watches.ts';
import type { WebhookEvent } from '../../src/domain/webhook-events.ts';
import { createWebhookService } from '../../src/domain/webhooks.ts';
import { MIRROR_SOURCE } from '../../src/register/sources.ts';

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

export type { Tier };

/** The caller a domain service sees, for rules no API tier can reach (Solo cadence and cap). */
export function principalFor(
  user: { id: string; email: string },
  tier: Tier,
  organization: { id: string; name: string } | null = null,
): Principal {
  return {
    userId: user.id,
    email: user.email,
    organization,
    plan: PLANS[tier],
    ownerId: organization?.id ?? user.id,
    key: null,
  };
}

export type AlertOptions = {
  externalId?: string;
  markText?: string;
  severity?: AlertSeverity;
  rationale?: string;
  publishedAt?: string | null;
  opposition?: unknown;
  jurisdiction?: string;
  /** null: the source does not publish it. */
  ownerName?: string | null;
  ownerCountryCode?: string | null;
  classes?: number[];
  status?: string | null;
  registeredAt?: string | null;
  expiresAt?: string | null;
  rawPayload?: unknown;
};

/** A hit and its alert as a scan records them, from a few options. */
function hitWithAlert(watchId: string, options: AlertOptions): NewHit & NewAlert {
  const externalId = options.externalId ?? `EM5000000${unique()}`;
  const markText = options.markText ?? 'ACME';
  return {
    id: newId('hit'),
    watchId,
    sourceCode: MIRROR_SOURCE,
    externalId,
    entityType: 'trademark',
    displayName: markText,
    ownerName: options.ownerName === undefined ? 'Acme Holdings Ltd' : options.ownerName,
    ownerCountryCode: options.ownerCountryCode === undefined ? 'GB' : options.ownerCountryCode,
    jurisdiction: options.jurisdiction ?? 'EM',
    filedAt: '2026-10-01T00:00:00.000Z',
    registeredAt: options.registeredAt ?? null,
    expiresAt: options.expiresAt ?? null,
    status: options.status === undefined ? 'filed' : options.status,
    classes: options.classes ?? [9, 42],
    rawPayload: options.rawPayload ?? { externalId, markText },
    publishedAt: options.publishedAt ?? null,
    opposition: options.opposition ?? null,
    alertId: newId('alt'),
    severity: options.severity ?? 'medium',
    rationale: options.rationale ?? '**Severity: medium.** Made by a test factory.',
  };
}

/**
 * Builders for test data, through the domain services as the API and the dashboard use them.
 * Each call makes new rows; nothing is shared between tests. Alerts are the exception: no service
 * creates one (only a scan does), so makeAlert and makeAlerts call the repository function the
 * scan's commit calls, insertHitsWithAlerts, without the scan's e-mail and webhook events.
 */
export function factories(db: Db) {
  const accounts = createAccountService(db);
  const watches = createWatchService(db);
  // Test receivers listen on 127.0.0.1 over http.
  const webhooks = createWebhookService(db, { allowPrivateUrls: true });
  return {
    accounts,

    async makeOrg(options: { tier?: Tier; name?: string } = {}) {
      return accounts.createOrganization({
        name: options.name ?? `Org ${unique()}`,
        tier: options.tier ?? 'team',
      });
    },

    async makeUser(options: { tier?: Tier; orgId?: string; password?: string } = {}) {
      return accounts.createUser({
        email: `user-${unique()}@example.test`,
        tier: options.tier ?? 'team',
        organizationId: options.orgId,
        password: options.password,
      });
    },

    /** A new user and the caller the services see for them. */
    async makeOwner(options: { tier?: Tier } = {}) {
      const tier = options.tier ?? 'team';
      const user = await this.makeUser({ tier });
      return { user, principal: principalFor(user, tier) };
    },

    /** A user and an API key for them; `key` is the plaintext to send. */
    async makeKey(
      options: { tier?: Tier; scopes?: string[]; orgId?: string; userId?: string } = {},
    ) {
      const userId = options.userId ?? (await this.makeUser(options)).id;
      const created = await accounts.createKey({
        userId,
        name: `key ${unique()}`,
        scopes: options.scopes ?? [...SCOPES],
      });
      return { ...created, userId, auth: { authorization: `Bearer ${created.key}` } };
    },

    /** A trademark watch of the principal's owner, created as POST /api/v1/watches creates it. */
    async makeWatch(
      principal: Principal,
      options: {
        name?: string;
        niceClasses?: number[];
        designations?: string[];
        relatedClasses?: boolean;
        scanCadence?: Cadence;
      } = {},
    ) {
      const json = await watches.create(principal, {
        watchType: 'trademark',
        name: options.name ?? 'Acme',
        attributes: {
          niceClasses: options.niceClasses ?? [9],
          designations: options.designations ?? ['DE'],
          relatedClasses: options.relatedClasses ?? true,
        },
        scanCadence: options.scanCadence ?? 'daily',
      });
      return JSON.parse(json) as { id: string; name: string };
    },

    /** A webhook endpoint of the principal's owner; `secret` signs its deliveries. */
    async makeWebhook(
      principal: Principal,
      options: { url: string; events?: WebhookEvent[]; description?: string | null },
    ) {
      const json = await webhooks.create(principal, {
        url: options.url,
        events: options.events ?? ['alert.created'],
        description: options.description ?? null,
      });
      return JSON.parse(json) as { id: string; secret: string };
    },

    /** An alert with its hit, as a scan records it; returns the alert's id. */
    async makeAlert(watchId: string, options: AlertOptions = {}) {
      const hit = hitWithAlert(watchId, options);
      const [created] = await insertHitsWithAlerts(db, [hit]);
      if (created === undefined) {
        throw new Error(`hit ${hit.externalId} already exists for ${watchId}`);
      }
      return created.alertId;
    },

    /** `count` alerts in one statement, as one scan records its findings; option `i` for each. */
    async makeAlerts(watchId: string, count: number, options: (i: number) => AlertOptions) {
      const hits = Array.from({ length: count }, (_, i) => hitWithAlert(watchId, options(i)));
      const created = await insertHitsWithAlerts(db, hits);
      if (created.length !== count) throw new Error(`${count - created.length} hits existed`);
      return created.map((row) => row.alertId);
    },
  };
}
