// What an operator watching a long benchmark run sees: each phase's start and elapsed time, and for
// phases that run long a line at every tenth of the way with the rate and the time left. A 10M
// register takes minutes per phase, and a silent terminal cannot be told from a stuck one.

const runStart = performance.now();

/** Seconds as `12.3 s`, `4 min 05 s` or `1 h 02 min`. */
export function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Time since the script started, as `+0:03:07`: lines stay readable in a log without a clock. */
export function stamp(): string {
  const s = Math.floor((performance.now() - runStart) / 1000);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `+${Math.floor(s / 3600)}:${mm}:${ss}`;
}

/**
 * Starts a phase: prints its name now and, from `done()`, its elapsed time. `done` returns the
 * elapsed milliseconds so that callers can use the same figure in the results.
 */
export function phase(name: string, log: (line: string) => void = console.log) {
  const t0 = performance.now();
  log(`[${stamp()}] ${name} …`);
  return {
    startedAt: t0,
    done(detail = ''): number {
      const ms = performance.now() - t0;
      log(`[${stamp()}] ${name}: ${duration(ms)}${detail ? ` (${detail})` : ''}`);
      return ms;
    },
  };
}

/**
 * A progress reporter for `total` units of work: `update(done)` prints a line each time another
 * tenth is passed, but only once the phase has run `quietMs`, so that small runs stay quiet. The
 * line gives the rate since the previous line as well as overall: an import that slows down as
 * its indexes outgrow the cache shows it there long before the average moves.
 */
export function tenths(
  label: string,
  total: number,
  unit: string,
  options: { quietMs?: number; log?: (line: string) => void } = {},
) {
  const quietMs = options.quietMs ?? 5000;
  const log = options.log ?? console.log;
  const t0 = performance.now();
  let nextTenth = 1;
  let last = { ms: 0, done: 0 };
  // Where each tenth was passed, printed or not, for perTenth().
  const passed: { ms: number; done: number }[] = [];
  const perSecond = (units: number, ms: number) =>
    ms > 0 ? Math.round(units / (ms / 1000)).toLocaleString('en') : '?';
  const update = (done: number) => {
    if (total <= 0) return;
    const tenth = Math.floor((10 * Math.min(done, total)) / total);
    if (tenth < nextTenth) return;
    nextTenth = tenth + 1;
    const ms = performance.now() - t0;
    passed.push({ ms, done });
    if (ms < quietMs || tenth >= 10) return;
    // The time left at the latest rate: the one an import that slows down will keep.
    const rate = last.done > 0 ? (done - last.done) / ((ms - last.ms) / 1000) : done / (ms / 1000);
    const left = rate > 0 ? ((total - done) / rate) * 1000 : Number.NaN;
    const recent =
      last.done > 0 ? `, ${perSecond(done - last.done, ms - last.ms)} since the last line` : '';
    last = { ms, done };
    log(
      `[${stamp()}]   ${label}: ${tenth * 10}% (${Math.round(done).toLocaleString('en')} of ${total.toLocaleString('en')} ${unit}) after ${duration(ms)}, ${perSecond(done, ms)} ${unit}/s${recent}, about ${Number.isFinite(left) ? duration(left) : '?'} left`,
    );
  };
  return Object.assign(update, {
    /** Units per second between consecutive tenths passed (fewer when calls skipped some). */
    perTenth(): number[] {
      return passed.map((p, i) => {
        const before = passed[i - 1] ?? { ms: 0, done: 0 };
        return (p.done - before.done) / Math.max(1e-9, (p.ms - before.ms) / 1000);
      });
    },
  });
}

/**
 * Polls `count()` every second and feeds it to a `tenths` reporter, for work that offers no
 * callback (the scanner). Returns the function that stops the polling.
 */
export function pollProgress(count: () => number, report: (done: number) => void): () => void {
  const timer = setInterval(() => report(count()), 1000);
  timer.unref();
  return () => clearInterval(timer);
}
