import autocannon from 'autocannon';
import type { SeedUser } from './seed.ts';

/** One request of a scenario: what autocannon sends next. */
type Next = {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

export type Scenario = {
  name: string;
  /** The bare baseline runs against its own port. */
  bare: boolean;
  next(): Next;
};

const pick = <T>(items: readonly T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};

const auth = (user: SeedUser) => ({ authorization: `Bearer ${user.key}` });
const jsonAuth = (user: SeedUser) => ({ ...auth(user), 'content-type': 'application/json' });

/** The alert list scenario whose every request asks for a page the server has not kept. */
export const NEW_PAGE_ALERTS = 'GET /api/v1/alerts?limit=50&since=… (new page each request)';

/**
 * The scenarios. Each request picks a key from the pool (and an id that key's owner can see), so
 * the load spreads over many owners' data, not one key's; POST spreads over every seeded user so
 * that no owner nears the Team cap of 500 active watches.
 */
export function scenarios(
  pool: SeedUser[],
  everyone: SeedUser[],
): Scenario[] & { busiestCreator(): number } {
  const alertState = new Map<string, 'read' | 'unread'>();
  const createdBy = new Map<SeedUser, number>();
  let created = 0;
  let sinceOffset = 0;
  const list: Scenario[] = [
    {
      name: 'bare route (same JSON from memory)',
      bare: true,
      next: () => ({ method: 'GET', path: '/bare', headers: auth(pick(pool)) }),
    },
    {
      name: 'GET /api/v1/alerts?limit=50',
      bare: false,
      next: () => ({ method: 'GET', path: '/api/v1/alerts?limit=50', headers: auth(pick(pool)) }),
    },
    {
      // Every request a page the server has not kept: a bound older than every alert (the same
      // 50 alerts), but a new one each time, as clients polling with `since` send. This is the
      // cost of a page read from PostgreSQL, and of keeping it.
      name: NEW_PAGE_ALERTS,
      bare: false,
      next: () => {
        sinceOffset += 1;
        const since = new Date(Date.UTC(2000, 0, 1) + sinceOffset).toISOString();
        return {
          method: 'GET',
          path: `/api/v1/alerts?limit=50&since=${since}`,
          headers: auth(pick(pool)),
        };
      },
    },
    {
      name: 'GET /api/v1/watches/{id}',
      bare: false,
      next: () => {
        const user = pick(pool);
        return {
          method: 'GET',
          path: `/api/v1/watches/${pick(user.watchIds)}`,
          headers: auth(user),
        };
      },
    },
    {
      name: 'POST /api/v1/watches',
      bare: false,
      next: () => {
        const user = pick(everyone);
        created += 1;
        createdBy.set(user, (createdBy.get(user) ?? 0) + 1);
        return {
          method: 'POST',
          path: '/api/v1/watches',
          headers: jsonAuth(user),
          body: JSON.stringify({
            watchType: 'trademark',
            name: `Bench ${created}`,
            attributes: { niceClasses: [9, 42], designations: ['DE', 'EU'] },
            scanCadence: 'daily',
          }),
        };
      },
    },
    {
      name: 'PATCH /api/v1/alerts/{id}',
      bare: false,
      next: () => {
        const user = pick(pool);
        const id = pick(user.alertIds);
        const state = alertState.get(id) === 'read' ? 'unread' : 'read';
        alertState.set(id, state);
        return {
          method: 'PATCH',
          path: `/api/v1/alerts/${id}`,
          headers: jsonAuth(user),
          body: JSON.stringify({ state }),
        };
      },
    },
  ];
  return Object.assign(list, { busiestCreator: () => Math.max(0, ...createdBy.values()) });
}

export type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** A few non-2xx responses, to say why they happened. */
  samples: string[];
};

/** One autocannon run of a scenario against `baseUrl`. */
export async function load(
  baseUrl: string,
  scenario: Scenario,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const samples: string[] = [];
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    // Generous: PGlite answers one query at a time, and a queued request must still be measured.
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...scenario.next() }),
        onResponse: (status, body) => {
          if ((status < 200 || status > 299) && samples.length < 3) {
            samples.push(`${status} ${body.slice(0, 300)}`);
          }
        },
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = stats.count ?? 0;
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    samples,
  };
}

/** One request of the scenario outside the load, to fail early with a readable reason. */
export async function probe(baseUrl: string, scenario: Scenario): Promise<string | null> {
  const next = scenario.next();
  const response = await fetch(`${baseUrl}${next.path}`, {
    method: next.method,
    headers: next.headers,
    body: next.body,
  });
  const text = await response.text();
  return response.ok
    ? null
    : `${next.method} ${next.path} → ${response.status} ${text.slice(0, 300)}`;
}
