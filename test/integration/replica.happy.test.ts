import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import type { ReadReplica } from '../../src/data/replica.ts';
import { highestChangeSeq } from '../../src/data/repositories/marks.ts';
import type { Principal } from '../../src/domain/principal.ts';
import { createScanner, type Scanner } from '../../src/scan/scanner.ts';
import { BIN, childEnv } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { factories } from '../helpers/factories.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { type ReplicaCluster, replicaSuite } from '../helpers/replica-cluster.ts';

// Scans reading the register mirror from a real streaming hot standby (DATABASE_REPLICA_URL): a
// private primary and a pg_basebackup of it on another port, started and stopped here.
describe('scans on a hot standby', {
  skip: postgresOnly('starts PostgreSQL clusters of its own'),
}, () => {
  const MAX_LAG_SECONDS = 5;
  const suite = replicaSuite(MAX_LAG_SECONDS);
  const { clock, later, logger, lines, warnings, caughtUp, pauseReplay, resumeReplay } = suite;
  let primary: Db;
  let standby: Db;
  let reads: ReadReplica;
  let cluster: ReplicaCluster;
  let scanner: Scanner;
  let principal: Principal;

  before(async () => {
    ({ primary, standby, reads, cluster } = suite);
    scanner = createScanner({
      db: primary,
      reads,
      logger,
      clock,
      publicUrl: 'http://localhost:3000',
      leaseSeconds: 60,
    });
    ({ principal } = await factories(primary).makeOwner({ tier: 'team' }));
  });

  const alertedRecords = async (watchId: string) =>
    (
      await primary.query<{ id: string }>(
        `SELECT h.external_id AS id FROM alerts a JOIN hits h ON h.id = a.hit_id
          WHERE a.watch_id = $1 ORDER BY 1`,
        [watchId],
      )
    ).map((row) => row.id);
  const scannedSeq = async (watchId: string) =>
    (
      await primary.query<{ seq: number }>('SELECT scanned_seq AS seq FROM watches WHERE id = $1', [
        watchId,
      ])
    )[0]?.seq;

  it('a record the standby has not replayed yet is left to the next scan, which finds it', async () => {
    const first = makeRecord({ markText: 'NORTHWYND' });
    await importRecords(primary, [first]);
    await caughtUp();
    const watch = await factories(primary).makeWatch(principal, { name: 'Northwind' });
    await scanner.scan({ watchIds: [watch.id] });
    assert.deepEqual(await alertedRecords(watch.id), [first.externalId]);

    await pauseReplay();
    const late = makeRecord({ markText: 'NORTHWINDS' });
    await importRecords(primary, [late]);
    later(1.5);
    await scanner.scan({ watchIds: [watch.id] });
    // Read on the standby, which does not hold it yet: no alert, and the watch's bookkeeping
    // stops at what the standby has replayed, below the record's sequence value.
    assert.deepEqual(await alertedRecords(watch.id), [first.externalId]);
    const standbySeq = await highestChangeSeq(standby);
    assert.equal(await scannedSeq(watch.id), standbySeq);
    assert.ok(standbySeq < (await highestChangeSeq(primary)));

    await resumeReplay();
    await caughtUp();
    later(1.5);
    await scanner.scan({ watchIds: [watch.id] });
    assert.deepEqual(await alertedRecords(watch.id), [first.externalId, late.externalId].sort());
    assert.deepEqual(warnings(), [], 'a standby within the limit is read without a warning');
  });

  it('tmwatch worker with DATABASE_REPLICA_URL scans from the standby and writes to the primary', async () => {
    const watch = await factories(primary).makeWatch(principal, { name: 'Quillmark' });
    await scanner.scan({ watchIds: [watch.id] });
    const record = makeRecord({ markText: 'QUILLMARKS' });
    await importRecords(primary, [record]);
    await caughtUp();
    // Due now: the worker's next poll scans it.
    await primary.query('UPDATE watches SET next_scan_at = now() WHERE id = $1', [watch.id]);
    const dataDir = mkdtempSync(join(tmpdir(), 'tmw-replica-worker-'));
    const output: string[] = [];
    const worker = spawn(BIN, ['worker'], {
      env: childEnv({
        DATABASE_URL: cluster?.primaryUrl,
        DATABASE_REPLICA_URL: cluster?.standbyUrl,
        DATA_DIR: dataDir,
        SCAN_POLL_SECONDS: '0.2',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr?.on('data', (chunk: Buffer) => output.push(String(chunk)));
    const exited = once(worker, 'exit');
    try {
      await eventually('the worker to raise the alert', async () =>
        (await alertedRecords(watch.id)).includes(record.externalId),
      );
    } finally {
      worker.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
    const log = output.join('');
    assert.match(log, /scans read the register mirror from the standby/);
    assert.doesNotMatch(log, /reading from the primary/);
  });

  it('a standby lagging beyond the limit: scans read the primary, with one warning line', async () => {
    const watch = await factories(primary).makeWatch(principal, { name: 'Brightwater' });
    await scanner.scan({ watchIds: [watch.id] });
    await pauseReplay();
    const record = makeRecord({ markText: 'BRIGHTWATERS' });
    await importRecords(primary, [record]);
    later(1.5);
    // The primary's position is noted now; the standby has not reached it.
    assert.notEqual(await reads.choose(), primary);
    later(MAX_LAG_SECONDS + 1);
    await scanner.scan({ watchIds: [watch.id] });
    assert.deepEqual(await alertedRecords(watch.id), [record.externalId]);
    later(11);
    await scanner.scan({ watchIds: [watch.id] });
    const warned = warnings();
    assert.equal(warned.length, 1, 'one line, not one per scan');
    const line = JSON.parse(warned[0] as string);
    assert.match(line.msg, /^reading from the primary: the standby is [\d.]+ s behind/);
    assert.equal(line.err, undefined);
    assert.doesNotMatch(warned[0] as string, /stack|\n./);

    await resumeReplay();
    await caughtUp();
    later(11);
    assert.notEqual(await reads.choose(), primary);
    assert.ok(
      lines.some((l: string) => JSON.parse(l).msg.startsWith('reading from the standby again')),
    );
  });

  it('a stopped standby: reads go to the primary, with one warning line', async () => {
    lines.length = 0;
    const watch = await factories(primary).makeWatch(principal, { name: 'Silverline' });
    await scanner.scan({ watchIds: [watch.id] });
    // The standby passed its last check; it stops before the next batch reads it.
    cluster?.stopStandby();
    const record = makeRecord({ markText: 'SILVERLINES' });
    await importRecords(primary, [record]);
    await scanner.scan({ watchIds: [watch.id] });
    assert.deepEqual(await alertedRecords(watch.id), [record.externalId]);
    // Measured again: still down, still on the primary, and no second line.
    later(11);
    assert.equal(await reads.choose(), primary);
    const next = makeRecord({ markText: 'SILVER LINE' });
    await importRecords(primary, [next]);
    await scanner.scan({ watchIds: [watch.id] });
    assert.deepEqual(await alertedRecords(watch.id), [next.externalId, record.externalId].sort());
    const warned = warnings();
    assert.equal(warned.length, 1);
    assert.match(JSON.parse(warned[0] as string).msg, /^reading from the primary: the standby/);
    assert.doesNotMatch(warned[0] as string, /stack/);
  });
});
