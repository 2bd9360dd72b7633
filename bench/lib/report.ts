import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { table } from './markdown.ts';

/** One line of the results table. `target` and `met` are empty for figures without a target. */
export type ResultRow = {
  backend: string;
  metric: string;
  value: string;
  target: string;
  met: boolean | null;
};

export function resultsTable(rows: readonly ResultRow[]): string {
  return table(
    ['backend', 'metric', 'value', 'target', 'met?'],
    rows.map((r) => [
      r.backend,
      r.metric,
      r.value,
      r.target,
      r.met === null ? '' : r.met ? 'yes' : '**NO**',
    ]),
    [false, false, true, false, false],
  );
}

export function machineDescription(postgresVersion: string | null): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  return [
    `${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    `Node ${process.version}`,
    postgresVersion === null ? null : `PostgreSQL ${postgresVersion}`,
    `load average ${load} (1/5/15 min) when written`,
  ]
    .filter((x) => x !== null)
    .join('; ');
}
