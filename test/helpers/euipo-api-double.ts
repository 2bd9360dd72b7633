import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local double of EUIPO's Trademark Search API and of its OAuth2 token endpoint, two real HTTP
 * servers on two origins, for the `euipo-api` feed's tests. What they answer follows the API's
 * published OpenAPI document (test/fixtures/euipo-api/PROVENANCE.md): the token by client
 * credentials, `GET /trademark-search/trademarks` with an RSQL `query` (here only
 * `updateDate>=YYYY-MM-DD`), `sort`, `page` and `size` (10..100), pages of
 * `TrademarkSearchResult`, problem+json errors and the rate-limit headers. Every request to either
 * server, and to a third origin a redirect may point at, is recorded with its headers and body.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
};

/** A mark of the double's register: the search item, and the day it last changed. */
export type RegisterEntry = { updateDate: string; item: Record<string, unknown> };

/** How the API answers a page, when it is not simply served. */
export type PageBehaviour =
  | { kind: 'status'; status: number; retryAfter?: number; times?: number }
  | { kind: 'stall' }
  | { kind: 'slow'; everyMs: number }
  | { kind: 'redirect'; location: string }
  | { kind: 'body'; body: string };

export type EuipoDouble = {
  apiUrl: string;
  tokenUrl: string;
  /** A third origin (for redirects): it records what reaches it and answers 404. */
  elsewhereUrl: string;
  clientId: string;
  clientSecret: string;
  register: RegisterEntry[];
  /** The largest page served, whatever `size` asks (an API may serve fewer): paging with few marks. */
  maxPageSize: number;
  /** Seconds of each token's life (`expires_in`). */
  tokenLifetime: number;
  /** Status the token endpoint answers instead of a token; null: tokens are issued. */
  tokenStatus: number | null;
  /** The token endpoint answers 302 to this location instead. */
  tokenRedirect: string | null;
  /**
   * After serving this page, the tokens issued so far are refused by the API (401), as a token
   * revoked before its end would be.
   */
  revokeAfterPage: number | null;
  /** How page N (0-based) is answered; served normally when absent. */
  pages: Map<number, PageBehaviour>;
  /** Pages served with `X-RateLimit-Remaining: 0` and this reset (seconds). */
  exhaustAfterPage: { page: number; reset: number } | null;
  requests: { api: RecordedRequest[]; token: RecordedRequest[]; elsewhere: RecordedRequest[] };
  reset(): void;
  close(): Promise<void>;
};

/** The published example and the items derived from the real bulk records (PROVENANCE.md). */
export function fixtureItems(): Record<string, unknown>[] {
  const dir = 'test/fixtures/euipo-api';
  const example = JSON.parse(readFileSync(`${dir}/openapi-example-item.json`, 'utf8'));
  const derived = JSON.parse(readFileSync(`${dir}/derived-items.json`, 'utf8'));
  return [example, ...derived];
}

/** The synthetic sound mark of PROVENANCE.md: no verbal element, so the feed skips it. */
export const SOUND_MARK = {
  applicationNumber: '000000001',
  markKind: 'INDIVIDUAL',
  markFeature: 'SOUND',
  markBasis: 'EU_TRADEMARK',
  niceClasses: [9],
  applicationDate: '2020-01-01',
  status: 'REGISTERED',
};

const problem = (response: ServerResponse, status: number, code: string, detail: string) =>
  response.writeHead(status, { 'content-type': 'application/problem+json' }).end(
    JSON.stringify({
      type: `https://dev.euipo.europa.eu/problems-registry/${code}`,
      title: code,
      status,
      detail,
      code,
    }),
  );

function record(request: IncomingMessage, list: RecordedRequest[]): Promise<RecordedRequest> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        at: Date.now(),
      };
      list.push(entry);
      resolve(entry);
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const QUERY = /^updateDate>=(\d{4}-\d{2}-\d{2})$/;

