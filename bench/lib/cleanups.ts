// Scratch databases, server processes and work directories of a benchmark run are removed
// whatever happens: at the end of their scope, on failure, or on Ctrl-C / SIGTERM.

const cleanups: (() => Promise<void>)[] = [];

/** Registers a cleanup that runs once: when the returned function is called, or at the end. */
export function onCleanup(fn: () => Promise<void> | void): () => Promise<void> {
  let done = false;
  const run = async () => {
    if (done) return;
    done = true;
    await fn();
  };
  cleanups.push(run);
  return run;
}

/** Runs every registered cleanup not run yet, newest first; a failing one does not stop the rest. */
export async function runCleanups() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${(error as Error).message}`);
    }
  }
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    if (signal === 'SIGINT') console.error('\ninterrupted: cleaning up');
    void runCleanups().finally(() => process.exit(code));
  });
}
