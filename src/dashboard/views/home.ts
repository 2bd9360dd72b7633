import { type Plan, TIER_LABEL } from '../../domain/plans.ts';
import { html } from '../html.ts';
import { type AlertView, classList, officeNumber, ownerWithCountry } from './alerts.ts';
import { time } from './components.ts';
import { plural } from './format.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';
import { CADENCE_LABEL } from './watches.ts';

export function homePage(o: {
  viewer: Viewer;
  plan: Plan;
  activeWatches: number;
  activeKeys: number;
  latestUnread: AlertView[];
  watchNames: Map<string, string>;
}) {
  const cap = o.plan.maxActiveWatches;
  return layout({
    title: 'Overview',
    viewer: o.viewer,
    current: 'overview',
    body: html`${pageHeader('Overview', { lead: html`Signed in as ${o.viewer.email}.` })}
    <div class="stats">
      <a class="stat card" href="/alerts?state=unread">
        <span class="stat__label">Unread alerts</span>
        <span class="stat__value" data-stat="unread">${o.viewer.unread}</span>
        <span class="stat__hint">${o.viewer.unread === 0 ? 'All caught up' : 'Waiting for review'}</span>
      </a>
      <a class="stat card" href="/watches">
        <span class="stat__label">Active watches</span>
        <span class="stat__value">${o.activeWatches}</span>
        <span class="stat__hint">${cap === null ? 'Unlimited on your plan' : `of ${cap} on your plan`}</span>
      </a>
      <a class="stat card" href="/pricing">
        <span class="stat__label">Plan</span>
        <span class="stat__value stat__value--text">${TIER_LABEL[o.plan.tier]}</span>
        <span class="stat__hint">${CADENCE_LABEL[o.plan.minScanCadence]} scans at most</span>
      </a>
      <a class="stat card" href="/api-keys">
        <span class="stat__label">API keys</span>
        <span class="stat__value${o.plan.apiAccess ? '' : ' stat__value--text'}">${o.plan.apiAccess ? o.activeKeys : 'Not included'}</span>
        <span class="stat__hint">${o.plan.apiAccess ? plural(o.activeKeys, 'active key') : 'Team and Enterprise plans'}</span>
      </a>
    </div>
    <section class="section" aria-labelledby="latest-title">
      <div class="section__header"><h2 id="latest-title">Latest unread alerts</h2><a href="/alerts?state=unread">All unread alerts</a></div>
      ${
        o.latestUnread.length === 0
          ? o.activeWatches === 0
            ? html`<div class="empty"><p>You are not watching any brand yet.</p><p><a class="button button--primary" href="/watches/new">Create a watch</a></p></div>`
            : html`<p class="empty">Nothing new. Your watches are being scanned; new filings that may conflict show up here.</p>`
          : html`<div class="table-wrap"><table class="table table--cards">
          <caption class="visually-hidden">Latest unread alerts</caption>
          <thead><tr><th scope="col">Filed mark</th><th scope="col">Your watch</th><th scope="col">Office number</th><th scope="col">Owner</th><th scope="col">Classes</th><th scope="col">Found</th></tr></thead>
          <tbody>${o.latestUnread.map(
            (alert) => html`<tr>
              <th scope="row"><a href="/alerts/${alert.id}">${alert.hit.displayName}</a></th>
              <td data-label="Your watch">${o.watchNames.get(alert.watchId) ?? ''}</td>
              <td data-label="Office number">${officeNumber(alert.hit)}</td>
              <td data-label="Owner">${ownerWithCountry(alert.hit)}</td>
              <td data-label="Classes">${classList(alert.hit.classes)}</td>
              <td data-label="Found">${time(alert.createdAt)}</td>
            </tr>`,
          )}</tbody></table></div>`
      }
    </section>`,
  });
}
