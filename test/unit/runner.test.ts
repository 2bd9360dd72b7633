import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDb } from '../../src/data/db.ts';
import { createLogger } from '../../src/logger.ts';
import { drainQueue, type Queue, runQueues } from '../../src/runner.ts';
import { eventually } from '../helpers/eventually.ts';

const logger = createLogger('silent');

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * A queue over an in-memory list: `claim` hands out due items in order, as the database does;
 * `hold` names the items whose work waits until their gate opens.
 */
function listQueue(options: { items: string[]; slots: number; hold?: Map<string, () => void> }) {
  const due = [...options.items];
  const done: string[] = [];
  const claims: number[] = [];
  const gates = new Map<string, Promise<void>>();
  for (const item of options.hold?.keys() ?? []) {
    const g = gate();
    gates.set(item, g.opened);
    options.hold?.set(item, g.open);
  }
  const queue: Queue<string, string> = {
    name: 'test',
    slots: options.slots,
    async claim(limit) {
      claims.push(limit);
      return due.splice(0, limit);
    },
    async work(item, signal) {
      const held = gates.get(item);
      if (held) await Promise.race([held, new Promise((r) => signal.addEventListener('abort', r))]);
      done.push(item);
      return item;
    },
  };
  return { queue, due, done, claims };
}

describe('the background runner', () => {
  it('keeps its slots busy: items that never finish hold their own slots, the rest go past them', async () => {
    const hold = new Map<string, () => void>([
      ['slow-1', () => {}],
      ['slow-2', () => {}],
    ]);
    const { queue, done } = listQueue({
      items: ['slow-1', 'slow-2', 'a', 'b', 'c', 'd', 'e'],
      slots: 3,
      hold,
    });
    const controller = new AbortController();
    const running = runQueues([queue], { pollMs: 60_000, signal: controller.signal, logger });
    // Two slots are held for good; the third works through everything else, claiming as it frees.
    await eventually('the quick items to be done', () =>
      done.join() === 'a,b,c,d,e' ? true : undefined,
    );
    assert.deepEqual(done, ['a', 'b', 'c', 'd', 'e'], 'the slow ones are still in hand');
    controller.abort();
    await running;
    assert.deepEqual(done.slice(5).sort(), ['slow-1', 'slow-2'], 'stopping waited for them');
  });

  it('claims again when a slot frees even if the last claim found less than it asked for', async () => {
    const hold = new Map<string, () => void>([['first', () => {}]]);
    const { queue, due, done } = listQueue({ items: ['first'], slots: 2, hold });
    const controller = new AbortController();
    const running = runQueues([queue], { pollMs: 60_000, signal: controller.signal, logger });
    await eventually('the first item to be claimed', () => (due.length === 0 ? true : undefined));
    // Work that became claimable while a slot was busy (as a capped owner's next delivery does
    // when one of its requests ends) is claimed as soon as the slot frees, not a poll later.
    due.push('second');
    hold.get('first')?.();
    await eventually('both to be done', () => (done.length === 2 ? true : undefined));
    controller.abort();
    await running;
  });

  it('a slot that frees while the runner is claiming is filled at once, not when another ends', async () => {
    const gates = new Map(['a', 'b', 'claim'].map((name) => [name, gate()]));
    const due = ['a', 'b', 'c', 'd'];
    const done: string[] = [];
    let holdClaim = false;
    const controller = new AbortController();
    const queue: Queue<string> = {
      name: 'test',
      slots: 2,
      async claim(limit) {
        if (holdClaim) await gates.get('claim')?.opened;
        return due.splice(0, limit);
      },
      async work(item, signal) {
        // c never ends on its own; a and b end when the test says.
        const until = item === 'c' ? new Promise(() => {}) : gates.get(item)?.opened;
        if (until)
          await Promise.race([until, new Promise((r) => signal.addEventListener('abort', r))]);
        done.push(item);
      },
    };
    const running = runQueues([queue], { pollMs: 60_000, signal: controller.signal, logger });
    await eventually('a and b to be claimed', () => (due.length === 2 ? true : undefined));
    holdClaim = true;
    gates.get('b')?.open();
    await eventually('b to be done', () => (done.includes('b') ? true : undefined));
    // The runner is now claiming for b's slot; a ends meanwhile, then the claim hands out c.
    gates.get('a')?.open();
    await eventually('a to be done', () => (done.includes('a') ? true : undefined));
    gates.get('claim')?.open();
    await eventually('d to be claimed and done beside c', () =>
      done.includes('d') ? true : undefined,
    );
    controller.abort();
    await running;
  });

  it('looks again every poll interval while nothing is due, and stops at once when asked', async () => {
    const { queue, due, done, claims } = listQueue({ items: [], slots: 4 });
    const controller = new AbortController();
    const running = runQueues([queue], { pollMs: 20, signal: controller.signal, logger });
    await eventually('a few looks', () => (claims.length >= 3 ? true : undefined));
    due.push('late');
    await eventually('the late item to be done', () => (done.length === 1 ? true : undefined));
    controller.abort();
    await running;
  });

  it('drains a queue: works until nothing is due and nothing is in hand, and returns the results', async () => {
    const { queue, claims } = listQueue({ items: ['a', 'b', 'c', 'd', 'e'], slots: 2 });
    const results = await drainQueue(queue, logger);
    assert.deepEqual([...results].sort(), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(claims.at(-1), 2, 'the last claim found nothing');
  });

  it('a drain throws what failed (once the items in hand are done); a running process logs it and goes on', async () => {
    let calls = 0;
    const failing: Queue<string> = {
      name: 'failing',
      slots: 1,
      async claim() {
        calls += 1;
        if (calls === 1) throw new Error('database gone');
        return [];
      },
      async work() {},
    };
    await assert.rejects(drainQueue(failing, logger), /database gone/);
    calls = 0;
    const controller = new AbortController();
    const running = runQueues([failing], { pollMs: 5, signal: controller.signal, logger });
    await eventually('claims after the failure', () => (calls >= 3 ? true : undefined));
    controller.abort();
    await running;
  });

  it('logs a database outage as one warning without a stack, a bug as an error with its stack', async () => {
    const lines: string[] = [];
    const captured = createLogger('info', { write: (line: string) => lines.push(line) });
    // Nothing listens on port 1: every claim fails with the driver's own ECONNREFUSED.
    const db = await openDb({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      dataDir: '',
      maxConnections: 1,
    });
    const controller = new AbortController();
    const queues: Queue<unknown>[] = [
      { name: 'outage', slots: 1, claim: () => db.query('SELECT 1'), work: async () => {} },
      {
        name: 'bug',
        slots: 1,
        claim: async () => {
          throw new TypeError('a bug');
        },
        work: async () => {},
      },
    ];
    const running = runQueues(queues, {
      pollMs: 60_000,
      signal: controller.signal,
      logger: captured,
    });
    try {
      await eventually('both claims failed', () => lines.length >= 2);
    } finally {
      controller.abort();
      await running;
      await db.close();
    }
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const outage = entries.find((entry) => entry.queue === 'outage');
    assert.equal(outage?.level, 40);
    assert.match(String(outage?.reason), /ECONNREFUSED/);
    assert.equal(JSON.stringify(outage).includes('stack'), false);
    const bug = entries.find((entry) => entry.queue === 'bug');
    assert.equal(bug?.level, 50);
    assert.match(JSON.stringify(bug), /stack/);
  });
});
