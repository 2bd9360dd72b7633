import type { AlertNote, Counts, ReviewQuery, ReviewSort } from '../../domain/alerts/review.ts';
import { REVIEW_SORTS } from '../../domain/alerts/review.ts';
import {
  ALERT_ORIGINS,
  ALERT_SEVERITIES,
  ALERT_STATES,
  type AlertOrigin,
  type AlertSeverity,
  type AlertState,
} from '../../domain/alerts/types.ts';
import { type OppositionWindow, oppositionStatus } from '../../domain/opposition.ts';
import { officeReference } from '../../register/office-links.ts';
import { officeName } from '../../register/office-names.ts';
import { html, markdown, type SafeHtml } from '../html.ts';
import { actionButton, csrfField, type Notice, pill, time } from './components.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

export type AlertView = {
  id: string;
  watchId: string;
  state: AlertState;
  severity: AlertSeverity;
  rationale: string;
  rationaleAt: string;
  emailedAt: string | null;
  createdAt: string;
  hit: {
    id: string;
    entityType: string;
    sourceCode: string;
    externalId: string;
    displayName: string;
    ownerName: string | null;
    ownerCountryCode: string | null;
    jurisdiction: string;
    filedAt: string;
    registeredAt: string | null;
    expiresAt: string | null;
    status: string | null;
    live: boolean | null;
    classes: number[];
    rawPayload: Record<string, unknown>;
    publishedAt: string | null;
    opposition: OppositionWindow | null;
    /** Absent in JSON written before migration 037; null while the register holds the record. */
    removedAt?: string | null;
  };
  origin: AlertOrigin;
};

/** What the filter and each alert call an origin (docs/matching.md, "New filings and existing marks"). */
export const ORIGIN_LABEL: Record<AlertOrigin, string> = {
  new_filing: 'New filing',
  existing_mark: 'Existing mark',
};

const ORIGIN_PILL: Record<AlertOrigin, SafeHtml> = {
  new_filing: pill(ORIGIN_LABEL.new_filing, 'info'),
  existing_mark: pill(ORIGIN_LABEL.existing_mark, 'neutral'),
};

const ORIGIN_NOTE: Record<AlertOrigin, string> = {
  new_filing: 'filed or published after the watch started looking',
  existing_mark: 'on the register before the watch started looking',
};

const SEVERITY_PILL: Record<AlertSeverity, SafeHtml> = {
  high: pill('High severity', 'danger'),
  medium: pill('Medium severity', 'warning'),
  low: pill('Low severity', 'neutral'),
};

/**
 * "Opposition closes in 12 days (2026-12-07)" (an action), "Opposition closed on …; cancellation
 * remains possible" (past, muted), or not known.
 */
function opposition(hit: AlertView['hit'], now: Date): SafeHtml {
  if (hit.removedAt != null) return html`<span class="muted">None: the record was deleted</span>`;
  if (hit.opposition === null) return html`<span class="muted">Not known</span>`;
  const status = oppositionStatus(hit.opposition, now);
  const closed = status.startsWith('closed');
  return html`<span class="${closed ? 'muted' : 'opposition-open'}">Opposition ${status}</span> <span class="muted">at the ${hit.opposition.office}</span>`;
}

/**
 * Live or dead at the office, as the hit says; "Not known" when the office's code says neither;
 * a record the office deleted says that first.
 */
function liveness(hit: AlertView['hit']): SafeHtml {
  if (hit.removedAt != null) {
    return html`<span class="muted">Deleted from the register by the office (taken ${hit.removedAt.slice(0, 10)}): it blocks nothing</span>`;
  }
  if (hit.live === null)
    return html`<span class="muted">Not known (the status does not say)</span>`;
  return hit.live ? html`Live` : html`<span class="muted">Dead: it blocks nothing</span>`;
}

/** A field the register record does not have: said so, never a placeholder value. */
export const notPublished = (): SafeHtml =>
  html`<span class="muted not-published">Not published by this source</span>`;

/** The owner and country, each said to be absent when the source does not give it. */
export function ownerWithCountry(hit: Pick<AlertView['hit'], 'ownerName' | 'ownerCountryCode'>) {
  if (hit.ownerName === null) return notPublished();
  if (hit.ownerCountryCode === null) {
    return html`${hit.ownerName} <span class="muted">(country not published by this source)</span>`;
  }
  return html`${hit.ownerName} (${hit.ownerCountryCode})`;
}

