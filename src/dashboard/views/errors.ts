import { html } from '../html.ts';
import { layout, type Viewer } from './layout.ts';

const TITLES: Record<number, string> = {
  400: 'That request could not be understood',
  401: 'Please sign in',
  403: 'That request was refused',
  404: 'Page not found',
  405: 'Page not found',
  413: 'That was too much to send',
  429: 'Too many requests',
};

export function errorPage(o: { status: number; message: string; viewer: Viewer | null }) {
  const title = TITLES[o.status] ?? 'Something went wrong';
  return layout({
    title,
    viewer: o.viewer,
    narrow: true,
    body: html`<div class="card card--padded error-page">
      <p class="error-page__status">Error ${o.status}</p>
      <h1>${title}</h1>
      <p>${o.message}</p>
      <p><a class="button button--primary" href="/">Go to the overview</a></p>
    </div>`,
  });
}

export function notFoundPage(viewer: Viewer | null) {
  return errorPage({
    status: 404,
    message:
      'There is nothing at this address. It may have been mistyped, or the item is not yours to see.',
    viewer,
  });
}
