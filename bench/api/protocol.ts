import type { SeedSize, SeedUser } from './seed.ts';

/** How the benchmark starts its server process (bench/api/server.ts), passed in BENCH_SERVER. */
export type ServerConfig = {
  /** PostgreSQL database to use; absent: PGlite, file-backed in dataDir (as `npm start`). */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL pool size; absent: the service's default. */
  poolSize?: number;
  /** Memory for kept alert pages (ALERT_LIST_CACHE_MB); absent: the service's default. */
  alertListCacheBytes?: number;
  logLevel: string;
  /** Log lines go here (not to the console): the benchmark reports their count and any warnings. */
  logFile: string;
  rateLimitPerMinute: number;
  seed: SeedSize;
};

/** Messages from the benchmark to its server process. */
export type ToServer =
  | { type: 'log-level'; level: string }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'stop' };

/** Messages from the server process to the benchmark. */
export type FromServer =
  | {
      type: 'ready';
      port: number;
      barePort: number;
      users: SeedUser[];
      counts: Record<string, number>;
      seedSeconds: number;
      bodyBytes: number;
      databaseVersion: string;
    }
  | { type: 'progress'; line: string }
  | { type: 'done'; request: ToServer['type'] }
  | { type: 'failed'; message: string };