export function classList(classes: readonly number[]): SafeHtml {
  return classes.length === 0 ? notPublished() : html`${classes.join(', ')}`;
}

const orNotPublished = (value: string | null): SafeHtml =>
  value === null ? notPublished() : html`${value}`;

/** A date of the record: absent means the source does not give it, never a dash. */
const dateOrNotPublished = (iso: string | null): SafeHtml =>
  iso === null ? notPublished() : time(iso, { dateOnly: true });

/** The office number as the office writes it, linked to its public page where one is known. */
export function officeNumber(hit: Pick<AlertView['hit'], 'externalId'>): SafeHtml {
  const ref = officeReference(hit.externalId);
  if (ref === null) return html`<span class="mono">${hit.externalId}</span>`;
  if (ref.page === null) return html`${ref.label} <span class="mono">${ref.number}</span>`;
  return html`${ref.label} <a class="mono" href="${ref.page.url}" rel="noopener noreferrer" target="_blank">${ref.number}</a>`;
}

const STATE_LABEL: Record<AlertState, string> = {
  unread: 'Unread',
  read: 'Read',
  dismissed: 'Dismissed',
};

const SEVERITY_LABEL: Record<AlertSeverity, string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

const SORT_LABEL: Record<ReviewSort, string> = {
  newest: 'Newest first',
  severity: 'Severity, high first',
  deadline: 'Deadline, soonest first',
};

const STATE_PILL: Record<AlertState, SafeHtml> = {
  unread: pill('Unread', 'info'),
  read: pill('Read', 'neutral'),
  dismissed: pill('Dismissed', 'neutral'),
};

const ACTION_LABEL: Record<AlertState, string> = {
  read: 'Mark read',
  unread: 'Mark unread',
  dismissed: 'Dismiss',
};

/**
 * The list's address for a query: what the filter form submits, kept in every link of the page
 * (pagination, export, the return after a change) so a filtered list can be bookmarked and shared.
 */
export function reviewSearch(query: ReviewQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const state of query.states) params.append('state', state);
  for (const severity of query.severities) params.append('severity', severity);
  if (query.origin !== undefined) params.set('origin', query.origin);
  if (query.watchId !== undefined) params.set('watch', query.watchId);
  if (query.q !== '') params.set('q', query.q);
  if (query.sort !== 'newest') params.set('sort', query.sort);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function triageButtons(alert: AlertView, csrfToken: string, returnTo: string): SafeHtml {
  const targets = (['read', 'unread', 'dismissed'] as const).filter((s) => s !== alert.state);
  return html`${targets.map((state) =>
    actionButton({
      action: `/alerts/${alert.id}/state`,
      csrfToken,
      label: ACTION_LABEL[state],
      style: state === 'dismissed' ? 'ghost' : 'secondary',
      fields: { state, return: returnTo },
      ariaLabel: `${ACTION_LABEL[state]}: ${alert.hit.displayName}`,
    }),
  )}`;
}

function watchLink(watchId: string, watchNames: Map<string, string>): SafeHtml {
  const name = watchNames.get(watchId);
  return html`<a href="/watches/${watchId}/edit">${name ?? 'a watch'}</a>`;
}

