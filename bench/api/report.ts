import { table } from '../lib/markdown.ts';
import type { CpuShare } from './cpu.ts';
import type { LoadResult } from './load.ts';

export type Row = {
  backend: string;
  scenario: string;
  result: LoadResult;
  /** req/s of this scenario over req/s of the bare route on the same backend run. */
  ratio: number | null;
  cpu: CpuShare;
};

export type Target = {
  backend: string;
  scenario: string;
  description: string;
  met: boolean;
  measured: string;
  /** CPU per request of the scenario and of the bare route: where the time goes. */
  costs: string;
  /** A figure shown beside the targets, not a target itself. */
  informational?: boolean;
};

const fixed = (n: number | null, digits = 0) => (n === null ? 'n/a' : n.toFixed(digits));

export function resultsTable(rows: Row[]): string {
  return table(
    ['backend', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx'],
    rows.map((r) => [
      r.backend,
      r.scenario,
      fixed(r.result.requestsPerSecond),
      fixed(r.result.p50),
      fixed(r.result.p99),
      r.ratio === null ? '—' : `${(100 * r.ratio).toFixed(0)}%`,
      String(r.result.non2xx + r.result.errors),
    ]),
    [false, false, true, true, true, true, true],
  );
}

/** Cores busy on average, and CPU milliseconds per request for the server and the database. */
export function cpuTable(rows: Row[]): string {
  const perRequest = (cores: number | null, r: Row) =>
    cores === null || r.result.requestsPerSecond === 0
      ? 'n/a'
      : ((1000 * cores) / r.result.requestsPerSecond).toFixed(2);
  return table(
    [
      'backend',
      'scenario',
      'server cores',
      'PostgreSQL cores',
      'load gen cores',
      'irq cores',
      'other cores',
      'server ms/req',
      'PostgreSQL ms/req',
    ],
    rows.map((r) => [
      r.backend,
      r.scenario,
      fixed(r.cpu.server, 2),
      fixed(r.cpu.database, 2),
      fixed(r.cpu.client, 2),
      fixed(r.cpu.interrupts, 2),
      fixed(r.cpu.other === null ? null : r.cpu.other + (r.cpu.steal ?? 0), 2),
      perRequest(r.cpu.server, r),
      perRequest(r.cpu.database, r),
    ]),
    [false, false, true, true, true, true, true, true, true],
  );
}

/** CPU milliseconds per request, by consumer: the machine's cost of one request. */
export function cpuPerRequest(row: Row): string {
  const rate = row.result.requestsPerSecond;
  if (rate === 0) return 'n/a';
  const ms = (cores: number | null) => (cores === null ? null : (1000 * cores) / rate);
  const parts: [string, number | null][] = [
    ['server', ms(row.cpu.server)],
    ['PostgreSQL', ms(row.cpu.database)],
    ['load generator', ms(row.cpu.client)],
  ];
  const known = parts.filter((p): p is [string, number] => p[1] !== null && p[1] > 0);
  const total = known.reduce((sum, [, v]) => sum + v, 0);
  return `${known.map(([name, v]) => `${name} ${v.toFixed(2)}`).join(' + ')} = ${total.toFixed(2)} ms CPU per request`;
}

export function targetLines(targets: Target[]): string[] {
  return targets.flatMap((t) => [
    `${t.informational ? 'INFO  ' : t.met ? 'MET   ' : 'MISSED'}  ${t.backend}: ${t.description} — measured ${t.measured}`,
    `        ${t.costs}`,
  ]);
}
