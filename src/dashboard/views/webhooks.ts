import { WEBHOOK_EVENTS } from '../../domain/webhook-events.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Notice } from './components.ts';
import { actionButton, csrfField, errorList, pill, textField, time } from './components.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

export type WebhookRow = {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
};

export type DeliveryRow = {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
};

export type WebhookForm = {
  url: string;
  events: string[];
  description: string;
  errors: { url?: string[]; events?: string[]; description?: string[]; form?: string[] };
};

export const DEFAULT_WEBHOOK_FORM: WebhookForm = {
  url: '',
  events: ['alert.created'],
  description: '',
  errors: {},
};

const EVENT_HELP: Record<string, string> = {
  'alert.created': 'A scan raised a new alert (the alert and its hit).',
  'alert.updated': 'An alert was marked read, unread or dismissed.',
};

function secretPanel(shown: { url: string; secret: string }): SafeHtml {
  return html`<section class="card card--padded new-key" aria-labelledby="new-secret-title">
    <h2 id="new-secret-title">Signing secret for ${shown.url}</h2>
    <p><strong>Copy it now.</strong> This is the only time it is shown. Your receiver checks each request’s <code>webhook-signature</code> with it (Standard Webhooks).</p>
    <div class="copy-field">
      <label class="visually-hidden" for="new-secret">Signing secret</label>
      <input id="new-secret" class="mono" type="text" value="${shown.secret}" readonly spellcheck="false" autocomplete="off">
      <button type="button" class="button button--primary" data-copy-target="new-secret" hidden>Copy</button>
    </div>
  </section>`;
}

function createForm(form: WebhookForm, csrfToken: string): SafeHtml {
  const eventErrors = form.errors.events;
  return html`<section class="card card--padded" aria-labelledby="create-webhook-title">
    <h2 id="create-webhook-title">Add an endpoint</h2>
    <form method="post" action="/webhooks" class="form" novalidate>
      ${csrfField(csrfToken)}
      ${errorList('webhook-form-errors', form.errors.form)}
      ${textField({ id: 'webhook-url', name: 'url', label: 'URL', type: 'url', value: form.url, required: true, maxlength: 2048, hint: 'An https:// address of your receiver.', errors: form.errors.url })}
      <fieldset class="field${eventErrors ? ' field--invalid' : ''}">
        <legend>Events</legend>
        ${errorList('webhook-events-errors', eventErrors)}
        <div class="checkboxes">
        ${WEBHOOK_EVENTS.map(
          (event) => html`<div class="checkbox">
            <input type="checkbox" id="event-${event.replace('.', '-')}" name="events" value="${event}"${form.events.includes(event) ? html` checked` : html``}>
            <label for="event-${event.replace('.', '-')}"><code>${event}</code></label>
            <p class="hint">${EVENT_HELP[event] ?? ''}</p>
          </div>`,
        )}
        </div>
      </fieldset>
      ${textField({ id: 'webhook-description', name: 'description', label: 'Description', value: form.description, maxlength: 500, errors: form.errors.description })}
      <button type="submit" class="button button--primary">Add endpoint</button>
    </form>
  </section>`;
}

function deliveryOutcome(d: DeliveryRow): SafeHtml {
  if (d.status === 'delivered') return html`${pill('Delivered', 'success')} ${time(d.deliveredAt)}`;
  const last =
    d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? 'not sent yet');
  if (d.status === 'failed')
    return html`${pill('Failed', 'danger')} <span class="muted">${last}</span>`;
  return html`${pill('Pending', 'info')} <span class="muted">${d.attempts > 0 ? last : ''}</span>${d.nextAttemptAt ? html` next ${time(d.nextAttemptAt)}` : html``}`;
}

