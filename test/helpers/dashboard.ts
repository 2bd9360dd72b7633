import type { TestServer } from './server.ts';

export type PageResponse = {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
};

export type Form = Record<string, string | string[]>;

/**
 * A browser without JavaScript, for HTTP-level dashboard tests: keeps cookies, sends the Origin a
 * browser would, and remembers the CSRF token of the last page it saw.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(private readonly server: TestServer) {}

  get origin(): string {
    return this.server.baseUrl;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private absorb(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async send(path: string, init: RequestInit): Promise<PageResponse> {
    const response = await fetch(`${this.server.baseUrl}${path}`, { ...init, redirect: 'manual' });
    this.absorb(response);
    const text = await response.text();
    const token = csrfIn(text);
    if (token !== null) this.csrf = token;
    return {
      status: response.status,
      headers: response.headers,
      text,
      location: response.headers.get('location'),
    };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send(path, {
      headers: { accept: 'text/html', cookie: this.cookieHeader(), ...headers },
    });
  }

  /**
   * A form POST as a browser sends it from one of our pages. `_csrf` defaults to the last token
   * seen; pass `origin: null` to send no Origin header at all.
   */
  post(
    path: string,
    form: Form = {},
    options: { origin?: string | null; headers?: Record<string, string> } = {},
  ): Promise<PageResponse> {
    const body = new URLSearchParams();
    const fields: Form = { _csrf: this.csrf, ...form };
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    const origin = options.origin === undefined ? this.origin : options.origin;
    return this.send(path, {
      method: 'POST',
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        ...(origin === null ? {} : { origin }),
        ...options.headers,
      },
      body,
    });
  }

  /** Opens the sign-in page (for its cookie and token) and submits the form. */
  async signIn(email: string, password: string): Promise<PageResponse> {
    await this.get('/sign-in');
    return this.post('/sign-in', { email, password });
  }

  get sessionToken(): string | undefined {
    return this.cookies.get('tmw_session');
  }
}

export function csrfIn(html: string): string | null {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** The text of the page with tags removed and whitespace collapsed, for "the page says …". */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
}

export const PASSWORD = 'correct horse battery staple';

/** A clock the test moves by hand (session expiry, throttling windows). */
export function manualClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** The headers the dashboard's script sends to the session API (DELETE /api/v1/api-keys/{id}). */
export function sessionApiHeaders(server: TestServer, client: DashboardClient) {
  return { cookie: client.cookieHeader(), origin: server.baseUrl, 'x-csrf-token': client.csrf };
}

/** A user with a password, signed in through the form. */
export async function signedIn(
  server: TestServer,
  options: { tier?: 'free' | 'solo' | 'team' | 'enterprise'; orgId?: string } = {},
) {
  const user = await server.make.makeUser({ password: PASSWORD, ...options });
  const client = new DashboardClient(server);
  const response = await client.signIn(user.email, PASSWORD);
  if (response.status !== 303) throw new Error(`sign-in failed with ${response.status}`);
  await client.get('/');
  return { user, client };
}
