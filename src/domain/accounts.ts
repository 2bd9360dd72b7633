import { hash as argon2Hash } from '@node-rs/argon2';
import type { Db, Queryable } from '../data/db.ts';
import * as repo from '../data/repositories/accounts.ts';
import { generateApiKey, hashApiKey, isScope, looksLikeApiKey, type Scope } from './api-keys.ts';
import { ApiError } from './errors.ts';
import { newId } from './ids.ts';
import { TIERS, type Tier } from './plans.ts';
import { type Principal, principalOf } from './principal.ts';

const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value);

function requireTier(value: string): Tier {
  if (!isTier(value)) {
    throw new ApiError('validation_error', `tier must be one of ${TIERS.join(', ')}`);
  }
  return value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function hashPassword(password: string): Promise<string> {
  // argon2id with the library's defaults (OWASP's recommended minimum: m=19 MiB, t=2, p=1).
  return argon2Hash(password);
}

export function serializeOrganization(row: repo.OrganizationRow) {
  return { id: row.id, name: row.name, tier: row.tier, createdAt: row.created_at.toISOString() };
}

export function serializeUser(row: repo.UserRow) {
  return {
    id: row.id,
    email: row.email,
    tier: row.tier,
    organizationId: row.organization_id,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at.toISOString(),
  };
}

export function serializeKey(row: repo.ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

async function requireOrganization(db: Queryable, id: string) {
  const org = await repo.getOrganization(db, id);
  if (!org) throw new ApiError('not_found', `organization ${id} does not exist`);
  return org;
}

export function createAccountService(db: Db) {
  return {
    async createOrganization(input: { name: string; tier: string }) {
      const name = input.name.trim();
      if (name.length < 1 || name.length > 200) {
        throw new ApiError('validation_error', 'name must be 1 to 200 characters');
      }
      const row = await repo.insertOrganization(db, {
        id: newId('org'),
        name,
        tier: requireTier(input.tier),
      });
      return serializeOrganization(row);
    },

    async createUser(input: {
      email: string;
      password?: string | undefined;
      tier?: string | undefined;
      organizationId?: string | undefined;
    }) {
      const email = input.email.trim();
      if (!EMAIL.test(email))
        throw new ApiError('validation_error', 'email is not a valid address');
      if (input.password !== undefined && input.password.length < 8) {
        throw new ApiError('validation_error', 'password must be at least 8 characters');
      }
      let tier = requireTier(input.tier ?? 'free');
      if (input.organizationId !== undefined) {
        // A member takes the organization's tier (operations.md).
        tier = requireTier((await requireOrganization(db, input.organizationId)).tier);
      }
      if (await repo.getUserByEmail(db, email)) {
        throw new ApiError('conflict', `a user with email ${email} already exists`);
      }
      const row = await repo.insertUser(db, {
        id: newId('usr'),
        email,
        tier,
        organizationId: input.organizationId ?? null,
        passwordHash: input.password === undefined ? null : await hashPassword(input.password),
      });
      return serializeUser(row);
    },

    async updateUser(
      id: string,
      input: {
        tier?: string | undefined;
        organizationId?: string | null | undefined;
        password?: string;
      },
    ) {
      const changes: { tier?: string; organizationId?: string | null; passwordHash?: string } = {};
      if (input.tier !== undefined) changes.tier = requireTier(input.tier);
      if (input.organizationId !== undefined) {
        if (input.organizationId !== null) {
          const org = await requireOrganization(db, input.organizationId);
          changes.tier ??= org.tier;
        }
        changes.organizationId = input.organizationId;
      }
      if (input.password !== undefined) {
        if (input.password.length < 8) {
          throw new ApiError('validation_error', 'password must be at least 8 characters');
        }
        changes.passwordHash = await hashPassword(input.password);
      }
      const row = await repo.updateUser(db, id, changes);
      if (!row) throw new ApiError('not_found', `user ${id} does not exist`);
      return serializeUser(row);
    },

    async createKey(input: { userId: string; name: string; scopes: string[] }) {
      const name = input.name.trim();
      if (name.length < 1 || name.length > 100) {
        throw new ApiError('validation_error', 'name must be 1 to 100 characters');
      }
      const unknown = input.scopes.filter((s) => !isScope(s));
      if (unknown.length > 0) {
        throw new ApiError('validation_error', `unknown scope: ${unknown.join(', ')}`);
      }
      if (!(await repo.getUser(db, input.userId))) {
        throw new ApiError('not_found', `user ${input.userId} does not exist`);
      }
      const generated = generateApiKey();
      const row = await repo.insertApiKey(db, {
        id: newId('key'),
        userId: input.userId,
        name,
        prefix: generated.prefix,
        hash: generated.hash,
        scopes: [...new Set(input.scopes as Scope[])],
      });
      return { ...serializeKey(row), userId: row.user_id, key: generated.plaintext };
    },

    /** Operator revocation (any key), or a user's own (userId given: others' keys are absent). */
    async revokeKey(id: string, userId?: string) {
      const row = await repo.revokeApiKey(db, id, userId);
      if (!row) throw new ApiError('not_found', `key ${id} does not exist`);
      return serializeKey(row);
    },

    async listKeys(userId: string) {
      return (await repo.listApiKeys(db, userId)).map((row) => ({
        ...serializeKey(row),
        lastUsedAt: row.last_used_at?.toISOString() ?? null,
      }));
    },

    /** The caller of an API request, or null for an unknown or revoked key. */
    async authenticate(token: string): Promise<(Principal & { lastUsedAt: Date | null }) | null> {
      if (!looksLikeApiKey(token)) return null;
      const row = await repo.findPrincipalByKeyHash(db, hashApiKey(token));
      if (!row) return null;
      return {
        ...principalOf(row),
        key: {
          id: row.key_id,
          name: row.key_name,
          scopes: row.scopes,
          createdAt: row.key_created_at,
        },
        lastUsedAt: row.last_used_at,
      };
    },

    touchKey(keyId: string) {
      return repo.touchApiKey(db, keyId);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
