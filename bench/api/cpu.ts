import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// Where the CPU goes during a scenario, from /proc (Linux): the server process, the PostgreSQL
// backends serving it, the load generator (this process) and everything else on the machine. The
// "everything else" share is how much other work (other test suites) disturbed the figures.

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // Linux's usual value.
}

/** CPU seconds used so far by a process (user + system), or null when it cannot be read. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / ticksPerSecond;
  } catch {
    return null;
  }
}

type Machine = { busy: number; interrupts: number; steal: number };

/**
 * CPU seconds of the whole machine, all cores together: busy, of which interrupt handling
 * (irq + softirq: the kernel's network stack, not charged to any process) and steal (time the
 * hypervisor gave to other virtual machines).
 */
export function machineCpuSeconds(): Machine | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // user nice system idle iowait irq softirq steal
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const at = (i: number) => v[i] ?? 0;
    const busy = at(0) + at(1) + at(2) + at(5) + at(6) + at(7);
    return {
      busy: busy / ticksPerSecond,
      interrupts: (at(5) + at(6)) / ticksPerSecond,
      steal: at(7) / ticksPerSecond,
    };
  } catch {
    return null;
  }
}

export type CpuSnapshot = {
  at: number;
  server: number | null;
  database: number | null;
  client: number;
  machine: Machine | null;
};

export function snapshot(serverPid: number, databasePids: number[]): CpuSnapshot {
  let database: number | null = null;
  for (const pid of databasePids) {
    const seconds = processCpuSeconds(pid);
    if (seconds !== null) database = (database ?? 0) + seconds;
  }
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server: processCpuSeconds(serverPid),
    database,
    client: (usage.user + usage.system) / 1e6,
    machine: machineCpuSeconds(),
  };
}

/** Average cores busy during the interval, per consumer (null where unknown). */
export type CpuShare = {
  server: number | null;
  database: number | null;
  client: number;
  /** The kernel's interrupt work (mostly loopback networking: the responses' bytes). */
  interrupts: number | null;
  steal: number | null;
  /** Every other process on the machine: the noise. */
  other: number | null;
  machine: number | null;
};

export function share(before: CpuSnapshot, after: CpuSnapshot): CpuShare {
  const wall = (after.at - before.at) / 1000;
  const rate = (a: number | null, b: number | null) =>
    a === null || b === null ? null : (b - a) / wall;
  const server = rate(before.server, after.server);
  const database = rate(before.database, after.database);
  const client = (after.client - before.client) / wall;
  const m0 = before.machine;
  const m1 = after.machine;
  const machine = m0 && m1 ? (m1.busy - m0.busy) / wall : null;
  const interrupts = m0 && m1 ? (m1.interrupts - m0.interrupts) / wall : null;
  const steal = m0 && m1 ? (m1.steal - m0.steal) / wall : null;
  const other =
    machine === null
      ? null
      : Math.max(
          0,
          machine - (server ?? 0) - (database ?? 0) - client - (interrupts ?? 0) - (steal ?? 0),
        );
  return { server, database, client, interrupts, steal, other, machine };
}
