import { html } from '../html.ts';
import { csrfField, type Notice, textField } from './components.ts';
import { layout } from './layout.ts';

export function signInPage(o: {
  csrfToken: string;
  email: string;
  next: string | null;
  notice: Notice | null;
}) {
  return layout({
    title: 'Sign in',
    viewer: null,
    narrow: true,
    notice: o.notice,
    body: html`<div class="card card--padded sign-in">
      <h1>Sign in</h1>
      <p class="lead">Watch your brands against new trademark filings.</p>
      <form method="post" action="/sign-in" class="form" novalidate>
        ${csrfField(o.csrfToken)}
        ${o.next !== null && html`<input type="hidden" name="next" value="${o.next}">`}
        ${textField({ id: 'email', name: 'email', label: 'E-mail', type: 'email', value: o.email, required: true, autocomplete: 'username' })}
        ${textField({ id: 'password', name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
        <button type="submit" class="button button--primary button--block">Sign in</button>
      </form>
      <p class="hint sign-in__help">Accounts are created by your administrator. Forgotten your password? Ask them to set a new one.</p>
    </div>`,
  });
}
