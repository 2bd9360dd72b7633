import type { Db } from '../../src/data/db.ts';
import { insertHitWithAlert } from '../../src/data/repositories/alerts.ts';
import { createAccountService } from '../../src/domain/accounts.ts';
import { SCOPES } from '../../src/domain/api-keys.ts';
import { newId } from '../../src/domain/ids.ts';
import type { Tier } from '../../src/domain/plans.ts';
import { MIRROR_SOURCE } from '../../src/domain/sources.ts';

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

export type { Tier };

/** Builders for test data. Each call makes new rows; nothing is shared between tests. */
export function factories(db: Db) {
  const accounts = createAccountService(db);
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

    /** An alert with its hit, as a scan would record it. */
    async makeAlert(
      watchId: string,
      options: {
        externalId?: string;
        markText?: string;
        severity?: 'low' | 'medium' | 'high';
        rationale?: string;
        publishedAt?: string | null;
        opposition?: unknown;
        jurisdiction?: string;
        /** null: the source does not publish it. */
        ownerName?: string | null;
        ownerCountryCode?: string | null;
        classes?: number[];
        status?: string | null;
      } = {},
    ) {
      const externalId = options.externalId ?? `EM5000000${unique()}`;
      const alertId = newId('alt');
      const created = await insertHitWithAlert(
        db,
        {
          id: newId('hit'),
          watchId,
          sourceCode: MIRROR_SOURCE,
          externalId,
          entityType: 'trademark',
          displayName: options.markText ?? 'ACME',
          ownerName: options.ownerName === undefined ? 'Acme Holdings Ltd' : options.ownerName,
          ownerCountryCode:
            options.ownerCountryCode === undefined ? 'GB' : options.ownerCountryCode,
          jurisdiction: options.jurisdiction ?? 'EM',
          filedAt: '2026-10-01T00:00:00.000Z',
          registeredAt: null,
          expiresAt: null,
          status: options.status === undefined ? 'filed' : options.status,
          classes: options.classes ?? [9, 42],
          rawPayload: { externalId, markText: options.markText ?? 'ACME' },
          publishedAt: options.publishedAt ?? null,
          opposition: options.opposition ?? null,
        },
        {
          alertId,
          severity: options.severity ?? 'medium',
          rationale: options.rationale ?? '**Severity: medium.** Made by a test factory.',
        },
      );
      if (created === null) throw new Error(`hit ${externalId} already exists for ${watchId}`);
      return created;
    },
  };
}