function deliveriesTable(webhook: WebhookRow, deliveries: DeliveryRow[]): SafeHtml {
  if (deliveries.length === 0) return html`<p class="empty">No deliveries yet.</p>`;
  return html`<div class="table-wrap"><table class="table table--cards" data-deliveries="${webhook.id}">
    <caption class="visually-hidden">Recent deliveries to ${webhook.url}</caption>
    <thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">Attempts</th><th scope="col">Outcome</th></tr></thead>
    <tbody>${deliveries.map(
      (d) => html`<tr data-delivery-id="${d.id}" data-delivery-status="${d.status}">
        <td data-label="Event"><code>${d.eventType}</code> <span class="muted mono">${d.eventId}</span></td>
        <td data-label="Created">${time(d.createdAt)}</td>
        <td data-label="Attempts">${String(d.attempts)}</td>
        <td data-label="Outcome">${deliveryOutcome(d)}</td>
      </tr>`,
    )}</tbody>
  </table></div>`;
}

function webhookCard(webhook: WebhookRow, deliveries: DeliveryRow[], csrfToken: string): SafeHtml {
  const base = `/webhooks/${webhook.id}`;
  const status = webhook.active
    ? pill('Enabled', 'success')
    : webhook.disabledAt
      ? pill('Disabled after failures', 'danger')
      : pill('Disabled', 'neutral');
  return html`<section class="card card--padded section" id="webhook-${webhook.id}" data-webhook-id="${webhook.id}">
    <h3 class="mono">${webhook.url}</h3>
    <p>${status} ${webhook.events.map((event) => html`<code>${event}</code> `)}${webhook.description ? html`<span class="muted">${webhook.description}</span>` : html``}</p>
    ${webhook.disabledReason && html`<p class="hint">${webhook.disabledReason}</p>`}
    <div class="actions">
      ${actionButton({ action: `${base}/${webhook.active ? 'disable' : 'enable'}`, csrfToken, label: webhook.active ? 'Disable' : 'Enable' })}
      ${actionButton({ action: `${base}/test`, csrfToken, label: 'Send test event' })}
      ${actionButton({ action: `${base}/rotate-secret`, csrfToken, label: 'Rotate secret' })}
      ${actionButton({ action: `${base}/delete`, csrfToken, label: 'Delete', style: 'danger', ariaLabel: `Delete ${webhook.url}` })}
    </div>
    <h4>Recent deliveries</h4>
    ${deliveriesTable(webhook, deliveries)}
  </section>`;
}

function upgradePanel(planLabel: string): SafeHtml {
  return html`<section class="card card--padded callout" aria-labelledby="no-webhooks-title">
    <h2 id="no-webhooks-title">Webhooks are not part of your ${planLabel} plan</h2>
    <p>Webhooks, like the REST API, come with the Team and Enterprise plans.</p>
    <p><a class="button button--primary" href="/pricing">Compare plans</a></p>
  </section>`;
}

export function webhooksPage(o: {
  viewer: Viewer;
  canUse: boolean;
  webhooks: { webhook: WebhookRow; deliveries: DeliveryRow[] }[];
  form: WebhookForm;
  shownSecret: { url: string; secret: string } | null;
  notice: Notice | null;
}) {
  return layout({
    title: 'Webhooks',
    viewer: o.viewer,
    current: 'webhooks',
    notice: o.notice,
    body: html`${pageHeader('Webhooks', {
      lead: html`Signed events pushed to your systems when alerts are raised or change. See the <a href="/docs">API reference</a>.`,
    })}
    ${o.shownSecret && secretPanel(o.shownSecret)}
    ${o.canUse ? createForm(o.form, o.viewer.csrfToken) : upgradePanel(o.viewer.planLabel)}
    <section aria-labelledby="webhooks-title" class="section">
      <h2 id="webhooks-title">Your endpoints</h2>
      ${o.webhooks.length === 0 ? html`<p class="empty">No endpoints yet.</p>` : o.webhooks.map(({ webhook, deliveries }) => webhookCard(webhook, deliveries, o.viewer.csrfToken))}
    </section>`,
  });
}
