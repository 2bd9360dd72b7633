import type { FastifyInstance } from 'fastify';
import type { Db } from '../../data/db.ts';
import { ApiError } from '../../domain/errors.ts';
import { withTimeout } from '../../timeout.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';

/** How long readiness waits for each dependency: a probe must answer within its own time-out. */
const READY_CHECK_MS = 2_000;

export function healthRoutes(app: FastifyInstance, db: Db, rateLimit: RateLimitStore) {
  // Liveness: the process answers. No dependency is consulted, so a slow database never gets a
  // healthy process restarted.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Readiness: the database answers, and Redis too when the rate limit lives there; a load
  // balancer then stops sending requests that could only get a 503.
  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    const checks: Record<string, 'ok' | 'unreachable'> = {};
    const probe = async (name: string, run: () => Promise<unknown>) => {
      try {
        await withTimeout(run(), READY_CHECK_MS, `${name}: no answer`);
        checks[name] = 'ok';
      } catch (error) {
        request.log.warn({ reason: (error as Error).message }, `${name} not reachable`);
        checks[name] = 'unreachable';
      }
    };
    await Promise.all([
      probe('database', () => db.ping()),
      rateLimit.ping ? probe('redis', () => (rateLimit.ping as () => Promise<void>)()) : null,
    ]);
    const down = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    if (down.length > 0) {
      throw new ApiError('unavailable', `Not ready: ${down.join(' and ')} not reachable.`, {
        headers: { 'retry-after': '5' },
      });
    }
    return { status: 'ready', checks };
  });
}
