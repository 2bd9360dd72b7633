import { existsSync } from 'node:fs';

const SOCKET_DIR = '/var/run/postgresql';

/**
 * The PostgreSQL server the benchmarks create their scratch database on: BENCH_DATABASE_URL, or
 * the local server through its Unix-domain socket where there is one (how a service on the
 * database's own machine should connect: each query costs less than over TCP loopback), else
 * over TCP.
 */
export function benchServerUrl(): string {
  const configured = process.env.BENCH_DATABASE_URL;
  if (configured) return configured;
  return existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`)
    ? `postgres://postgres@localhost:5432/postgres?host=${SOCKET_DIR}`
    : 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** How the service reaches the server, for the report. */
export function connectionLabel(serverUrl: string): string {
  const url = new URL(serverUrl);
  const socketDir = url.searchParams.get('host');
  return socketDir?.startsWith('/')
    ? `Unix-domain socket in ${socketDir}`
    : `TCP ${url.hostname}:${url.port || '5432'}`;
}

/** Whether the server runs on this machine (its CPU is then measured). */
export function isLocalServer(serverUrl: string): boolean {
  const url = new URL(serverUrl);
  const socketDir = url.searchParams.get('host');
  if (socketDir?.startsWith('/')) return true;
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname);
}