function alertItem(
  item: { alert: AlertView; note: string | null },
  o: { csrfToken: string; returnTo: string; watchNames: Map<string, string>; now: Date },
): SafeHtml {
  const { alert } = item;
  const hit = alert.hit;
  const box = `select-${alert.id}`;
  return html`<li class="alert-item alert-item--${alert.state}" data-alert-id="${alert.id}" data-severity="${alert.severity}">
    <div class="alert-item__select">
      <input type="checkbox" id="${box}" name="ids" value="${alert.id}" form="bulk-form" data-bulk-item>
      <label for="${box}"><span class="visually-hidden">Select ${hit.displayName}</span></label>
    </div>
    <div class="alert-item__main">
      <h2 class="alert-item__title"><a href="/alerts/${alert.id}">${hit.displayName}</a> ${SEVERITY_PILL[alert.severity]} ${STATE_PILL[alert.state]} ${ORIGIN_PILL[alert.origin]}</h2>
      <p class="alert-item__meta">May conflict with ${watchLink(alert.watchId, o.watchNames)} · found ${time(alert.createdAt)}</p>
      <dl class="facts">
        <div><dt>Owner</dt><dd>${ownerWithCountry(hit)}</dd></div>
        <div><dt>Office</dt><dd>${officeName(hit.jurisdiction)} (${hit.jurisdiction})</dd></div>
        <div><dt>Classes</dt><dd>${classList(hit.classes)}</dd></div>
        <div><dt>Status</dt><dd>${orNotPublished(hit.status)}</dd></div>
        <div><dt>Live or dead</dt><dd>${liveness(hit)}</dd></div>
        <div><dt>Filed</dt><dd>${time(hit.filedAt, { dateOnly: true })}</dd></div>
        <div><dt>Number</dt><dd>${officeNumber(hit)}</dd></div>
        <div><dt>Opposition</dt><dd>${opposition(hit, o.now)}</dd></div>
      </dl>
      ${item.note !== null && html`<p class="alert-item__note"><span class="alert-item__note-label">Note:</span> ${item.note}</p>`}
    </div>
    <div class="alert-item__actions">${triageButtons(alert, o.csrfToken, o.returnTo)}</div>
  </li>`;
}

function checkbox(o: {
  name: string;
  value: string;
  label: string;
  count: number;
  checked: boolean;
}) {
  const id = `filter-${o.name}-${o.value}`;
  return html`<li><input type="checkbox" id="${id}" name="${o.name}" value="${o.value}"${o.checked ? html` checked` : html``}>
    <label for="${id}">${o.label} <span class="count" aria-label="${o.count} alerts">${o.count}</span></label></li>`;
}

function filterForm(o: {
  query: ReviewQuery;
  counts: Counts;
  watches: { id: string; name: string }[];
}): SafeHtml {
  const { query } = o;
  const active = activeFilterCount(query);
  // Open as the page comes; on a phone app.js folds it (data-fold-narrow) so that the first alerts
  // are on the first screen, and the summary says how many filters are on.
  return html`<details class="review-filters card card--padded" open data-fold-narrow>
  <summary class="review-filters__summary">Filters and order${active > 0 ? html` <span class="count">${active} active</span>` : html``}</summary>
  <form class="review-filters__form" method="get" action="/alerts" aria-label="Filter and order alerts">
    <fieldset>
      <legend>State</legend>
      <ul class="checks">${ALERT_STATES.map((state) =>
        checkbox({
          name: 'state',
          value: state,
          label: STATE_LABEL[state],
          count: o.counts.state[state],
          checked: query.states.includes(state),
        }),
      )}</ul>
    </fieldset>
    <fieldset>
      <legend>Severity</legend>
      <ul class="checks">${ALERT_SEVERITIES.map((severity) =>
        checkbox({
          name: 'severity',
          value: severity,
          label: SEVERITY_LABEL[severity],
          count: o.counts.severity[severity],
          checked: query.severities.includes(severity),
        }),
      )}</ul>
    </fieldset>
    <div class="field">
      <label for="filter-origin">New or existing</label>
      <select id="filter-origin" name="origin">
        <option value="">Both</option>
        ${ALERT_ORIGINS.map(
          (origin) =>
            html`<option value="${origin}"${origin === query.origin ? html` selected` : html``}>${ORIGIN_LABEL[origin]}s only</option>`,
        )}
      </select>
    </div>
    <div class="field">
      <label for="filter-watch">Watch</label>
      <select id="filter-watch" name="watch">
        <option value="">All watches</option>
        ${o.watches.map(
          (watch) =>
            html`<option value="${watch.id}"${watch.id === query.watchId ? html` selected` : html``}>${watch.name}</option>`,
        )}
      </select>
    </div>
    <div class="field">
      <label for="filter-q">Mark contains</label>
      <input id="filter-q" name="q" type="search" value="${query.q}" maxlength="200">
    </div>
    <div class="field">
      <label for="filter-sort">Order</label>
      <select id="filter-sort" name="sort">
        ${REVIEW_SORTS.map(
          (sort) =>
            html`<option value="${sort}"${sort === query.sort ? html` selected` : html``}>${SORT_LABEL[sort]}</option>`,
        )}
      </select>
    </div>
    <div class="review-filters__actions">
      <button type="submit" class="button button--primary">Apply filters</button>
      <a class="button button--ghost" href="/alerts">Reset</a>
    </div>
  </form>
  </details>`;
}

