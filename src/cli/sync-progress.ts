import { MultiBar, type SingleBar } from 'cli-progress';
import type { SyncProgress } from '../mirror/sync.ts';

/** Where the bars go: stderr, or in tests a stream that says it is a terminal. */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export type SyncProgressBars = { onProgress(progress: SyncProgress): void; stop(): void };

const mb = (bytes: number) => Math.round(bytes / 10_485.76) / 100;

/**
 * The progress bars of `tmwatch registers sync`: one per file and phase (download, import), in MB
 * (a download of undeclared length: the MB received).
 * Null unless `stream` is a terminal: stdout carries the JSON report, and a pipe, a file or a log
 * collector on stderr gets no bar, not even a line of one.
 */
export function syncProgressBars(stream: ProgressStream): SyncProgressBars | null {
  if (stream.isTTY !== true) return null;
  const bars = new MultiBar({
    stream,
    format: '{file} {phase} [{bar}] {percentage}% | {value}/{total} MB',
    // cli-progress crops a line at the terminal's width (80 columns when the terminal reports
    // none): with its default 40-character bar, a file's import line lost its figures and unit.
    barsize: 20,
    hideCursor: true,
  });
  let bar: SingleBar | null = null;
  let current = '';
  return {
    onProgress(p) {
      const key = `${p.file} ${p.phase}`;
      if (key !== current) {
        bar?.stop();
        current = key;
        // A server that declares no length gets a count of what arrived, not a bar towards 0 MB.
        const unknown = p.total === null ? { format: '{file} {phase} | {value} MB' } : {};
        bar = bars.create(mb(p.total ?? 0), 0, { file: p.file, phase: p.phase }, unknown);
      }
      if (p.total !== null) bar?.setTotal(mb(p.total));
      bar?.update(mb(p.bytes), { file: p.file, phase: p.phase });
    },
    stop: () => bars.stop(),
  };
}
