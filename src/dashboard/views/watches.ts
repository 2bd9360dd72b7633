import {
  CADENCES,
  type Cadence,
  isFasterThanAllowed,
  type Plan,
  TIER_LABEL,
} from '../../domain/plans.ts';
import { html, type SafeHtml } from '../html.ts';
import type { WatchFormErrors, WatchFormValues } from '../watch-form.ts';
import {
  actionButton,
  csrfField,
  filterTabs,
  type Notice,
  pill,
  selectField,
  textField,
  time,
} from './components.ts';
import { plural } from './format.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

export type WatchView = {
  id: string;
  name: string;
  watchType: string;
  attributes: { niceClasses: number[]; designations: string[]; relatedClasses?: boolean };
  scanCadence: Cadence;
  active: boolean;
  logoUrl: string | null;
  logoSt13: string | null;
  createdAt: string;
};

export type WatchStatusFilter = 'active' | 'inactive' | 'all';

export const CADENCE_LABEL: Record<Cadence, string> = {
  hourly: 'Hourly',
  daily: 'Daily',
  weekly: 'Weekly',
};

const pricingLink = html`<a href="/pricing">Compare plans</a>`;

/** The plan's cap and cadence, and how much of the cap is used. */
export function planSummary(plan: Plan, activeCount: number): SafeHtml {
  const cap = plan.maxActiveWatches;
  const full = cap !== null && activeCount >= cap;
  return html`<section class="plan-strip card${full ? ' plan-strip--full' : ''}" aria-label="Plan usage">
    <div class="plan-strip__item">
      <span class="plan-strip__label">Plan</span>
      <strong>${TIER_LABEL[plan.tier]}</strong>
    </div>
    <div class="plan-strip__item plan-strip__item--grow">
      <span class="plan-strip__label" id="usage-label">Active watches</span>
      <strong>${cap === null ? html`${activeCount} <span class="muted">(unlimited)</span>` : html`${activeCount} of ${cap}`}</strong>
      ${cap !== null && html`<progress max="${cap}" value="${Math.min(activeCount, cap)}" aria-labelledby="usage-label">${activeCount} of ${cap}</progress>`}
    </div>
    <div class="plan-strip__item">
      <span class="plan-strip__label">Fastest scans</span>
      <strong>${CADENCE_LABEL[plan.minScanCadence]}</strong>
    </div>
    ${full && html`<p class="plan-strip__note">You are using every active watch your plan allows. Deactivate one to make room, or <a href="/pricing">compare plans</a> to watch more.</p>`}
  </section>`;
}

function watchRow(watch: WatchView, csrfToken: string): SafeHtml {
  return html`<tr data-watch-id="${watch.id}">
    <th scope="row"><a href="/watches/${watch.id}/edit">${watch.name}</a></th>
    <td data-label="Nice classes">${watch.attributes.niceClasses.join(', ')}</td>
    <td data-label="Designations">${watch.attributes.designations.join(', ')}</td>
    <td data-label="Cadence">${CADENCE_LABEL[watch.scanCadence]}</td>
    <td data-label="Status">${watch.active ? pill('Active', 'success') : pill('Inactive', 'neutral')}</td>
    <td data-label="Created">${time(watch.createdAt, { dateOnly: true })}</td>
    <td class="actions">
      <a class="button button--secondary button--small" href="/alerts?state=all&amp;watch=${watch.id}" aria-label="Alerts of ${watch.name}">Alerts</a>
      <a class="button button--secondary button--small" href="/watches/${watch.id}/edit" aria-label="Edit ${watch.name}">Edit</a>
      ${
        watch.active
          ? actionButton({
              action: `/watches/${watch.id}/deactivate`,
              csrfToken,
              label: 'Deactivate',
              style: 'danger',
              ariaLabel: `Deactivate ${watch.name}`,
            })
          : actionButton({
              action: `/watches/${watch.id}/restore`,
              csrfToken,
              label: 'Restore',
              style: 'secondary',
              ariaLabel: `Restore ${watch.name}`,
            })
      }
    </td>
  </tr>`;
}

