import { type HtmlValue, html, type SafeHtml } from '../html.ts';
import { formatDate, formatDateTime } from './format.ts';

export type Notice = { kind: 'success' | 'error' | 'info' | 'warning'; message: HtmlValue };

export function noticeBanner(notice: Notice | null | undefined): SafeHtml {
  if (!notice) return html``;
  // Errors interrupt (role=alert); confirmations are announced politely (role=status).
  const role = notice.kind === 'error' || notice.kind === 'warning' ? 'alert' : 'status';
  return html`<div class="notice notice--${notice.kind}" role="${role}">${notice.message}</div>`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function time(iso: string | null, options: { dateOnly?: boolean } = {}): SafeHtml {
  if (iso === null) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}">${options.dateOnly ? formatDate(iso) : formatDateTime(iso)}</time>`;
}

export type FieldErrors = Record<string, string[]>;

export function errorList(id: string, messages: readonly string[] | undefined): SafeHtml {
  if (!messages || messages.length === 0) return html``;
  return html`<ul class="field-errors" id="${id}">${messages.map(
    (message) => html`<li>${message}</li>`,
  )}</ul>`;
}

/** aria-describedby of a field: its hint and its errors, whichever exist. */
function describedBy(id: string, hint: boolean, errors: boolean): SafeHtml {
  const ids = [hint && `${id}-hint`, errors && `${id}-errors`].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

export type TextFieldOptions = {
  id: string;
  name: string;
  label: string;
  value?: string;
  type?: 'text' | 'email' | 'password' | 'url';
  hint?: HtmlValue;
  errors?: readonly string[] | undefined;
  required?: boolean;
  autocomplete?: string;
  maxlength?: number;
  extra?: HtmlValue;
};

export function textField(o: TextFieldOptions): SafeHtml {
  const hasErrors = (o.errors?.length ?? 0) > 0;
  return html`<div class="field${hasErrors ? ' field--invalid' : ''}">
    <label for="${o.id}">${o.label}${o.required ? html`` : html` <span class="optional">(optional)</span>`}</label>
    ${o.hint !== undefined && html`<p class="hint" id="${o.id}-hint">${o.hint}</p>`}
    ${errorList(`${o.id}-errors`, o.errors)}
    <input id="${o.id}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.required ? html` required` : html``}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : html``}${o.maxlength ? html` maxlength="${o.maxlength}"` : html``}${hasErrors ? html` aria-invalid="true"` : html``}${describedBy(o.id, o.hint !== undefined, hasErrors)}>
    ${o.extra}
  </div>`;
}

export type SelectOption = { value: string; label: string };

export function selectField(o: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: SelectOption[];
  hint?: HtmlValue;
  errors?: readonly string[] | undefined;
  extra?: HtmlValue;
}): SafeHtml {
  const hasErrors = (o.errors?.length ?? 0) > 0;
  return html`<div class="field${hasErrors ? ' field--invalid' : ''}">
    <label for="${o.id}">${o.label}</label>
    ${o.hint !== undefined && html`<p class="hint" id="${o.id}-hint">${o.hint}</p>`}
    ${errorList(`${o.id}-errors`, o.errors)}
    <select id="${o.id}" name="${o.name}"${hasErrors ? html` aria-invalid="true"` : html``}${describedBy(o.id, o.hint !== undefined, hasErrors)}>
      ${o.options.map(
        (option) =>
          html`<option value="${option.value}"${option.value === o.value ? html` selected` : html``}>${option.label}</option>`,
      )}
    </select>
    ${o.extra}
  </div>`;
}

/** A one-button form that POSTs to `action` (mark read, restore, revoke…). */
export function actionButton(o: {
  action: string;
  csrfToken: string;
  label: HtmlValue;
  style?: 'primary' | 'secondary' | 'danger' | 'ghost';
  fields?: Record<string, string>;
  attributes?: SafeHtml;
  ariaLabel?: string;
}): SafeHtml {
  return html`<form method="post" action="${o.action}" class="inline-form"${o.attributes ?? html``}>
    ${csrfField(o.csrfToken)}
    ${Object.entries(o.fields ?? {}).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}
    <button type="submit" class="button button--${o.style ?? 'secondary'} button--small"${o.ariaLabel ? html` aria-label="${o.ariaLabel}"` : html``}>${o.label}</button>
  </form>`;
}

/** Filter tabs: links, the current one marked for assistive technology. */
export function filterTabs(
  label: string,
  tabs: { href: string; label: HtmlValue; current: boolean }[],
): SafeHtml {
  return html`<nav class="tabs" aria-label="${label}"><ul>${tabs.map(
    (tab) =>
      html`<li><a href="${tab.href}"${tab.current ? html` aria-current="page"` : html``}>${tab.label}</a></li>`,
  )}</ul></nav>`;
}

export function pill(text: string, tone: 'neutral' | 'info' | 'success' | 'warning' | 'danger') {
  return html`<span class="pill pill--${tone}">${text}</span>`;
}
