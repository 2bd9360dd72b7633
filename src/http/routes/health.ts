import type { FastifyInstance } from 'fastify';
import type { Db } from '../../data/db.ts';
import { ApiError } from '../../domain/errors.ts';

export function healthRoutes(app: FastifyInstance, db: Db) {
  // Liveness: the process answers. No dependency is consulted, so a slow database never gets a
  // healthy process restarted.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Readiness: the database answers.
  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    try {
      await db.query('SELECT 1');
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      throw new ApiError('unavailable', 'The database is not reachable.');
    }
    return { status: 'ready' };
  });
}
