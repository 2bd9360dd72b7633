import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export type EmbeddedLock = { release(): void };

export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dir} is in use by another tmwatch process (pid ${pid}); ` +
        'stop that process first, or run the service on PostgreSQL (DATABASE_URL) so that ' +
        'several processes can share the data',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive, pid-stamped lock file beside the embedded database. PGlite would happily let two
 * processes open the same files and corrupt them, so every opener goes through here. A lock left by
 * a process that died is taken over.
 */
export function acquireEmbeddedLock(dir: string): EmbeddedLock {
  const path = join(dir, 'tmwatch.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
        process.off('exit', release);
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
        throw new EmbeddedDatabaseBusyError(dir, pid);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock the embedded database in ${dir}`);
}
