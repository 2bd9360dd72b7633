import { createHash, randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type { Clock } from '../clock.ts';
import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/sessions.ts';
import { hashPassword, isPlausibleEmail, MAX_PASSWORD_LENGTH } from './accounts.ts';

/**
 * Failed sign-ins are counted per account *and* client address: a guesser elsewhere slows down
 * only their own attempts, never the account's owner, who signs in from another address. Past
 * `perPair` failures in the window every further attempt of that pair waits, from its last
 * failure, `firstDelayMs` doubled for each failure beyond, up to `maxDelayMs`. Per address across
 * accounts (one password tried against many accounts) the same growing delay starts only after
 * `perAddress` failures, far more than an office behind one NAT makes by mistyping.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  perPair: 5,
  perAddress: 100,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
};

/** How long after its last failure a bucket that has `failures` (allowed: `limit`) waits. */
export function throttleDelayMs(failures: number, limit: number): number {
  if (failures < limit) return 0;
  const doublings = Math.min(failures - limit, 30);
  return Math.min(SIGN_IN_THROTTLE.maxDelayMs, SIGN_IN_THROTTLE.firstDelayMs * 2 ** doublings);
}

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

const bucketHash = (value: string) => createHash('sha256').update(value).digest('hex');
// Hashed: the table never holds an e-mail or an address, only what lets attempts be counted.
const pairBucket = (email: string, address: string) =>
  `pair:${bucketHash(`${email.trim().toLowerCase()}\n${address}`)}`;
const addressBucket = (address: string) => `address:${bucketHash(address)}`;

export function createSignInService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  // Unknown e-mails are checked against this hash so they take as long as known ones: the
  // response time must not tell which of e-mail or password was wrong.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    return decoy;
  };

  async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
    try {
      const ok = await verify(hash ?? (await decoyHash()), password);
      return ok && hash !== null;
    } catch {
      return false;
    }
  }

  return {
    async signIn(input: {
      email: string;
      password: string;
      address: string;
    }): Promise<SignInResult> {
      const now = clock.now();
      const windowStart = now - SIGN_IN_THROTTLE.windowMs;
      const pair = pairBucket(input.email, input.address);
      const buckets = [pair, addressBucket(input.address)];
      // The attempt is recorded as a failure before the password is checked, so parallel guesses
      // cannot all slip under the limit; it is withdrawn if refused or successful.
      const reserved = await repo.insertSignInFailures(db, buckets, new Date(now));
      const counts = await repo.countSignInFailures(db, buckets, new Date(windowStart), reserved);
      let retryAt = 0;
      for (const { bucket, count, newest } of counts) {
        const limit = bucket === pair ? SIGN_IN_THROTTLE.perPair : SIGN_IN_THROTTLE.perAddress;
        // `count` includes this attempt, reserved above; `newest` is the failure before it.
        const delay = throttleDelayMs(count - 1, limit);
        if (delay > 0 && newest !== null && newest.getTime() + delay > now) {
          retryAt = Math.max(retryAt, newest.getTime() + delay);
        }
      }
      if (retryAt > 0) {
        // A refused attempt is not a guess: it must not extend the lock-out.
        await repo.deleteSignInFailures(db, reserved);
        return {
          ok: false,
          reason: 'throttled',
          retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)),
        };
      }

      // argon2 of a megabyte-long "password" is a denial of service: refused unchecked.
      const tooLong = input.password.length > MAX_PASSWORD_LENGTH;
      // No account has an e-mail that is not one (nor one holding a NUL, which the database
      // could not even compare): such an address is an unknown user, not a database error.
      const email = input.email.trim();
      const user =
        tooLong || !isPlausibleEmail(email) ? null : await repo.findPasswordHash(db, email);
      if (!tooLong && user && (await passwordMatches(user.passwordHash, input.password))) {
        await repo.deleteSignInFailures(db, reserved);
        await repo.clearSignInFailures(db, pair);
        return { ok: true, userId: user.id };
      }
      if (!tooLong && !user) await passwordMatches(null, input.password);
      await repo.deleteOldSignInFailures(db, new Date(windowStart));
      return { ok: false, reason: 'invalid' };
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