export async function startEuipoDouble(): Promise<EuipoDouble> {
  const open = new Set<ServerResponse>();
  const issued = new Map<string, { expiresAt: number; revoked: boolean }>();
  const pageCounts = new Map<number, number>();
  const double = {
    clientId: 'client-3f9a1c',
    clientSecret: `secret-${randomBytes(8).toString('hex')}`,
    register: [] as RegisterEntry[],
    maxPageSize: 100,
    tokenLifetime: 7200,
    tokenStatus: null as number | null,
    tokenRedirect: null as string | null,
    pages: new Map<number, PageBehaviour>(),
    exhaustAfterPage: null as { page: number; reset: number } | null,
    revokeAfterPage: null as number | null,
    requests: { api: [], token: [], elsewhere: [] } as EuipoDouble['requests'],
  };
  const track = (response: ServerResponse) => {
    open.add(response);
    response.on('close', () => open.delete(response));
  };

  const token = createServer(async (request, response) => {
    track(response);
    const seen = await record(request, double.requests.token);
    const form = new URLSearchParams(seen.body);
    if (double.tokenRedirect) {
      response.writeHead(302, { location: double.tokenRedirect }).end();
      return;
    }
    const valid =
      seen.method === 'POST' &&
      String(seen.headers['content-type']).startsWith('application/x-www-form-urlencoded') &&
      form.get('grant_type') === 'client_credentials' &&
      form.get('scope') === 'uid' &&
      form.get('client_id') === double.clientId &&
      form.get('client_secret') === double.clientSecret;
    if (double.tokenStatus !== null || !valid) {
      problem(response, double.tokenStatus ?? 401, 'unauthorized', 'invalid client');
      return;
    }
    const value = `tok-${randomBytes(12).toString('hex')}`;
    issued.set(value, { expiresAt: Date.now() + double.tokenLifetime * 1000, revoked: false });
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        access_token: value,
        token_type: 'Bearer',
        expires_in: double.tokenLifetime,
        scope: 'uid',
      }),
    );
  });

  const authorised = (seen: RecordedRequest) => {
    const bearer = /^Bearer (.+)$/.exec(String(seen.headers.authorization ?? ''))?.[1] ?? '';
    const grant = issued.get(bearer);
    if (
      !grant ||
      grant.expiresAt < Date.now() ||
      seen.headers['x-ibm-client-id'] !== double.clientId
    ) {
      return false;
    }
    return !grant.revoked;
  };

  const api = createServer(async (request, response) => {
    track(response);
    const seen = await record(request, double.requests.api);
    if (seen.path !== '/trademark-search/trademarks') {
      problem(response, 404, 'not-found', 'The requested resource was not found');
      return;
    }
    if (!authorised(seen)) {
      problem(response, 401, 'unauthorized', 'Access token not set or invalid');
      return;
    }
    const since = QUERY.exec(seen.query.get('query') ?? '')?.[1];
    const size = Number(seen.query.get('size') ?? '10');
    const page = Number(seen.query.get('page') ?? '0');
    if (
      !since ||
      !(size >= 10 && size <= 100) ||
      seen.query.get('sort') !== 'applicationNumber:asc'
    ) {
      problem(
        response,
        400,
        'invalid-request-parameter',
        'The request contained invalid parameters',
      );
      return;
    }
    const count = (pageCounts.get(page) ?? 0) + 1;
    pageCounts.set(page, count);
    if (misbehave(response, double.pages.get(page), count)) return;
    const matching = double.register
      .filter((entry) => entry.updateDate >= since)
      .map((entry) => entry.item)
      .sort((a, b) => String(a.applicationNumber).localeCompare(String(b.applicationNumber)));
    const served = Math.min(size, double.maxPageSize);
    const body = JSON.stringify({
      trademarks: matching.slice(page * served, (page + 1) * served),
      size: served,
      totalElements: matching.length,
      totalPages: Math.ceil(matching.length / served),
      page,
    });
    if (double.revokeAfterPage === page) {
      for (const grant of issued.values()) grant.revoked = true;
    }
    const limit = double.exhaustAfterPage;
    const remaining = limit !== null && page === limit.page ? '0' : '99';
    response
      .writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': remaining,
        'x-ratelimit-reset': String(limit?.reset ?? 60),
      })
      .end(body);
  });

  const elsewhere = createServer(async (request, response) => {
    track(response);
    await record(request, double.requests.elsewhere);
    response.writeHead(404).end();
  });

  const [apiOrigin, tokenOrigin, elsewhereOrigin] = [
    await listen(api),
    await listen(token),
    await listen(elsewhere),
  ];
  return Object.assign(double, {
    apiUrl: `${apiOrigin}/trademark-search`,
    tokenUrl: `${tokenOrigin}/oidc/accessToken`,
    elsewhereUrl: `${elsewhereOrigin}/`,
    reset() {
      double.register = [];
      double.maxPageSize = 100;
      double.tokenLifetime = 7200;
      double.tokenStatus = null;
      double.tokenRedirect = null;
      double.pages.clear();
      double.exhaustAfterPage = null;
      double.revokeAfterPage = null;
      double.requests = { api: [], token: [], elsewhere: [] };
      pageCounts.clear();
      issued.clear();
    },
    async close() {
      for (const response of open) response.destroy();
      for (const server of [api, token, elsewhere]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  });
}

/** A page that is not served normally; true when the behaviour answered (or chose not to). */
function misbehave(response: ServerResponse, behaviour: PageBehaviour | undefined, count: number) {
  if (!behaviour) return false;
  switch (behaviour.kind) {
    case 'status': {
      if (behaviour.times !== undefined && count > behaviour.times) return false;
      const headers =
        behaviour.retryAfter === undefined ? {} : { 'retry-after': String(behaviour.retryAfter) };
      response.writeHead(behaviour.status, {
        'content-type': 'application/problem+json',
        ...headers,
      });
      response.end(JSON.stringify({ status: behaviour.status, title: 'error' }));
      return true;
    }
    case 'stall':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"trademarks":[');
      return true;
    case 'slow': {
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write(' '), behaviour.everyMs);
      response.on('close', () => clearInterval(timer));
      return true;
    }
    case 'redirect':
      response.writeHead(302, { location: behaviour.location }).end();
      return true;
    case 'body':
      response.writeHead(200, { 'content-type': 'application/json' }).end(behaviour.body);
      return true;
  }
}
