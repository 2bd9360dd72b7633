import type { Db } from '../../data/db.ts';
import { listReads, primaryOnly } from '../../data/replica.ts';
import * as repo from '../../data/repositories/alerts.ts';
import type { CursorPosition } from '../cursor.ts';
import { notFound } from '../errors.ts';
import { isIdOf } from '../ids.ts';
import { createPageCache, DEFAULT_PAGE_CACHE_BYTES } from '../page-cache.ts';
import { type ListServiceOptions, pageBody, positionFromCursor } from '../pagination.ts';
import type { Principal } from '../principal.ts';
import { changeAlertState } from './state.ts';
import type { AlertOrigin, AlertSeverity, AlertState } from './types.ts';

export type ListAlertsQuery = {
  limit: number;
  cursor?: string | undefined;
  states?: AlertState[] | undefined;
  severities?: AlertSeverity[] | undefined;
  origin?: AlertOrigin | undefined;
  watchId?: string | undefined;
  since?: string | undefined;
};

/** The query of one page, as the cache tells pages apart: equal keys, equal pages. */
function pageKey(ownerId: string, query: ListAlertsQuery, after: CursorPosition | undefined) {
  const states = query.states ? [...new Set(query.states)].sort() : null;
  const severities = query.severities ? [...new Set(query.severities)].sort() : null;
  return JSON.stringify([
    ownerId,
    query.limit,
    after?.createdAt ?? null,
    after?.id ?? null,
    states,
    severities,
    query.origin ?? null,
    query.watchId ?? null,
    query.since ?? null,
  ]);
}

export type AlertServiceOptions = ListServiceOptions & {
  /** Memory for the list pages kept between requests (page-cache.ts); 0 turns the cache off. */
  pageCacheBytes?: number;
};

export function createAlertService(db: Db, options: AlertServiceOptions = {}) {
  const alertJson = repo.createAlertJsonLookup(db);
  const pages = createPageCache(options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  const lists = options.lists ?? listReads(primaryOnly(db));
  // One coalesced lookup per database a list reads (the primary, the standby).
  const versionLookups = new Map<Db, (ownerId: string) => Promise<string>>();
  const listVersion = (from: Db, ownerId: string) => {
    let lookup = versionLookups.get(from);
    if (lookup === undefined) {
      lookup = repo.createAlertListVersionLookup(from);
      versionLookups.set(from, lookup);
    }
    return lookup(ownerId);
  };

  function listRows(
    from: Db,
    ownerId: string,
    query: ListAlertsQuery,
    after: CursorPosition | undefined,
  ) {
    // A watch id that cannot exist is a watch the caller cannot see: an empty list.
    if (query.watchId !== undefined && !isIdOf('wat', query.watchId)) return Promise.resolve([]);
    return repo.listAlertsJson(from, {
      ownerId,
      states: query.states,
      severities: query.severities,
      origin: query.origin,
      watchId: query.watchId,
      since: query.since,
      after,
      limit: query.limit,
    });
  }

  return {
    /** A page's items as the JSON rows of the list query (the dashboard renders them). */
    async list(principal: Principal, query: ListAlertsQuery) {
      return listRows(db, principal.ownerId, query, positionFromCursor(query.cursor));
    },

    /**
     * The API's list body (items and pagination). A page asked for again is kept (page-cache.ts)
     * and answered from memory while the owner's alerts are unchanged: the owner's list version
     * (migration 007) is read from the database by every such request, before the rows, so a page
     * is never kept under a version newer than what it shows, and a request sees every write
     * committed before it arrived. A page asked for the first time is only read.
     *
     * The list may be read from the standby (data/replica.ts): the version then too, from the same
     * database and before the rows, so a page is still never kept under a newer version than it
     * shows. A standby that stops answering moves both to the primary, which holds all it held.
     */
    async listBody(principal: Principal, query: ListAlertsQuery): Promise<Buffer> {
      const after = positionFromCursor(query.cursor);
      const from = await lists.forOwner(principal.ownerId);
      const read = async () =>
        // Each alert's JSON is stored compact (migration 033).
        pageBody(await listRows(from, principal.ownerId, query, after), query.limit, {
          compact: true,
        });
      if (pages === null) return read();
      const key = pageKey(principal.ownerId, query, after);
      if (!pages.askedBefore(key)) return read();
      const version = await listVersion(from, principal.ownerId);
      const kept = pages.get(key, version);
      if (kept !== undefined) return kept;
      const body = await read();
      pages.set(key, version, body);
      return body;
    },

    async get(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('alt', id)) throw notFound();
      const json = await alertJson({ ownerId: principal.ownerId, id });
      if (json === null) throw notFound();
      return json;
    },

    async setState(principal: Principal, id: string, state: AlertState): Promise<string> {
      if (!isIdOf('alt', id)) throw notFound();
      // The change and its alert.updated webhook event commit together (transactional outbox).
      const json = await db.transaction((tx) => changeAlertState(tx, principal.ownerId, id, state));
      if (json === null) throw notFound();
      return json;
    },

    unreadCount(principal: Principal): Promise<number> {
      return repo.countUnread(db, principal.ownerId);
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
