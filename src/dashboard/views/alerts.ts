import { officeName } from '../../domain/alert-assessment.ts';
import type { AlertSeverity, AlertState } from '../../domain/alerts.ts';
import { type OppositionWindow, oppositionStatus } from '../../domain/opposition.ts';
import { officeReference } from '../../register/office-links.ts';
import { html, markdown, type SafeHtml } from '../html.ts';
import { actionButton, filterTabs, type Notice, pill, time } from './components.ts';
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
    classes: number[];
    rawPayload: Record<string, unknown>;
    publishedAt: string | null;
    opposition: OppositionWindow | null;
  };
};

const SEVERITY_PILL: Record<AlertSeverity, SafeHtml> = {
  high: pill('High severity', 'danger'),
  medium: pill('Medium severity', 'warning'),
  low: pill('Low severity', 'neutral'),
};

/** "Opposition closes in 12 days (2026-12-07)", or "closed", or not known. */
function opposition(hit: AlertView['hit'], now: Date): SafeHtml {
  if (hit.opposition === null) return html`<span class="muted">Not known</span>`;
  const status = oppositionStatus(hit.opposition, now);
  const closed = status.startsWith('closed');
  return html`<span class="${closed ? 'muted' : 'opposition-open'}">Opposition ${status}</span> <span class="muted">at the ${hit.opposition.office}</span>`;
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

/** The office number as the office writes it, linked to its public page where one is known. */
export function officeNumber(hit: Pick<AlertView['hit'], 'externalId'>): SafeHtml {
  const ref = officeReference(hit.externalId);
  if (ref === null) return html`<span class="mono">${hit.externalId}</span>`;
  return html`${ref.label} <a class="mono" href="${ref.url}" rel="noopener noreferrer" target="_blank">${ref.number}</a>`;
}

/** The list's filters: the inbox is everything not dismissed. */
export const ALERT_FILTERS = ['inbox', 'unread', 'read', 'dismissed', 'all'] as const;
export type AlertFilter = (typeof ALERT_FILTERS)[number];

const FILTER_LABEL: Record<AlertFilter, string> = {
  inbox: 'Inbox',
  unread: 'Unread',
  read: 'Read',
  dismissed: 'Dismissed',
  all: 'All',
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
  alert: AlertView,
  o: { csrfToken: string; returnTo: string; watchNames: Map<string, string>; now: Date },
): SafeHtml {
  const hit = alert.hit;
  return html`<li class="alert-item alert-item--${alert.state}" data-alert-id="${alert.id}" data-severity="${alert.severity}">
    <div class="alert-item__main">
      <h2 class="alert-item__title"><a href="/alerts/${alert.id}">${hit.displayName}</a> ${SEVERITY_PILL[alert.severity]} ${STATE_PILL[alert.state]}</h2>
      <p class="alert-item__meta">May conflict with ${watchLink(alert.watchId, o.watchNames)} · found ${time(alert.createdAt)}</p>
      <dl class="facts">
        <div><dt>Owner</dt><dd>${ownerWithCountry(hit)}</dd></div>
        <div><dt>Office</dt><dd>${officeName(hit.jurisdiction)} (${hit.jurisdiction})</dd></div>
        <div><dt>Classes</dt><dd>${classList(hit.classes)}</dd></div>
        <div><dt>Status</dt><dd>${orNotPublished(hit.status)}</dd></div>
        <div><dt>Filed</dt><dd>${time(hit.filedAt, { dateOnly: true })}</dd></div>
        <div><dt>Number</dt><dd>${officeNumber(hit)}</dd></div>
        <div><dt>Opposition</dt><dd>${opposition(hit, o.now)}</dd></div>
      </dl>
    </div>
    <div class="alert-item__actions">${triageButtons(alert, o.csrfToken, o.returnTo)}</div>
  </li>`;
}

export function alertsPage(o: {
  viewer: Viewer;
  filter: AlertFilter;
  watch: { id: string; name: string } | null;
  alerts: AlertView[];
  watchNames: Map<string, string>;
  returnTo: string;
  nextHref: string | null;
  notice: Notice | null;
  now: Date;
}) {
  const watchParam = o.watch ? `&watch=${o.watch.id}` : '';
  const tabs = ALERT_FILTERS.map((filter) => ({
    href: `/alerts?state=${filter}${watchParam}`,
    label:
      filter === 'unread' && o.viewer.unread > 0 && !o.watch
        ? html`${FILTER_LABEL[filter]} <span class="count">${o.viewer.unread}</span>`
        : FILTER_LABEL[filter],
    current: o.filter === filter,
  }));
  const empty: Record<AlertFilter, string> = {
    inbox: 'Nothing to review. New filings that may conflict with your watches will appear here.',
    unread: 'No unread alerts. You are all caught up.',
    read: 'No read alerts.',
    dismissed: 'No dismissed alerts.',
    all: 'No alerts yet. Scans report filings that may conflict with your watches here.',
  };
  return layout({
    title: 'Alerts',
    viewer: o.viewer,
    current: 'alerts',
    notice: o.notice,
    body: html`${pageHeader('Alerts', {
      lead: 'Newly filed marks that may conflict with your watches. Review each one, then mark it read or dismiss it.',
    })}
    ${
      o.watch &&
      html`<p class="filter-chip">Showing alerts of <strong>${o.watch.name}</strong> <a href="/alerts?state=${o.filter}">Show all watches</a></p>`
    }
    ${filterTabs('Filter alerts by state', tabs)}
    ${
      o.alerts.length === 0
        ? html`<p class="empty">${empty[o.filter]}</p>`
        : html`<ul class="alert-list" aria-label="Alerts">${o.alerts.map((alert) =>
            alertItem(alert, {
              csrfToken: o.viewer.csrfToken,
              returnTo: o.returnTo,
              watchNames: o.watchNames,
              now: o.now,
            }),
          )}</ul>`
    }
    ${o.nextHref !== null && html`<p class="pager"><a class="button button--secondary" href="${o.nextHref}">Older alerts</a></p>`}`,
  });
}

export function alertDetailPage(o: {
  viewer: Viewer;
  alert: AlertView;
  watchName: string | null;
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
          <div><dt>Filed</dt><dd>${time(hit.filedAt, { dateOnly: true })}</dd></div>
          <div><dt>Published for opposition</dt><dd>${hit.publishedAt === null ? notPublished() : time(hit.publishedAt, { dateOnly: true })}</dd></div>
          <div><dt>Opposition</dt><dd>${opposition(hit, o.now)}</dd></div>
          <div><dt>Registered</dt><dd>${time(hit.registeredAt, { dateOnly: true })}</dd></div>
          <div><dt>Expires</dt><dd>${time(hit.expiresAt, { dateOnly: true })}</dd></div>
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
          <div><dt>Assessed</dt><dd>${time(alert.rationaleAt)}</dd></div>
          <div><dt>Alert id</dt><dd class="mono">${alert.id}</dd></div>
        </dl>
      </section>
    </div>
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
