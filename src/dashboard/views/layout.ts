import { cssUrl, iconUrl, jsUrl } from '../assets.ts';
import { type HtmlValue, html, type SafeHtml } from '../html.ts';
import { csrfField, type Notice, noticeBanner } from './components.ts';

/** Who is looking at a page: null on public pages for anonymous visitors. */
export type Viewer = {
  email: string;
  planLabel: string;
  organization: string | null;
  csrfToken: string;
  unread: number;
};

export type NavItem = 'overview' | 'watches' | 'alerts' | 'api-keys' | 'webhooks' | 'pricing';

export type PageOptions = {
  title: string;
  viewer: Viewer | null;
  current?: NavItem | undefined;
  notice?: Notice | null | undefined;
  /** Narrow single-column pages (sign-in). */
  narrow?: boolean;
  body: HtmlValue;
};

function navLink(href: string, label: HtmlValue, item: NavItem, current: NavItem | undefined) {
  return html`<li><a href="${href}"${item === current ? html` aria-current="page"` : html``}>${label}</a></li>`;
}

function unreadBadge(unread: number): SafeHtml {
  if (unread === 0) return html`<span class="visually-hidden">, no unread</span>`;
  const shown = unread > 99 ? '99+' : String(unread);
  return html` <span class="badge" data-unread-count="${unread}"><span aria-hidden="true">${shown}</span><span class="visually-hidden">, ${unread} unread</span></span>`;
}

function header(viewer: Viewer | null, current: NavItem | undefined): SafeHtml {
  const brand = html`<a class="brand" href="/"><span class="brand__mark" aria-hidden="true">TW</span><span>Trademark Watch</span></a>`;
  if (!viewer) {
    return html`<header class="site-header"><div class="site-header__inner">
      ${brand}
      <nav class="main-nav main-nav--end" aria-label="Main"><ul>
        ${navLink('/pricing', 'Pricing', 'pricing', current)}
        <li><a class="button button--primary button--small" href="/sign-in">Sign in</a></li>
      </ul></nav>
    </div></header>`;
  }
  // On a phone the links and the account fold behind a Menu button (app.js opens it; without the
  // script nothing is folded and the links wrap onto lines of their own).
  return html`<header class="site-header"><div class="site-header__inner">
    ${brand}
    <button type="button" class="button button--secondary button--small nav-toggle" aria-expanded="false" aria-controls="site-menu" hidden>Menu${viewer.unread > 0 ? html` <span class="badge" aria-hidden="true">${viewer.unread > 99 ? '99+' : String(viewer.unread)}</span><span class="visually-hidden">, ${viewer.unread} unread alerts</span>` : html``}</button>
    <div class="site-menu" id="site-menu">
    <nav class="main-nav" aria-label="Main"><ul>
      ${navLink('/', 'Overview', 'overview', current)}
      ${navLink('/watches', 'Watches', 'watches', current)}
      ${navLink('/alerts', html`Alerts${unreadBadge(viewer.unread)}`, 'alerts', current)}
      ${navLink('/api-keys', 'API keys', 'api-keys', current)}
      ${navLink('/webhooks', 'Webhooks', 'webhooks', current)}
      ${navLink('/pricing', 'Pricing', 'pricing', current)}
    </ul></nav>
    <div class="account">
      <span class="account__who"><span class="account__email">${viewer.email}</span>
        <span class="account__plan">${viewer.organization ? html`${viewer.organization} · ` : ''}${viewer.planLabel} plan</span></span>
      <form method="post" action="/sign-out" class="inline-form">
        ${csrfField(viewer.csrfToken)}
        <button type="submit" class="button button--ghost button--small">Sign out</button>
      </form>
    </div>
    </div>
  </div></header>`;
}

export function layout(o: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${o.title} · Trademark Watch</title>
<link rel="icon" href="${iconUrl()}" type="image/svg+xml">
<link rel="stylesheet" href="${cssUrl()}">
<script src="${jsUrl()}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
${header(o.viewer, o.current)}
<main id="main" tabindex="-1" class="${o.narrow ? 'container container--narrow' : 'container'}">
${noticeBanner(o.notice)}
${o.body}
</main>
<footer class="site-footer"><div class="container">
  <span>Trademark Watch · register data from the USPTO, the EUIPO (freely available at EUIPO eSearch) and CIPO</span>
  <nav aria-label="Footer"><ul><li><a href="/pricing">Plans</a></li><li><a href="/docs">API reference</a></li><li><a href="/about">Data sources and credits</a></li></ul></nav>
</div></footer>
<div id="live-region" class="visually-hidden" aria-live="polite"></div>
</body>
</html>`;
}

/** Page heading with optional actions on the right. */
export function pageHeader(
  title: HtmlValue,
  options: { lead?: HtmlValue; actions?: HtmlValue } = {},
) {
  return html`<div class="page-header">
    <div><h1>${title}</h1>${options.lead !== undefined && html`<p class="lead">${options.lead}</p>`}</div>
    ${options.actions !== undefined && html`<div class="page-header__actions">${options.actions}</div>`}
  </div>`;
}
