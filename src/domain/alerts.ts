import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/alerts.ts';
import { notFound } from './errors.ts';
import { isIdOf } from './ids.ts';
import { positionFromCursor } from './pagination.ts';
import type { Principal } from './principal.ts';

export const ALERT_STATES = ['unread', 'read', 'dismissed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export type ListAlertsQuery = {
  limit: number;
  cursor?: string | undefined;
  states?: AlertState[] | undefined;
  watchId?: string | undefined;
  since?: string | undefined;
};

export function createAlertService(db: Db) {
  const alertJson = repo.createAlertJsonLookup(db);
  return {
    async list(principal: Principal, query: ListAlertsQuery) {
      const after = positionFromCursor(query.cursor);
      // A watch id that cannot exist is a watch the caller cannot see: an empty list (D4).
      if (query.watchId !== undefined && !isIdOf('wat', query.watchId)) return [];
      return repo.listAlertsJson(db, {
        ownerId: principal.ownerId,
        states: query.states,
        watchId: query.watchId,
        since: query.since,
        after,
        limit: query.limit,
      });
    },

    async get(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('alt', id)) throw notFound();
      const json = await alertJson({ ownerId: principal.ownerId, id });
      if (json === null) throw notFound();
      return json;
    },

    async setState(principal: Principal, id: string, state: AlertState): Promise<string> {
      if (!isIdOf('alt', id)) throw notFound();
      const json = await repo.setAlertState(db, principal.ownerId, id, state);
      if (json === null) throw notFound();
      return json;
    },

    unreadCount(principal: Principal): Promise<number> {
      return repo.countUnread(db, principal.ownerId);
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
