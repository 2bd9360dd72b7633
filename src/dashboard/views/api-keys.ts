import { SCOPES, type Scope } from '../../domain/api-keys.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Notice } from './components.ts';
import { actionButton, csrfField, errorList, pill, textField, time } from './components.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

export type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

export type KeyForm = {
  name: string;
  scopes: string[];
  errors: { name?: string[]; scopes?: string[] };
};

const SCOPE_HELP: Record<Scope, string> = {
  'watches:read': 'List and read watches.',
  'watches:write':
    'Create, change, deactivate and restore watches (does not include reading them).',
  'alerts:read': 'List and read alerts, and mark them read, unread or dismissed.',
  'apikeys:read': 'Reserved for reading key metadata; not needed for GET /me.',
  'webhooks:read': 'List and read webhook endpoints and their deliveries.',
  'webhooks:write': 'Add, change, delete webhook endpoints and rotate their secrets.',
};

export const DEFAULT_KEY_FORM: KeyForm = {
  name: '',
  scopes: ['watches:read', 'watches:write', 'alerts:read'],
  errors: {},
};

function createdKeyPanel(created: { name: string; key: string }): SafeHtml {
  return html`<section class="card card--padded new-key" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Your new key “${created.name}”</h2>
    <p><strong>Copy it now.</strong> This is the only time it is shown; only a hash is kept. If you lose it, revoke it and create another.</p>
    <div class="copy-field">
      <label class="visually-hidden" for="new-key">API key</label>
      <input id="new-key" class="mono" type="text" value="${created.key}" readonly spellcheck="false" autocomplete="off">
      <button type="button" class="button button--primary" data-copy-target="new-key" hidden>Copy</button>
    </div>
    <p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code>. Try it: <code>curl -H "Authorization: Bearer …" /api/v1/me</code></p>
  </section>`;
}

function createForm(form: KeyForm, csrfToken: string): SafeHtml {
  const scopeErrors = form.errors.scopes;
  return html`<section class="card card--padded" aria-labelledby="create-key-title">
    <h2 id="create-key-title">Create a key</h2>
    <form method="post" action="/api-keys" class="form" novalidate>
      ${csrfField(csrfToken)}
      ${textField({ id: 'key-name', name: 'name', label: 'Name', value: form.name, required: true, maxlength: 100, hint: 'What uses this key, e.g. “CI pipeline” or “Brand portal”.', errors: form.errors.name })}
      <fieldset class="field${scopeErrors ? ' field--invalid' : ''}"${scopeErrors ? html` aria-describedby="key-scopes-errors"` : html``}>
        <legend>Scopes</legend>
        ${errorList('key-scopes-errors', scopeErrors)}
        <div class="checkboxes">
        ${SCOPES.map(
          (scope) => html`<div class="checkbox">
            <input type="checkbox" id="scope-${scope.replace(':', '-')}" name="scopes" value="${scope}"${form.scopes.includes(scope) ? html` checked` : html``} aria-describedby="scope-${scope.replace(':', '-')}-hint">
            <label for="scope-${scope.replace(':', '-')}"><code>${scope}</code></label>
            <p class="hint" id="scope-${scope.replace(':', '-')}-hint">${SCOPE_HELP[scope]}</p>
          </div>`,
        )}
        </div>
      </fieldset>
      <button type="submit" class="button button--primary">Create key</button>
    </form>
  </section>`;
}

function upgradePanel(planLabel: string): SafeHtml {
  return html`<section class="card card--padded callout" aria-labelledby="no-api-title">
    <h2 id="no-api-title">API keys are not part of your ${planLabel} plan</h2>
    <p>The REST API, and the keys that authenticate it, come with the Team and Enterprise plans. Watches and alerts work in this dashboard on your current plan.</p>
    <p><a class="button button--primary" href="/pricing">Compare plans</a></p>
  </section>`;
}

function keyTable(keys: KeyRow[], csrfToken: string): SafeHtml {
  if (keys.length === 0) {
    return html`<p class="empty">No keys yet.</p>`;
  }
  return html`<div class="table-wrap"><table class="table table--cards">
    <caption class="visually-hidden">Your API keys</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>
    ${keys.map(
      (
        key,
      ) => html`<tr id="key-${key.id}" data-key-id="${key.id}"${key.revokedAt ? html` class="is-revoked"` : html``}>
        <th scope="row">${key.name}</th>
        <td data-label="Key"><code class="mono">${key.prefix}…</code></td>
        <td data-label="Scopes"><ul class="scope-list">${key.scopes.length === 0 ? html`<li class="muted">none</li>` : key.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul></td>
        <td data-label="Created">${time(key.createdAt)}</td>
        <td data-label="Last used">${key.lastUsedAt === null ? html`<span class="muted">Never</span>` : time(key.lastUsedAt)}</td>
        <td data-label="Status" data-key-status>${key.revokedAt === null ? pill('Active', 'success') : html`${pill('Revoked', 'neutral')} ${time(key.revokedAt)}`}</td>
        <td class="actions">${
          key.revokedAt === null &&
          actionButton({
            action: `/api-keys/${key.id}/revoke`,
            csrfToken,
            label: 'Revoke',
            style: 'danger',
            ariaLabel: `Revoke ${key.name}`,
            attributes: html` data-revoke-key="${key.id}" data-key-name="${key.name}"`,
          })
        }</td>
      </tr>`,
    )}
    </tbody>
  </table></div>`;
}

export function apiKeysPage(o: {
  viewer: Viewer;
  canMint: boolean;
  keys: KeyRow[];
  form: KeyForm;
  created: { name: string; key: string } | null;
  notice: Notice | null;
}) {
  return layout({
    title: 'API keys',
    viewer: o.viewer,
    current: 'api-keys',
    notice: o.notice,
    body: html`${pageHeader('API keys', {
      lead: html`Keys authenticate requests to the REST API. See the <a href="/docs">API reference</a>.`,
    })}
    ${o.created && createdKeyPanel(o.created)}
    ${o.canMint ? createForm(o.form, o.viewer.csrfToken) : upgradePanel(o.viewer.planLabel)}
    <section aria-labelledby="keys-title" class="section">
      <h2 id="keys-title">Your keys</h2>
      ${keyTable(o.keys, o.viewer.csrfToken)}
    </section>`,
  });
}
