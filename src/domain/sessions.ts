import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/sessions.ts';
import { newId } from './ids.ts';
import { type Principal, principalFromAccount } from './principal.ts';

/** Signed out after this long without a request. */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
/** Signed out this long after sign-in, however busy: a stolen cookie does not live forever. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
// last_seen_at is written at most once a minute, not on every page view.
const TOUCH_EVERY_MS = 60_000;

/** A signed-in dashboard user. */
export type DashboardSession = {
  id: string;
  tokenHash: string;
  principal: Principal;
  /** The per-session CSRF token every state-changing form and request must carry. */
  csrfToken: string;
};

// 32 random bytes, base64url: the cookie's token and the sign-in form's pre-session secret.
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function looksLikeSecret(value: string | undefined): value is string {
  return value !== undefined && SECRET_PATTERN.test(value);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session (or of a pre-session, for the sign-in form): an HMAC keyed by the
 * secret in the HttpOnly cookie. A page of ours can embed it; another site can neither read the
 * cookie nor compute the token, and the database needs to store nothing more.
 */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('tmwatch dashboard csrf v1').digest('base64url');
}

/** Constant-time comparison of two tokens. */
export function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type SessionOptions = { db: Db; clock: Clock; idleMs?: number; lifetimeMs?: number };

export function createSessionService(options: SessionOptions) {
  const { db, clock } = options;
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const lifetimeMs = options.lifetimeMs ?? SESSION_LIFETIME_MS;

  return {
    idleMs,
    lifetimeMs,

    /** A new session for a user who has just proved who they are; returns the cookie's token. */
    async start(userId: string): Promise<{ token: string; maxAgeSeconds: number }> {
      const now = clock.now();
      // Sign-in is rare enough to carry the sweep of sessions nobody will come back for.
      await repo.deleteExpiredSessions(db, new Date(now), new Date(now - idleMs));
      const token = newSecret();
      await repo.insertSession(db, {
        id: newId('ses'),
        tokenHash: hashToken(token),
        userId,
        now: new Date(now),
        expiresAt: new Date(now + lifetimeMs),
      });
      return { token, maxAgeSeconds: Math.floor(lifetimeMs / 1000) };
    },

    /** The live session of a cookie's token, or null (unknown, idle too long, or too old). */
    async resume(token: string | undefined): Promise<DashboardSession | null> {
      if (!looksLikeSecret(token)) return null;
      const tokenHash = hashToken(token);
      const session = await repo.findSession(db, tokenHash);
      if (!session) return null;
      const now = clock.now();
      if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
        await repo.deleteSession(db, tokenHash);
        return null;
      }
      if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        await repo.touchSession(db, session.sessionId, new Date(now));
      }
      return {
        id: session.sessionId,
        tokenHash,
        principal: { ...principalFromAccount(session), key: null },
        csrfToken: csrfTokenFor(token),
      };
    },

    async end(token: string | undefined): Promise<void> {
      if (looksLikeSecret(token)) await repo.deleteSession(db, hashToken(token));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
