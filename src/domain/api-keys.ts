import { createHash } from 'node:crypto';
import { randomBase62 } from './ids.ts';

export const SCOPES = [
  'watches:read',
  'watches:write',
  'alerts:read',
  'apikeys:read',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

// 43 base62 characters carry 256 bits: at least 32 random bytes.
const KEY_BODY_LENGTH = 43;
const KEY_PATTERN = /^tmw_[0-9A-Za-z]{43}$/;

export type GeneratedKey = { plaintext: string; hash: string; prefix: string };

export function generateApiKey(): GeneratedKey {
  const plaintext = `tmw_${randomBase62(KEY_BODY_LENGTH)}`;
  return { plaintext, hash: hashApiKey(plaintext), prefix: displayPrefix(plaintext) };
}

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

/** Enough of the key to recognise it in a list, far too little to guess the rest. */
export function displayPrefix(plaintext: string): string {
  return plaintext.slice(0, 12);
}

/** Cheap shape check before hashing: anything else cannot be a key of ours. */
export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

/** `Authorization: Bearer <token>`, exactly one space, nothing else. */
export function parseBearer(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer ([^\s]+)$/.exec(header);
  return match?.[1] ?? null;
}
