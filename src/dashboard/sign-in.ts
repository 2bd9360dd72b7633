import { createHash, randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/sessions.ts';
import { hashPassword, isPlausibleEmail, MAX_PASSWORD_LENGTH } from '../domain/accounts.ts';
import type { Clock } from '../domain/clock.ts';

/**
 * Failed sign-ins allowed per window before further attempts are refused unchecked. Per account
 * it stops guessing one user's password; per client address it stops trying one password
 * against many accounts.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  perAccount: 5,
  perAddress: 20,
};

export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

const bucketHash = (value: string) => createHash('sha256').update(value).digest('hex');
const accountBucket = (email: string) => `account:${bucketHash(email.trim().toLowerCase())}`;
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
      const account = accountBucket(input.email);
      const buckets = [account, addressBucket(input.address)];
      // The attempt is recorded as a failure before the password is checked, so parallel guesses
      // cannot all slip under the limit; it is withdrawn if refused or successful.
      const reserved = await repo.insertSignInFailures(db, buckets, new Date(now));
      const counts = await repo.countSignInFailures(db, buckets, new Date(windowStart));
      let retryAt = 0;
      for (const { bucket, count, oldest } of counts) {
        const limit =
          bucket === account ? SIGN_IN_THROTTLE.perAccount : SIGN_IN_THROTTLE.perAddress;
        if (count > limit && oldest) {
          retryAt = Math.max(retryAt, oldest.getTime() + SIGN_IN_THROTTLE.windowMs);
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
      if (!tooLong && user && (await passwordMatches(user.password_hash, input.password))) {
        await repo.deleteSignInFailures(db, reserved);
        await repo.clearSignInFailures(db, account);
        return { ok: true, userId: user.id };
      }
      if (!tooLong && !user) await passwordMatches(null, input.password);
      await repo.deleteOldSignInFailures(db, new Date(windowStart));
      return { ok: false, reason: 'invalid' };
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
