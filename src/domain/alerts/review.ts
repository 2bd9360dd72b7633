import type { Clock } from '../../clock.ts';
import type { Db } from '../../data/db.ts';
import * as repo from '../../data/repositories/alert-review.ts';
import { nameTextReason, unstorableReason } from '../../text.ts';
import { ApiError, notFound } from '../errors.ts';
import { isIdOf } from '../ids.ts';
import type { Principal } from '../principal.ts';
import { changeAlertState } from './state.ts';
import {
  ALERT_ORIGINS,
  ALERT_SEVERITIES,
  ALERT_STATES,
  type AlertOrigin,
  type AlertSeverity,
  type AlertState,
} from './types.ts';

// The dashboard's review desk (docs/dashboard.md): the alert list filtered and ordered for triage,
// many alerts changed at once, a note per alert and the CSV export. The public API's alerts are
// unchanged by all of it.

export type { AlertNote } from '../../data/repositories/alert-review.ts';

export const REVIEW_SORTS = ['newest', 'severity', 'deadline'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export type ReviewQuery = {
  states: AlertState[];
  severities: AlertSeverity[];
  /** New filings or existing marks only; undefined: both. */
  origin: AlertOrigin | undefined;
  watchId: string | undefined;
  q: string;
  sort: ReviewSort;
};

/** At most this many alerts change in one bulk request (the form sends one page at a time). */
export const MAX_BULK_IDS = 200;
export const MAX_NOTE_LENGTH = 2000;
export const MAX_QUERY_LENGTH = 200;

/** The export reads the list in pages of this many rows: its memory does not grow with the list. */
export const EXPORT_PAGE_SIZE = 500;

const WATCH_ID = /^wat_[0-9A-Za-z]{1,64}$/;

export type ReviewQueryInput = {
  state: string[];
  severity: string[];
  origin: string | undefined;
  watch: string | undefined;
  q: string | undefined;
  sort: string | undefined;
};

/**
 * The list's query parameters, checked. Problems are messages for the page (a bad bookmark is a
 * person's mistake to explain, not an error page): the query is then the default list.
 * `inbox` and `all` are kept from the earlier tabs (links in e-mails and bookmarks).
 */
export function parseReviewQuery(input: ReviewQueryInput): {
  query: ReviewQuery;
  problems: string[];
} {
  const problems: string[] = [];
  const states = new Set<AlertState>();
  let allStates = false;
  for (const value of input.state) {
    if (value === 'inbox') {
      states.add('unread');
      states.add('read');
    } else if (value === 'all') allStates = true;
    else if ((ALERT_STATES as readonly string[]).includes(value)) states.add(value as AlertState);
    else problems.push(`“${clip(value)}” is not a state. Choose unread, read or dismissed.`);
  }
  const severities = new Set<AlertSeverity>();
  for (const value of input.severity) {
    if ((ALERT_SEVERITIES as readonly string[]).includes(value)) {
      severities.add(value as AlertSeverity);
    } else problems.push(`“${clip(value)}” is not a severity. Choose high, medium or low.`);
  }
  let origin: AlertOrigin | undefined;
  if (input.origin !== undefined && input.origin !== '') {
    if ((ALERT_ORIGINS as readonly string[]).includes(input.origin)) {
      origin = input.origin as AlertOrigin;
    } else {
      problems.push(
        `“${clip(input.origin)}” is not an origin. Choose new_filing or existing_mark.`,
      );
    }
  }
  let watchId: string | undefined;
  if (input.watch !== undefined && input.watch !== '') {
    if (WATCH_ID.test(input.watch)) watchId = input.watch;
    else problems.push('The watch in the address is not a watch id.');
  }
  let q = (input.q ?? '').trim();
  if (q.length > MAX_QUERY_LENGTH) {
    problems.push(`Search for at most ${MAX_QUERY_LENGTH} characters.`);
    q = '';
  } else if (q !== '' && nameTextReason(q) !== null) {
    problems.push('The search text must be one line of plain text.');
    q = '';
  }
  let sort: ReviewSort = 'newest';
  if (input.sort !== undefined && input.sort !== '') {
    if ((REVIEW_SORTS as readonly string[]).includes(input.sort)) sort = input.sort as ReviewSort;
    else
      problems.push(`“${clip(input.sort)}” is not an order. Choose newest, severity or deadline.`);
  }
  // No state asked for: the inbox (everything not dismissed), as the list has always opened.
  const chosen =
    allStates || states.size === ALERT_STATES.length
      ? [...ALERT_STATES]
      : states.size === 0
        ? (['unread', 'read'] as AlertState[])
        : ALERT_STATES.filter((s) => states.has(s));
  return {
    query: {
      states: chosen,
      severities: ALERT_SEVERITIES.filter((s) => severities.has(s)),
      origin,
      watchId,
      q,
      sort,
    },
    problems,
  };
}

const clip = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** A page's position in the list as an opaque cursor (base64url JSON), and back. */
export function encodeReviewCursor(position: repo.ReviewPosition): string {
  return Buffer.from(
    JSON.stringify([position.rank, position.closes, position.createdAt, position.id]),
  ).toString('base64url');
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Null for anything this service did not issue. */
export function decodeReviewCursor(cursor: string): repo.ReviewPosition | null {
  if (!/^[A-Za-z0-9_-]{1,300}$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 4) return null;
  const [rank, closes, createdAt, id] = value as unknown[];
  if (rank !== 0 && rank !== 1 && rank !== 2) return null;
  if (typeof closes !== 'string' || !(closes === '' || /^\d{4}-\d{2}-\d{2}$/.test(closes))) {
    return null;
  }
  if (typeof createdAt !== 'string' || !ISO_MS.test(createdAt)) return null;
  const time = Date.parse(createdAt);
  if (Number.isNaN(time) || new Date(time).toISOString() !== createdAt) return null;
  if (typeof id !== 'string' || !isIdOf('alt', id)) return null;
  return { rank, closes, createdAt, id };
}

export type Counts = {
  state: Record<AlertState, number>;
  severity: Record<AlertSeverity, number>;
};

/** The list as the desk reads it: pages, the counts of each filter choice, the export. */
function reviewReads(db: Db, clock: Clock) {
  const today = () => new Date(clock.now()).toISOString().slice(0, 10);
  const filterOf = (principal: Principal, query: ReviewQuery): repo.ReviewFilter => ({
    ownerId: principal.ownerId,
    states: query.states,
    severities: query.severities,
    origin: query.origin,
    watchId: query.watchId,
    q: query.q,
  });

  return {
    /** One page of the list, and the cursor of the next one (null on the last page). */
    async page(
      principal: Principal,
      query: ReviewQuery,
      cursor: string | undefined,
      limit: number,
    ) {
      const after = cursor === undefined || cursor === '' ? undefined : decodeReviewCursor(cursor);
      if (after === null) {
        throw new ApiError('malformed_request', 'This page of the list no longer exists.');
      }
      const rows = await repo.reviewPage(db, {
        filter: filterOf(principal, query),
        sort: query.sort,
        today: today(),
        after,
        limit: limit + 1,
      });
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        rows: rows.slice(0, limit),
        next: last === undefined ? null : encodeReviewCursor(last.position),
      };
    },

    /**
     * Counts per state (within the chosen severities) and per severity (within the chosen states),
     * for the watch and text of the query: what each choice of the filter form would show.
     */
    async counts(principal: Principal, query: ReviewQuery): Promise<Counts> {
      const rows = await repo.reviewCounts(db, {
        ownerId: principal.ownerId,
        origin: query.origin,
        watchId: query.watchId,
        q: query.q,
      });
      const counts: Counts = {
        state: { unread: 0, read: 0, dismissed: 0 },
        severity: { high: 0, medium: 0, low: 0 },
      };
      const severities = query.severities.length === 0 ? ALERT_SEVERITIES : query.severities;
      for (const row of rows) {
        const state = row.state as AlertState;
        const severity = row.severity as AlertSeverity;
        if (severities.includes(severity)) counts.state[state] += row.n;
        if (query.states.includes(state)) counts.severity[severity] += row.n;
      }
      return counts;
    },

    /**
     * Every alert of the query, in its order, one page of rows at a time: the caller writes each
     * page out before the next is read.
     */
    async *all(principal: Principal, query: ReviewQuery) {
      const filter = filterOf(principal, query);
      const day = today();
      let after: repo.ReviewPosition | undefined;
      for (;;) {
        const rows = await repo.reviewPage(db, {
          filter,
          sort: query.sort,
          today: day,
          after,
          limit: EXPORT_PAGE_SIZE,
        });
        if (rows.length > 0) yield rows;
        const last = rows.at(-1);
        if (rows.length < EXPORT_PAGE_SIZE || last === undefined) return;
        after = last.position;
      }
    },
  };
}

/** Triage: states of many alerts at once, and notes. */
function reviewChanges(db: Db) {
  return {
    /**
     * Sets the state of many alerts with the rule of PATCH /api/v1/alerts/{id} (and its
     * alert.updated events), in one transaction: all change or none. Ids the principal cannot see
     * are skipped without a word. Returns how many alerts were seen (and so now have the state).
     */
    async bulkSetState(principal: Principal, ids: string[], state: AlertState): Promise<number> {
      const unique = [...new Set(ids)];
      if (unique.length > MAX_BULK_IDS) {
        throw new ApiError(
          'validation_error',
          `Select at most ${MAX_BULK_IDS} alerts at a time (${unique.length} were selected).`,
        );
      }
      const wanted = unique.filter((id) => isIdOf('alt', id));
      return db.transaction(async (tx) => {
        let changed = 0;
        for (const id of wanted) {
          if ((await changeAlertState(tx, principal.ownerId, id, state)) !== null) changed++;
        }
        return changed;
      });
    },

    async note(principal: Principal, alertId: string) {
      if (!isIdOf('alt', alertId)) throw notFound();
      return repo.noteOf(db, principal.ownerId, alertId);
    },

    /** Writes the note (trimmed; empty clears it). */
    async setNote(principal: Principal, alertId: string, text: string): Promise<void> {
      if (!isIdOf('alt', alertId)) throw notFound();
      const note = text.trim();
      const length = [...note].length;
      if (length > MAX_NOTE_LENGTH) {
        throw new ApiError(
          'validation_error',
          `A note has at most ${MAX_NOTE_LENGTH} characters (this one has ${length}).`,
        );
      }
      const reason = unstorableReason(note);
      if (reason !== null) throw new ApiError('validation_error', `The note ${reason}.`);
      const found = await repo.writeNote(db, {
        ownerId: principal.ownerId,
        alertId,
        authorId: principal.userId,
        note: note === '' ? null : note,
      });
      if (!found) throw notFound();
    },
  };
}

export function createAlertReviewService(db: Db, clock: Clock) {
  return { ...reviewReads(db, clock), ...reviewChanges(db) };
}

export type AlertReviewService = ReturnType<typeof createAlertReviewService>;
