// Memory during a phase of the benchmark, of the service (this process: the importer and the
// scanner run here, as in `tmwatch worker`) and of the PostgreSQL backends serving its database.
//
// A backend's RSS mixes two kinds of memory that must not be added up alike, so /proc/<pid>/status
// is read field by field:
// - RssAnon: memory the backend alone holds (sorts and hashes up to work_mem, catalog and plan
//   caches, the COPY and upsert state). It is summed over the backends: each connection adds it.
// - RssShmem: the pages of PostgreSQL's shared memory (shared_buffers, mostly) the backend has
//   touched. Every backend that touched a page counts it, so a sum would count shared_buffers once
//   per connection; the largest backend's figure is a floor of what is in use, and shared_buffers
//   the ceiling. (With huge pages the shared memory is not in RssShmem at all.)
// The server is sampled only when it runs on this machine (its /proc is ours to read).
import { readFileSync } from 'node:fs';

const KIB = 1024;

export type ProcessMemory = { rss: number; anon: number; shmem: number; file: number };

/** Resident memory of a process from /proc/<pid>/status, in bytes; null when unreadable. */
export function processMemory(pid: number): ProcessMemory | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return match === null ? null : Number(match[1]) * KIB;
  };
  const rss = field('VmRSS');
  if (rss === null) return null;
  return {
    rss,
    anon: field('RssAnon') ?? 0,
    shmem: field('RssShmem') ?? 0,
    file: field('RssFile') ?? 0,
  };
}

export type PhaseMemory = {
  service: {
    /** RSS when the phase started. */
    startRss: number;
    /** Highest RSS sampled, or the process's lifetime peak when the phase raised it. */
    peakRss: number;
    peakHeapUsed: number;
    /** Memory outside V8's heap: buffers, and PGlite's WebAssembly memory. */
    peakExternal: number;
  };
  /** Null when the database is PGlite (inside this process) or on another machine. */
  postgres: {
    /** Most backends seen at once. */
    backends: number;
    /** Highest sum of RssAnon over the backends at one sample. */
    privatePeak: number;
    /** Highest RssAnon of one backend. */
    privateLargest: number;
    /** Highest RssShmem of one backend. */
    sharedLargest: number;
  } | null;
};

/**
 * Starts sampling every `intervalMs`. `backendPids` lists the server processes serving the
 * benchmark's database (null: no server to sample); it is asked again at every sample, because
 * the pool opens connections as it needs them and parallel workers live for one query.
 */
export function sampleMemory(
  backendPids: (() => Promise<number[]>) | null,
  intervalMs = 500,
): { stop: () => Promise<PhaseMemory> } {
  const maxRssBefore = process.resourceUsage().maxRSS * KIB;
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  let peakHeapUsed = process.memoryUsage().heapUsed;
  let peakExternal = process.memoryUsage().external;
  const pg = { backends: 0, privatePeak: 0, privateLargest: 0, sharedLargest: 0, samples: 0 };

  const sampleServer = async () => {
    if (backendPids === null) return;
    let pids: number[];
    try {
      pids = await backendPids();
    } catch {
      return;
    }
    let anonSum = 0;
    let seen = 0;
    for (const pid of pids) {
      const m = processMemory(pid);
      if (m === null) continue;
      seen++;
      anonSum += m.anon;
      pg.privateLargest = Math.max(pg.privateLargest, m.anon);
      pg.sharedLargest = Math.max(pg.sharedLargest, m.shmem);
    }
    if (seen === 0) return;
    pg.samples++;
    pg.backends = Math.max(pg.backends, seen);
    pg.privatePeak = Math.max(pg.privatePeak, anonSum);
  };

  const sampleService = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeapUsed = Math.max(peakHeapUsed, usage.heapUsed);
    peakExternal = Math.max(peakExternal, usage.external);
  };

  // One server sample at a time: a slow pg_stat_activity answer must not pile samples up.
  let inFlight: Promise<void> | null = null;
  const timer = setInterval(() => {
    sampleService();
    if (inFlight === null) inFlight = sampleServer().finally(() => (inFlight = null));
  }, intervalMs);
  timer.unref();
  inFlight = sampleServer().finally(() => (inFlight = null));

  return {
    async stop(): Promise<PhaseMemory> {
      clearInterval(timer);
      await inFlight;
      sampleService();
      await sampleServer();
      // maxRSS is the lifetime peak: if it rose, the phase set it, between samples or not.
      const maxRssAfter = process.resourceUsage().maxRSS * KIB;
      if (maxRssAfter > maxRssBefore) peakRss = Math.max(peakRss, maxRssAfter);
      return {
        service: { startRss, peakRss, peakHeapUsed, peakExternal },
        postgres:
          backendPids === null || pg.samples === 0
            ? null
            : {
                backends: pg.backends,
                privatePeak: pg.privatePeak,
                privateLargest: pg.privateLargest,
                sharedLargest: pg.sharedLargest,
              },
      };
    },
  };
}

/**
 * The server processes serving database `name`, from another connection (one on the benchmark's
 * own pool would be one of them, and would wait behind the work it measures): client backends,
 * and parallel or autovacuum workers while they run.
 */
export function backendPidsOf(
  query: (sql: string, params: unknown[]) => Promise<readonly { pid: number }[]>,
  name: string,
): () => Promise<number[]> {
  return async () =>
    (await query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).map((r) =>
      Number(r.pid),
    );
}
