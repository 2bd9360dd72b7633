import { MultiBar, type SingleBar } from 'cli-progress';
import type { RetryNotice, SlowConnectNotice, SyncProgress } from '../mirror/sync.ts';

/** Where the bars go: stderr, or in tests a stream that says it is a terminal. */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export type SyncProgressBars = {
  onProgress(progress: SyncProgress): void;
  /** Writes a line above the bars (a retry notice), without breaking them. */
  log(line: string): void;
  stop(): void;
};

const mb = (bytes: number) => Math.round(bytes / 10_485.76) / 100;

/** The unit a phase counts in: marks for an API's pages, MB for everything else. */
const unitOf = (p: SyncProgress) => (p.phase === 'marks' ? 'marks' : 'MB');
const amountOf = (p: SyncProgress, n: number) => (p.phase === 'marks' ? n : mb(n));

/**
 * The one line `registers sync` writes on stderr before a retry: what failed, why, and when it is
 * tried again. A sync waiting on a server that does not answer says so instead of staying silent.
 */
export function retryLine(notice: RetryNotice): string {
  const seconds = Math.round(notice.waitMs / 100) / 10;
  return `tmwatch: ${notice.what} at ${notice.url}: ${notice.reason}; trying again in ${seconds} s (attempt ${notice.attempt} of ${notice.attempts})`;
}

/** The line said when a connection has not opened after a couple of seconds. */
export function slowConnectLine(notice: SlowConnectNotice): string {
  const waited = Math.round(notice.waitedMs / 100) / 10;
  const limit = Math.round(notice.timeoutMs / 100) / 10;
  return `tmwatch: connecting to ${notice.url}: no answer after ${waited} s; waiting up to ${limit} s before trying again`;
}

/**
 * The progress bars of `tmwatch registers sync`: the listing as it arrives, then one bar per file
 * and phase (download, import) in MB (a download of undeclared length: the MB received), or an
 * API's marks as they are asked for.
 * Null unless `stream` is a terminal: stdout carries the JSON report, and a pipe, a file or a log
 * collector on stderr gets no bar, not even a line of one.
 */
export function syncProgressBars(stream: ProgressStream): SyncProgressBars | null {
  if (stream.isTTY !== true) return null;
  const bars = new MultiBar({
    stream,
    format: '{file} {phase} [{bar}] {percentage}% | {value}/{total} {unit}',
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
      const payload = { file: p.file, phase: p.phase, unit: unitOf(p) };
      if (key !== current) {
        bar?.stop();
        current = key;
        // A server that declares no length gets a count of what arrived, not a bar towards 0 MB.
        const unknown = p.total === null ? { format: '{file} {phase} | {value} {unit}' } : {};
        bar = bars.create(amountOf(p, p.total ?? 0), 0, payload, unknown);
      }
      if (p.total !== null) bar?.setTotal(amountOf(p, p.total));
      bar?.update(amountOf(p, p.bytes), payload);
    },
    log: (line) => bars.log(`${line}\n`),
    stop: () => bars.stop(),
  };
}