/** Filters that differ from the list as it opens (the inbox, every severity and watch, newest). */
function activeFilterCount(query: ReviewQuery): number {
  const inbox = query.states.length === 2 && !query.states.includes('dismissed');
  return [
    !inbox,
    query.severities.length > 0,
    query.watchId !== undefined,
    query.q !== '',
    query.sort !== 'newest',
  ].filter(Boolean).length;
}

function bulkBar(csrfToken: string, returnTo: string): SafeHtml {
  return html`<form id="bulk-form" class="bulk-bar" method="post" action="/alerts/bulk" aria-label="Change the selected alerts">
    ${csrfField(csrfToken)}
    <input type="hidden" name="return" value="${returnTo}">
    <span class="bulk-bar__all" data-select-all-wrap hidden><input type="checkbox" id="select-all" data-select-all><label for="select-all">Select all on this page</label></span>
    <span class="bulk-bar__label" id="bulk-label">With the selected alerts:</span>
    <span class="bulk-bar__buttons" role="group" aria-labelledby="bulk-label">
      <button type="submit" name="state" value="read" class="button button--secondary button--small">Mark read</button>
      <button type="submit" name="state" value="unread" class="button button--secondary button--small">Mark unread</button>
      <button type="submit" name="state" value="dismissed" class="button button--ghost button--small">Dismiss</button>
    </span>
  </form>`;
}

export function alertsPage(o: {
  viewer: Viewer;
  query: ReviewQuery;
  problems: string[];
  counts: Counts;
  watches: { id: string; name: string }[];
  alerts: { alert: AlertView; note: string | null }[];
  watchNames: Map<string, string>;
  nextHref: string | null;
  notice: Notice | null;
  now: Date;
}) {
  const returnTo = `/alerts${reviewSearch(o.query)}`;
  const notice: Notice | null =
    o.problems.length > 0
      ? {
          kind: 'error',
          message: html`The list could not use part of its address, so it shows the inbox instead: ${o.problems.join(' ')}`,
        }
      : o.notice;
  return layout({
    title: 'Alerts',
    viewer: o.viewer,
    current: 'alerts',
    notice,
    body: html`${pageHeader('Alerts', {
      lead: 'Marks that may conflict with your watches: new filings, and the existing marks a watch’s first scan found on the register. Filter, deal with the serious ones first, then mark them read or dismiss them, several at a time.',
      actions: html`<a class="button button--secondary" href="/alerts.csv${reviewSearch(o.query)}" download>Export CSV</a>`,
    })}
    ${filterForm({ query: o.query, counts: o.counts, watches: o.watches })}
    ${
      o.alerts.length === 0
        ? html`<p class="empty">No alerts match these filters. New filings that may conflict with your watches appear here.</p>`
        : html`${bulkBar(o.viewer.csrfToken, returnTo)}<ul class="alert-list" aria-label="Alerts">${o.alerts.map(
            (item) =>
              alertItem(item, {
                csrfToken: o.viewer.csrfToken,
                returnTo,
                watchNames: o.watchNames,
                now: o.now,
              }),
          )}</ul>`
    }
    ${o.nextHref !== null && html`<p class="pager"><a class="button button--secondary" href="${o.nextHref}">Next page</a></p>`}`,
  });
}

function noteSection(alertId: string, note: AlertNote | null, csrfToken: string): SafeHtml {
  return html`<section class="card card--padded alert-note" aria-labelledby="note-title">
    <h2 id="note-title">Note</h2>
    ${
      note === null
        ? html`<p class="muted" id="note-by">No note yet. What you decide about this alert is kept here for your colleagues.</p>`
        : html`<p class="alert-note__text">${note.note}</p>
      <p class="muted" id="note-by">Written by ${note.authorEmail ?? 'a former member'} on ${time(note.updatedAt)}</p>`
    }
    <form method="post" action="/alerts/${alertId}/note">
      ${csrfField(csrfToken)}
      <div class="field">
        <label for="note">${note === null ? 'Add a note' : 'Change the note'}</label>
        <p class="hint" id="note-hint">Up to 2,000 characters. Everyone who sees this alert sees the note; save it empty to remove it.</p>
        <textarea id="note" name="note" rows="4" maxlength="2000" aria-describedby="note-hint">${note?.note ?? ''}</textarea>
      </div>
      <button type="submit" class="button button--primary">Save note</button>
    </form>
  </section>`;
}

