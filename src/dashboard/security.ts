// The dashboard's Content-Security-Policy: nothing inline, nothing from elsewhere. Scripts and
// styles are files of this origin (/assets/…), forms post only here, and no site may frame a page.
export const CSP_DIRECTIVES: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);

/** The same policy as a header value, for the HTML 404 served outside the dashboard's scope. */
export function cspHeaderValue(): string {
  return Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => `${kebab(name)} ${values.join(' ')}`)
    .join('; ');
}

/**
 * `same-origin`, not helmet's `no-referrer`: under no-referrer browsers send `Origin: null` on
 * our own form posts, and the CSRF check needs the real origin. Other sites still get nothing.
 */
export const REFERRER_POLICY = 'same-origin';
