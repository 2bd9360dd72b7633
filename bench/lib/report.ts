import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** One line of the results table. `target` and `met` are empty for figures without a target. */
export type ResultRow = {
  backend: string;
  metric: string;
  value: string;
  target: string;
  met: boolean | null;
};

/** A Markdown table that reads as well in a terminal as in the rendered file. */
export function table(headers: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells
      .map((cell, i) =>
        rightAligned[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `|${widths
    .map((w, i) => (rightAligned[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2)))
    .join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

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

const START = '<!-- bench:scan:start -->';
const END = '<!-- bench:scan:end -->';
const INTRO = `# Benchmarks

Figures written by the benchmark scripts; each script replaces only its own section. Timings are
never test assertions: they depend on the machine and on whatever else runs on it.
`;

/** Replaces the bench:scan section of the file, creating the file or the section when missing. */
export function writeSection(file: string, markdown: string) {
  const section = `${START}\n${markdown.trim()}\n${END}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : INTRO;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start >= 0 && end > start) {
    text = `${text.slice(0, start)}${section}${text.slice(end + END.length)}`;
  } else {
    text = `${text.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, text);
}
