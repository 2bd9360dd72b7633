import type { FastifyInstance } from 'fastify';
import { pageItems } from '../../domain/pagination.ts';
import { ASSETS } from '../assets.ts';
import {
  type DashboardServices,
  requireViewer,
  sendPage,
  sessionOf,
  viewerOf,
} from '../context.ts';
import { aboutPage } from '../views/about.ts';
import type { AlertView } from '../views/alerts.ts';
import { homePage } from '../views/home.ts';
import { pricingPage } from '../views/pricing.ts';
import { watchNamesOf } from './alerts.ts';

export function pageRoutes(app: FastifyInstance, s: DashboardServices) {
  app.get('/', { config: { dashboard: 'user' } }, async (request, reply) => {
    const principal = sessionOf(request).principal;
    const [viewer, activeWatches, keys, unreadRows] = await Promise.all([
      requireViewer(request, s.alerts),
      s.watches.countActive(principal),
      s.accounts.listKeys(principal.userId),
      s.alerts.list(principal, { limit: 5, states: ['unread'] }),
    ]);
    const latestUnread = pageItems<AlertView>(unreadRows, 5);
    return sendPage(
      reply,
      homePage({
        viewer,
        plan: principal.plan,
        activeWatches,
        activeKeys: keys.filter((key) => key.revokedAt === null).length,
        latestUnread,
        watchNames: await watchNamesOf(
          s,
          principal,
          latestUnread.map((alert) => alert.watchId),
        ),
      }),
    );
  });

  app.get('/pricing', { config: { dashboard: 'anyone' } }, async (request, reply) => {
    return sendPage(
      reply,
      pricingPage({
        viewer: await viewerOf(request, s.alerts),
        currentTier: request.dashboardSession?.principal.plan.tier ?? null,
      }),
    );
  });

  // Where the register data comes from, with the credits the offices ask for (footer link).
  app.get('/about', { config: { dashboard: 'anyone' } }, async (request, reply) => {
    return sendPage(reply, aboutPage({ viewer: await viewerOf(request, s.alerts) }));
  });

  // The stylesheet and script. Their URLs carry a content hash, so they can be cached for a year.
  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { config: { dashboard: 'asset' } },
    async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.name)
        ? ASSETS[request.params.name]
        : undefined;
      if (!asset) return reply.callNotFound();
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(asset.type)
        .send(asset.body);
    },
  );
}