export function alertDetailPage(o: {
  viewer: Viewer;
  alert: AlertView;
  watchName: string | null;
  note: AlertNote | null;
  notice: Notice | null;
  now: Date;
}) {
  const { alert } = o;
  const hit = alert.hit;
  const returnTo = `/alerts/${alert.id}`;
  return layout({
    title: hit.displayName,
    viewer: o.viewer,
    current: 'alerts',
    notice: o.notice,
    body: html`<p class="breadcrumb"><a href="/alerts">← Alerts</a></p>
    ${pageHeader(
      html`${hit.displayName} ${SEVERITY_PILL[alert.severity]} ${STATE_PILL[alert.state]}`,
      {
        lead: html`May conflict with your watch ${watchLink(alert.watchId, new Map(o.watchName ? [[alert.watchId, o.watchName]] : []))}.`,
        actions: triageButtons(alert, o.viewer.csrfToken, returnTo),
      },
    )}
    <div class="detail-grid">
      <section class="card card--padded" aria-labelledby="mark-title">
        <h2 id="mark-title">The filed mark</h2>
        <dl class="details">
          <div><dt>Mark</dt><dd>${hit.displayName}</dd></div>
          <div><dt>Owner</dt><dd>${orNotPublished(hit.ownerName)}</dd></div>
          <div><dt>Owner’s country</dt><dd>${orNotPublished(hit.ownerCountryCode)}</dd></div>
          <div><dt>Office</dt><dd>${officeName(hit.jurisdiction)} (${hit.jurisdiction})</dd></div>
          <div><dt>Nice classes</dt><dd>${classList(hit.classes)}</dd></div>
          <div><dt>Status</dt><dd>${orNotPublished(hit.status)}</dd></div>
          <div><dt>Live or dead</dt><dd>${liveness(hit)}</dd></div>
          <div><dt>Filed</dt><dd>${time(hit.filedAt, { dateOnly: true })}</dd></div>
          <div><dt>Published for opposition</dt><dd>${dateOrNotPublished(hit.publishedAt)}</dd></div>
          <div><dt>Opposition</dt><dd>${opposition(hit, o.now)}</dd></div>
          <div><dt>Registered</dt><dd>${dateOrNotPublished(hit.registeredAt)}</dd></div>
          <div><dt>Expires</dt><dd>${dateOrNotPublished(hit.expiresAt)}</dd></div>
          <div><dt>Office number</dt><dd>${officeNumber(hit)}</dd></div>
          <div><dt>Mirror key</dt><dd class="mono">${hit.externalId}</dd></div>
          <div><dt>Source</dt><dd>${hit.sourceCode}</dd></div>
          <div><dt>Type</dt><dd>${hit.entityType}</dd></div>
        </dl>
      </section>
      <section class="card card--padded" aria-labelledby="alert-title">
        <h2 id="alert-title">This alert</h2>
        <dl class="details">
          <div><dt>State</dt><dd>${STATE_PILL[alert.state]}</dd></div>
          <div><dt>Found</dt><dd>${time(alert.createdAt)}</dd></div>
          <div><dt>E-mailed</dt><dd>${alert.emailedAt === null ? html`<span class="muted">Not e-mailed (in-app only)</span>` : time(alert.emailedAt)}</dd></div>
          <div><dt>Severity</dt><dd>${SEVERITY_PILL[alert.severity]}</dd></div>
          <div><dt>New or existing</dt><dd>${ORIGIN_PILL[alert.origin]} <span class="muted">${ORIGIN_NOTE[alert.origin]}</span></dd></div>
          <div><dt>Assessed</dt><dd>${time(alert.rationaleAt)}</dd></div>
          <div><dt>Alert id</dt><dd class="mono">${alert.id}</dd></div>
        </dl>
      </section>
    </div>
    ${noteSection(alert.id, o.note, o.viewer.csrfToken)}
    <section class="card card--padded rationale" aria-labelledby="rationale-title">
      <h2 id="rationale-title">Why this mark was raised</h2>
      ${markdown(alert.rationale)}
    </section>
    <details class="card card--padded raw">
      <summary>Register record as received</summary>
      <pre class="mono">${JSON.stringify(hit.rawPayload, null, 2)}</pre>
    </details>`,
  });
}
