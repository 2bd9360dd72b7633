import { hash as argon2Hash } from '@node-rs/argon2';
import type { Db, Queryable } from '../data/db.ts';
import * as repo from '../data/repositories/accounts.ts';
import { nameTextReason } from '../text.ts';
import { generateApiKey, hashApiKey, isScope, looksLikeApiKey, type Scope } from './api-keys.ts';
import { ApiError } from './errors.ts';
import { isIdOf, newId } from './ids.ts';
import { TIERS, type Tier } from './plans.ts';
import { type Principal, principalFromAccount } from './principal.ts';

const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value);

function requireTier(value: string): Tier {
  if (!isTier(value)) {
    throw new ApiError('validation_error', `tier must be one of ${TIERS.join(', ')}`);
  }
  return value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// RFC 5321 caps a forward-path at 256 octets, so no deliverable address is longer than 254.
const EMAIL_MAX_LENGTH = 254;

/**
 * argon2 of a megabyte-long "password" is a denial of service, so sign-in refuses anything longer
 * unchecked; a password is therefore refused here too, or its user could never sign in.
 */
export const MAX_PASSWORD_LENGTH = 1024;

function requirePassword(password: string) {
  if (password.length < 8) {
    throw new ApiError('validation_error', 'password must be at least 8 characters');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ApiError(
      'validation_error',
      `password must be at most ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
}

/** A name or label stored as typed: 1 to `max` characters, one line, text PostgreSQL can hold. */
function requireName(field: string, value: string, max: number): string {
  const name = value.trim();
  if (name.length < 1 || name.length > max) {
    throw new ApiError('validation_error', `${field} must be 1 to ${max} characters`);
  }
  const reason = nameTextReason(name);
  if (reason !== null) throw new ApiError('validation_error', `${field} ${reason}`);
  return name;
}

/** E-mail text the database can hold, shaped like an address; the caller trims it. */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL.test(email) && nameTextReason(email) === null;
}

// Ids are checked before any lookup: a malformed one is simply absent (pipeline step 8), and text the
// database cannot hold (NUL) must not turn "does not exist" into a database error.
const absent = (what: string, id: string) =>
  new ApiError('not_found', `${what} ${JSON.stringify(id).slice(1, -1)} does not exist`);

export function hashPassword(password: string): Promise<string> {
  // argon2id with the library's defaults (OWASP's recommended minimum: m=19 MiB, t=2, p=1).
  return argon2Hash(password);
}

export function serializeOrganization(org: repo.OrganizationRecord) {
  return { id: org.id, name: org.name, tier: org.tier, createdAt: org.createdAt.toISOString() };
}

export function serializeUser(user: repo.UserRecord) {
  return {
    id: user.id,
    email: user.email,
    tier: user.tier,
    organizationId: user.organizationId,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

export function serializeKey(key: repo.ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

async function requireOrganization(db: Queryable, id: string) {
  const org = isIdOf('org', id) ? await repo.getOrganization(db, id) : null;
  if (!org) throw absent('organization', id);
  return org;
}

/** Organizations and users (the operator's commands, the first start). */
function accountOperations(db: Db) {
  return {
    async createOrganization(input: { name: string; tier: string }) {
      const name = requireName('name', input.name, 200);
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
      if (!isPlausibleEmail(email)) {
        throw new ApiError('validation_error', 'email is not a valid address');
      }
      if (input.password !== undefined) requirePassword(input.password);
      let tier = requireTier(input.tier ?? 'free');
      if (input.organizationId !== undefined) {
        // A member takes the organization's tier.
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
      if (!isIdOf('usr', id)) throw absent('user', id);
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
        requirePassword(input.password);
        changes.passwordHash = await hashPassword(input.password);
      }
      const row = await repo.updateUser(db, id, changes);
      if (!row) throw absent('user', id);
      return serializeUser(row);
    },
  };
}

/** API keys: minted by the operator or the dashboard, and the lookup of every API request. */
function keyOperations(db: Db) {
  const findPrincipal = repo.createPrincipalLookup(db);
  return {
    async createKey(input: { userId: string; name: string; scopes: string[] }) {
      const name = requireName('name', input.name, 100);
      const unknown = input.scopes.filter((s) => !isScope(s));
      if (unknown.length > 0) {
        throw new ApiError('validation_error', `unknown scope: ${unknown.join(', ')}`);
      }
      if (!isIdOf('usr', input.userId) || !(await repo.getUser(db, input.userId))) {
        throw absent('user', input.userId);
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
      return { ...serializeKey(row), userId: row.userId, key: generated.plaintext };
    },

    /** Operator revocation (any key), or a user's own (userId given: others' keys are absent). */
    async revokeKey(id: string, userId?: string) {
      const row = isIdOf('key', id) ? await repo.revokeApiKey(db, id, userId) : null;
      if (!row) throw absent('key', id);
      return serializeKey(row);
    },

    async listKeys(userId: string) {
      return (await repo.listApiKeys(db, userId)).map((row) => ({
        ...serializeKey(row),
        lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      }));
    },

    /** The caller of an API request, or null for an unknown or revoked key. */
    async authenticate(token: string): Promise<(Principal & { lastUsedAt: Date | null }) | null> {
      if (!looksLikeApiKey(token)) return null;
      const caller = await findPrincipal(hashApiKey(token));
      if (!caller) return null;
      return {
        ...principalFromAccount(caller),
        key: {
          id: caller.keyId,
          name: caller.keyName,
          scopes: caller.scopes,
          createdAt: caller.keyCreatedAt,
        },
        lastUsedAt: caller.lastUsedAt,
      };
    },

    touchKey(keyId: string) {
      return repo.touchApiKey(db, keyId);
    },
  };
}

export function createAccountService(db: Db) {
  return { ...accountOperations(db), ...keyOperations(db) };
}

export type AccountService = ReturnType<typeof createAccountService>;