export function watchesPage(o: {
  viewer: Viewer;
  plan: Plan;
  activeCount: number;
  status: WatchStatusFilter;
  watches: WatchView[];
  nextHref: string | null;
  notice: Notice | null;
}) {
  const tab = (status: WatchStatusFilter, label: string) => ({
    href: `/watches?status=${status}`,
    label,
    current: o.status === status,
  });
  const empty =
    o.status === 'inactive'
      ? html`<p class="empty">No inactive watches. Deactivated watches appear here and can be restored.</p>`
      : html`<div class="empty"><p>No watches yet. A watch pairs a brand name with the Nice classes and countries you care about; new filings that may conflict become alerts.</p><p><a class="button button--primary" href="/watches/new">Create your first watch</a></p></div>`;
  return layout({
    title: 'Watches',
    viewer: o.viewer,
    current: 'watches',
    notice: o.notice,
    body: html`${pageHeader('Watches', {
      lead: 'Brands you track. Each active watch is scanned against new trademark filings on its cadence.',
      actions: html`<a class="button button--primary" href="/watches/new">New watch</a>`,
    })}
    ${planSummary(o.plan, o.activeCount)}
    ${filterTabs('Filter watches', [tab('active', 'Active'), tab('inactive', 'Inactive'), tab('all', 'All')])}
    ${
      o.watches.length === 0
        ? empty
        : html`<div class="table-wrap"><table class="table table--cards">
        <caption class="visually-hidden">${o.status === 'all' ? 'All' : o.status === 'active' ? 'Active' : 'Inactive'} watches</caption>
        <thead><tr><th scope="col">Brand</th><th scope="col">Nice classes</th><th scope="col">Designations</th><th scope="col">Cadence</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>${o.watches.map((watch) => watchRow(watch, o.viewer.csrfToken))}</tbody>
      </table></div>`
    }
    ${o.nextHref !== null && html`<p class="pager"><a class="button button--secondary" href="${o.nextHref}">Older watches</a></p>`}`,
  });
}

function cadenceOptions(plan: Plan) {
  return CADENCES.map((cadence) => ({
    value: cadence,
    label: isFasterThanAllowed(plan, cadence)
      ? `${CADENCE_LABEL[cadence]} (not in the ${TIER_LABEL[plan.tier]} plan)`
      : CADENCE_LABEL[cadence],
  }));
}

function errorSummary(errors: WatchFormErrors): SafeHtml {
  const fieldCount = Object.values(errors.fields).reduce((n, list) => n + (list?.length ?? 0), 0);
  if (errors.form.length === 0 && fieldCount === 0) return html``;
  return html`<div class="notice notice--error" role="alert" id="error-summary">
    <p><strong>The watch was not saved.</strong> ${
      fieldCount > 0 ? `Fix ${plural(fieldCount, 'problem')} below.` : ''
    }</p>
    ${errors.form.length > 0 && html`<ul>${errors.form.map((message) => html`<li>${message}</li>`)}</ul>`}
    ${errors.planLimit === 'cap' && html`<p>${pricingLink} to watch more brands at once.</p>`}
  </div>`;
}

