import { existsSync, readFileSync, writeFileSync } from 'node:fs';

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

const INTRO = `# Benchmarks

Figures written by the benchmark scripts; each script replaces only its own section. Timings are
never test assertions: they depend on the machine and on whatever else runs on it.
`;

/**
 * Replaces one benchmark's section of docs/benchmarks.md (between `<!-- name:start -->` and
 * `<!-- name:end -->`), creating the file or the section when missing: each script owns its
 * section and leaves the others' figures alone.
 */
export function writeSection(file: string, name: string, markdown: string) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : INTRO;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) {
    text = `${text.slice(0, from)}${section}${text.slice(to + end.length)}`;
  } else {
    text = `${text.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, text);
}
