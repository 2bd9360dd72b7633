import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { systemClock } from '../../src/clock.ts';
import type { Db, Queryable } from '../../src/data/db.ts';
import { claimWatches } from '../../src/data/repositories/scans.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { createLogger } from '../../src/logger.ts';
import { type ScanDeps, scanClaimedWatch } from '../../src/scan/scan-watch.ts';
import { SOURCES } from '../../src/scan/scanner.ts';
import { createWordStatsCache } from '../../src/scan/word-stats.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';

// A worker whose lease ran out while it scanned, and which another worker took over, must record
// nothing: neither hits and alerts nor the scan run and the watch's bookkeeping. Both ways a scan
// is recorded are checked: the transaction of a scan with hits, and the single statement of a scan
// that found nothing.
describe('a scan whose lease was taken over', () => {
  let database: TestDatabase;
  let db: Db;
  let principal: Principal;
  let deps: ScanDeps;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    deps = {
      db,
      readDb: db,
      logger: createLogger('silent'),
      sources: SOURCES,
      clock: systemClock,
      workerId: 'worker-a',
      publicUrl: 'http://localhost:3000',
      wordStats: createWordStatsCache(),
    };
  });
  after(() => database.drop());

  beforeEach(async () => {
    for (const table of ['email_outbox', 'alerts', 'hits', 'scan_runs', 'watches', 'marks']) {
      await db.query(`DELETE FROM ${table}`);
    }
    ({ principal } = await factories(db).makeOwner({ tier: 'team' }));
  });

  /** Claims the watch for worker-a, then lets worker-b take it over before worker-a commits. */
  async function claimedThenTakenOver(name: string) {
    const { id } = await factories(db).makeWatch(principal, { name });
    const [claimed] = await claimWatches(db, 'worker-a', 60, { kind: 'ids', ids: [id] }, 1);
    assert.ok(claimed, 'worker-a claimed the watch');
    await db.query(`UPDATE watches SET lease_owner = 'worker-b' WHERE id = $1`, [id]);
    return claimed;
  }

  const recorded = async (watchId: string) => ({
    runs: (await db.query('SELECT 1 FROM scan_runs WHERE watch_id = $1', [watchId])).length,
    hits: (await db.query('SELECT 1 FROM hits WHERE watch_id = $1', [watchId])).length,
    outbox: (await db.query('SELECT 1 FROM email_outbox')).length,
    watch: (
      await db.query<{ owner: string; full: boolean; seq: number }>(
        `SELECT lease_owner AS owner, needs_full_scan AS full, scanned_seq::int AS seq
           FROM watches WHERE id = $1`,
        [watchId],
      )
    )[0],
  });

  // The record in the register, and how many candidates the scan finds: with hits (the
  // transaction) and without (the single statement).
  const CASES = [
    { what: 'with hits', mark: 'VELTRANO', candidates: 1 },
    { what: 'without hits', mark: 'ZORBAQUINT', candidates: 0 },
  ];
  for (const { what, mark, candidates } of CASES) {
    it(`${what}: nothing is recorded`, async () => {
      await importRecords(db, [makeRecord({ markText: mark })]);
      const watch = await claimedThenTakenOver('Veltrano');
      const outcome = await scanClaimedWatch(deps, watch);
      assert.equal(outcome.error, 'lease lost');
      assert.equal(outcome.candidatesExamined, candidates);
      assert.deepEqual(await recorded(watch.id), {
        runs: 0,
        hits: 0,
        outbox: 0,
        watch: { owner: 'worker-b', full: true, seq: 0 },
      });
    });
  }

  it('while it holds the lease, a scan without hits records its run and bookkeeping', async () => {
    await importRecords(db, [makeRecord({ markText: 'ZORBAQUINT' })]);
    const { id } = await factories(db).makeWatch(principal, { name: 'Veltrano' });
    const [watch] = await claimWatches(db, 'worker-a', 60, { kind: 'ids', ids: [id] }, 1);
    assert.ok(watch);
    const outcome = await scanClaimedWatch(deps, watch);
    assert.equal(outcome.error, null);
    const after = await recorded(id);
    assert.equal(after.runs, 1);
    assert.equal(after.hits, 0);
    assert.equal(after.watch?.owner, null, 'the lease is released');
    assert.equal(after.watch?.full, false, 'the next scan is incremental');
    assert.ok((after.watch?.seq ?? 0) > 0, 'the watch is scanned up to the mirror');
  });

  // A standby behind the primary that served the watch's last scan reports a lower change number:
  // the incremental scan reads nothing new and keeps the watch's bookkeeping where it was.
  it('an incremental scan that sees a mirror behind its bookkeeping leaves scanned_seq as it was', async () => {
    await importRecords(db, [makeRecord({ markText: 'ZORBAQUINT' })]);
    const { id } = await factories(db).makeWatch(principal, { name: 'Veltrano' });
    const [{ seq } = { seq: 0 }] = await db.query<{ seq: number }>(
      'SELECT max(change_seq)::int8 AS seq FROM marks',
    );
    await db.query('UPDATE watches SET scanned_seq = $2, needs_full_scan = false WHERE id = $1', [
      id,
      seq + 100,
    ]);
    const [watch] = await claimWatches(db, 'worker-a', 60, { kind: 'ids', ids: [id] }, 1);
    assert.ok(watch);
    assert.equal((await scanClaimedWatch(deps, watch)).error, null);
    assert.equal((await recorded(id)).watch?.seq, seq + 100);
  });

  // A crash can only lose the bookkeeping of a scan that found nothing, which the next scan redoes;
  // the alerts of a scan with hits may be sent as soon as they are committed, so that commit waits.
  it('a scan without hits commits without waiting for the WAL flush; one with hits waits for it', async () => {
    const seen: string[] = [];
    const setting = async (tx: Queryable) =>
      (await tx.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s"))[0]?.s;
    // The real database; each statement and transaction of the scan is followed, inside its own
    // transaction, by a read of the setting its commit will use.
    const observed: Db = {
      ...db,
      query: <T>(text: string, params?: readonly unknown[]) =>
        /^WITH\b[\s\S]*UPDATE watches SET/.test(text)
          ? db.transaction(async (tx) => {
              const rows = await tx.query<T>(text, params);
              seen.push(`empty scan: ${await setting(tx)}`);
              return rows;
            })
          : db.query<T>(text, params),
      transaction: (fn) =>
        db.transaction(async (tx) => {
          const result = await fn(tx);
          if ((await tx.query('SELECT 1 FROM hits LIMIT 1')).length > 0) {
            seen.push(`with hits: ${await setting(tx)}`);
          }
          return result;
        }),
    };
    await importRecords(db, [makeRecord({ markText: 'ZORBAQUINT' })]);
    const quiet = await factories(db).makeWatch(principal, { name: 'Veltrano' });
    const [first] = await claimWatches(db, 'worker-a', 60, { kind: 'ids', ids: [quiet.id] }, 1);
    assert.ok(first);
    assert.equal((await scanClaimedWatch({ ...deps, db: observed }, first)).error, null);
    assert.deepEqual(seen, ['empty scan: off']);
    seen.length = 0;
    await importRecords(db, [makeRecord({ markText: 'VELTRANO' })]);
    const found = await factories(db).makeWatch(principal, { name: 'Veltrano' });
    const [second] = await claimWatches(db, 'worker-a', 60, { kind: 'ids', ids: [found.id] }, 1);
    assert.ok(second);
    const outcome = await scanClaimedWatch({ ...deps, db: observed }, second);
    assert.equal(outcome.hitsCreated, 1);
    assert.deepEqual(seen, ['with hits: on']);
  });
});
