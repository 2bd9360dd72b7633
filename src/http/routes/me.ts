import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../authenticate.ts';
import { meExample } from '../examples.ts';
import { dataOf, errorResponses, MeSchema } from '../schemas.ts';

export function meRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get('/me', {
    config: { scope: null, anyTier: true },
    schema: {
      operationId: 'getMe',
      tags: ['Account'],
      security: [{ bearerAuth: [] }],
      summary: 'The caller’s plan, key and rate-limit state',
      description: 'Any valid key may call it, whatever its tier or scopes.',
      response: { 200: dataOf(MeSchema, meExample), ...errorResponses(401, 429) },
    },
    handler: async (request, reply) => {
      const p = principalOf(request);
      const key = p.key as NonNullable<typeof p.key>;
      const remaining = Number(reply.getHeader('x-ratelimit-remaining'));
      const limit = Number(reply.getHeader('x-ratelimit-limit'));
      return reply.send({
        data: {
          user: { id: p.userId, email: p.email },
          organization: p.organization,
          plan: {
            tier: p.plan.tier,
            apiAccess: p.plan.apiAccess,
            maxActiveWatches: p.plan.maxActiveWatches,
            minScanCadence: p.plan.minScanCadence,
          },
          key: { id: key.id, name: key.name, scopes: key.scopes, createdAt: key.createdAt },
          rateLimit: { limit, remaining },
        },
      });
    },
  });
}