export function watchFormPage(o: {
  viewer: Viewer;
  plan: Plan;
  activeCount: number;
  mode: 'create' | 'edit';
  watch: WatchView | null;
  values: WatchFormValues;
  errors: WatchFormErrors;
}) {
  const { values, errors } = o;
  const action = o.mode === 'create' ? '/watches' : `/watches/${o.watch?.id ?? ''}`;
  const title = o.mode === 'create' ? 'New watch' : `Edit ${o.watch?.name ?? 'watch'}`;
  return layout({
    title,
    viewer: o.viewer,
    current: 'watches',
    body: html`${pageHeader(title, {
      lead:
        o.mode === 'create'
          ? 'New filings are compared with the brand name, in the Nice classes and countries you choose.'
          : o.watch?.active === false
            ? 'This watch is inactive: it is not scanned until restored.'
            : 'Changing the name, classes or designations makes the next scan search the whole register again.',
    })}
    ${o.mode === 'create' && planSummary(o.plan, o.activeCount)}
    ${errorSummary(errors)}
    <form method="post" action="${action}" class="form card card--padded" novalidate>
      ${csrfField(o.viewer.csrfToken)}
      ${textField({ id: 'watch-name', name: 'name', label: 'Brand name', value: values.name, required: true, maxlength: 200, hint: 'The word mark to watch, as it is written.', errors: errors.fields.name })}
      ${textField({ id: 'watch-classes', name: 'niceClasses', label: 'Nice classes', value: values.niceClasses, required: true, hint: 'Numbers from 1 to 45, separated by commas, e.g. 9, 35, 42.', errors: errors.fields.niceClasses })}
      ${textField({ id: 'watch-designations', name: 'designations', label: 'Designations', value: values.designations, required: true, hint: 'Two-letter country codes, or EU for the European Union, separated by commas, e.g. DE, FR, EU.', errors: errors.fields.designations })}
      ${selectField({
        id: 'watch-related',
        name: 'relatedClasses',
        label: 'Related classes',
        value: values.relatedClasses,
        options: [
          { value: 'true', label: 'Also compare filings in related classes' },
          { value: 'false', label: 'Only the classes above' },
        ],
        hint: 'Goods that tribunals found related across classes, such as beer (32) and spirits (33), or wine (33) and cheese (29). Their alerts weigh less than the same class.',
        errors: errors.fields.relatedClasses,
      })}
      ${selectField({
        id: 'watch-cadence',
        name: 'scanCadence',
        label: 'Scan cadence',
        value: values.scanCadence,
        options: cadenceOptions(o.plan),
        hint: `How often new filings are checked. Your ${TIER_LABEL[o.plan.tier]} plan scans ${CADENCE_LABEL[o.plan.minScanCadence].toLowerCase()} at most.`,
        errors: errors.fields.scanCadence,
        extra:
          errors.planLimit === 'cadence' &&
          html`<p class="field-upgrade">${pricingLink} for faster scans.</p>`,
      })}
      ${
        o.mode === 'edit' &&
        html`<fieldset class="fieldset">
          <legend>Logo</legend>
          ${textField({ id: 'watch-logo-url', name: 'logoUrl', label: 'Logo URL', type: 'url', value: values.logoUrl, hint: 'An http(s) address of your logo.', errors: errors.fields.logoUrl })}
          ${textField({ id: 'watch-logo-st13', name: 'logoSt13', label: 'Own application number (ST.13)', value: values.logoSt13, hint: 'Your own mark’s application: it is never reported as a conflict, and its logo is used when no URL is given.', errors: errors.fields.logoSt13 })}
        </fieldset>`
      }
      <div class="form-actions">
        <button type="submit" class="button button--primary">${o.mode === 'create' ? 'Create watch' : 'Save changes'}</button>
        <a class="button button--ghost" href="/watches">Cancel</a>
      </div>
    </form>
    ${
      o.mode === 'edit' &&
      o.watch &&
      html`<section class="card card--padded danger-zone" aria-labelledby="status-title">
        <h2 id="status-title">${o.watch.active ? 'Deactivate this watch' : 'Restore this watch'}</h2>
        <p>${o.watch.active ? 'Scanning stops; the watch and its alerts stay readable, and you can restore it later.' : 'Scanning resumes within a minute. Restoring counts against your plan’s active watches.'}</p>
        ${
          o.watch.active
            ? actionButton({
                action: `/watches/${o.watch.id}/deactivate`,
                csrfToken: o.viewer.csrfToken,
                label: 'Deactivate watch',
                style: 'danger',
              })
            : actionButton({
                action: `/watches/${o.watch.id}/restore`,
                csrfToken: o.viewer.csrfToken,
                label: 'Restore watch',
                style: 'primary',
              })
        }
      </section>`
    }`,
  });
}
