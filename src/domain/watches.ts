import type { Db } from '../data/db.ts';
import * as repo from '../data/repositories/watches.ts';
import { notFound, quotaExceeded, validationError } from './errors.ts';
import { isIdOf, newId } from './ids.ts';
import {
  type ListServiceOptions,
  type ListSource,
  listDb,
  positionFromCursor,
} from './pagination.ts';
import { type Cadence, isFasterThanAllowed, type Plan, TIER_LABEL } from './plans.ts';
import type { Principal } from './principal.ts';
import { type CreateWatchInput, SOURCES_BY_TYPE, type UpdateWatchInput } from './watch-input.ts';

export function capMessage(plan: Plan): string {
  return `Your ${TIER_LABEL[plan.tier]} plan allows at most ${plan.maxActiveWatches} active watches; deactivate a watch or upgrade your plan.`;
}

export function cadenceMessage(plan: Plan, cadence: Cadence): string {
  return `Your ${TIER_LABEL[plan.tier]} plan does not allow ${cadence} scans; the fastest cadence is ${plan.minScanCadence}.`;
}

export type ListWatchesQuery = {
  limit: number;
  cursor?: string | undefined;
  watchType?: string | undefined;
  active?: boolean | undefined;
};

export function createWatchService(db: Db, options: ListServiceOptions = {}) {
  const watchJson = repo.createWatchJsonLookup(db);
  return {
    /** Active watches of the caller's owner: what the plan's cap counts. */
    countActive(principal: Principal): Promise<number> {
      return repo.countActiveWatches(db, principal.ownerId);
    },

    async list(principal: Principal, query: ListWatchesQuery, source: ListSource = {}) {
      return repo.listWatchesJson(await listDb(db, options, principal.ownerId, source), {
        ownerId: principal.ownerId,
        watchType: query.watchType,
        active: query.active,
        after: positionFromCursor(query.cursor),
        limit: query.limit,
      });
    },

    async get(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('wat', id)) throw notFound();
      const json = await watchJson({ ownerId: principal.ownerId, id });
      if (json === null) throw notFound();
      return json;
    },

    async create(principal: Principal, input: CreateWatchInput): Promise<string> {
      const plan = principal.plan;
      if (isFasterThanAllowed(plan, input.scanCadence)) {
        throw quotaExceeded(cadenceMessage(plan, input.scanCadence));
      }
      return db.transaction(async (tx) => {
        if (plan.maxActiveWatches !== null) {
          await repo.lockOwner(tx, principal.ownerId);
          const active = await repo.countActiveWatches(tx, principal.ownerId);
          if (active >= plan.maxActiveWatches) throw quotaExceeded(capMessage(plan));
        }
        return repo.insertWatch(tx, {
          id: newId('wat'),
          ownerId: principal.ownerId,
          createdBy: principal.userId,
          watchType: input.watchType,
          name: input.name,
          attributes: input.attributes,
          sources: SOURCES_BY_TYPE[input.watchType],
          scanCadence: input.scanCadence,
        });
      });
    },

    async update(principal: Principal, id: string, input: UpdateWatchInput): Promise<string> {
      const plan = principal.plan;
      if (!isIdOf('wat', id)) throw notFound();
      return db.transaction(async (tx) => {
        if (input.active === true && plan.maxActiveWatches !== null) {
          await repo.lockOwner(tx, principal.ownerId);
        }
        const current = await repo.getWatchRecord(tx, principal.ownerId, id, { forUpdate: true });
        if (!current) throw notFound();
        // On PATCH a too-fast cadence is a validation failure, not a quota breach.
        if (input.scanCadence !== undefined && isFasterThanAllowed(plan, input.scanCadence)) {
          throw validationError({
            formErrors: [],
            fieldErrors: { scanCadence: [cadenceMessage(plan, input.scanCadence)] },
          });
        }
        const reactivating = input.active === true && !current.active;
        if (reactivating && plan.maxActiveWatches !== null) {
          const active = await repo.countActiveWatches(tx, principal.ownerId);
          if (active >= plan.maxActiveWatches) throw quotaExceeded(capMessage(plan));
        }
        const nameChanged = input.name !== undefined && input.name !== current.name;
        const attributesChanged =
          input.attributes !== undefined &&
          JSON.stringify(input.attributes) !== JSON.stringify(current.attributes);
        const classesChanged =
          input.attributes !== undefined &&
          JSON.stringify(input.attributes.niceClasses) !==
            JSON.stringify(current.attributes.niceClasses);
        const json = await repo.updateWatch(tx, principal.ownerId, id, {
          ...input,
          needsFullScan: nameChanged || attributesChanged,
          // What is filed from now on is new to the watch (alert origin, domain/alerts/origin.ts).
          criteriaChanged: nameChanged || classesChanged,
          // A new name or new attributes deserve a full scan soon, not after a whole cadence.
          scanNow: reactivating || nameChanged || attributesChanged,
        });
        if (json === null) throw notFound();
        return json;
      });
    },

    /** Soft delete; deleting an inactive watch again is fine. */
    async deactivate(principal: Principal, id: string): Promise<string> {
      if (!isIdOf('wat', id)) throw notFound();
      const json = await repo.updateWatch(db, principal.ownerId, id, { active: false });
      if (json === null) throw notFound();
      return json;
    },
  };
}

export type WatchService = ReturnType<typeof createWatchService>;
