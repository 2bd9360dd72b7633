// CPU time, which the other work on a shared machine disturbs far less than wall time: this
// process (process.cpuUsage) and the PostgreSQL backends serving this benchmark's database (from
// /proc, when the server runs on this machine; null otherwise).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Db } from '../../src/data/db.ts';

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // Linux's usual value.
}

/** CPU milliseconds used so far by a process (user + system), or null when unreadable. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

export const nodeCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * CPU of the server backends connected to this database. Backends come and go with the pool, so
 * a reading keeps the last value seen per pid; call `sample()` before and after (and the pool
 * keeps its connections open in between).
 */
export function databaseCpu(db: Db, local: boolean) {
  const seen = new Map<number, number>();
  return {
    async sample(): Promise<number | null> {
      if (db.kind !== 'postgres' || !local) return null;
      const rows = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
      );
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        if (ms !== null) seen.set(pid, ms);
      }
      let total = 0;
      for (const ms of seen.values()) total += ms;
      return total;
    },
  };
}
