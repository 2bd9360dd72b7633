import type { Queryable } from '../../data/db.ts';
import { lockAlertState, setAlertState } from '../../data/repositories/alerts.ts';
import { enqueueAlertEvents } from './events.ts';
import type { AlertState } from './types.ts';

/**
 * The one way an alert's state changes (API PATCH, the dashboard, its bulk actions): the alert's
 * row is locked, the state set and, when it really changed, its `alert.updated` event recorded,
 * all in the caller's transaction. Returns the alert's JSON, or null when the owner has no such
 * alert.
 */
export async function changeAlertState(
  tx: Queryable,
  ownerId: string,
  alertId: string,
  state: AlertState,
): Promise<string | null> {
  const previous = await lockAlertState(tx, ownerId, alertId);
  if (previous === null) return null;
  const json = await setAlertState(tx, ownerId, alertId, state);
  if (previous !== state) await enqueueAlertEvents(tx, 'alert.updated', ownerId, [alertId]);
  return json;
}
