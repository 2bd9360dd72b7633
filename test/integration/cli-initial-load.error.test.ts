import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Db, openDb } from '../../src/data/db.ts';
import {
  BIN,
  childEnv,
  failureLine,
  freshInstallation,
  type Installation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';
import { makeRecord } from '../helpers/register.ts';

// A `marks import --initial` process killed in the middle of its load (SIGKILL: no clean-up of
// any kind), then run again.
describe('tmwatch marks import --initial, killed halfway', {
  skip: postgresOnly('reads the database while another process loads it'),
}, () => {
  let install: Installation;
  let db: Db;
  const RECORDS = 8000;
  let file: string;

  before(async () => {
    install = await freshInstallation();
    file = join(install.dataDir, 'register.jsonl');
    const lines = Array.from({ length: RECORDS }, (_, i) =>
      JSON.stringify(makeRecord({ markText: `KESTREL ${i} ${i % 97}` })),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    db = await openDb({ databaseUrl: install.env.DATABASE_URL, dataDir: '' });
  });
  after(async () => {
    await db?.close();
    await install?.cleanup();
  });

  const count = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks'))[0]?.n ?? 0;
  const loading = async () => (await db.query('SELECT 1 FROM mirror_initial_load')).length === 1;
  const ginIndexes = async () =>
    (
      await db.query(
        `SELECT 1 FROM pg_indexes WHERE tablename IN ('marks', 'mark_band')
              AND indexdef LIKE '% USING gin %'`,
      )
    ).length;

  test('the mirror stays marked as loading, scans and imports refuse, and the same command resumes it', async () => {
    const child = spawn(process.execPath, [BIN, 'marks', 'import', '--initial', file], {
      env: childEnv(install.env),
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    await eventually('the load to write its first batches', async () => (await count()) > 0, {
      ignoreErrors: true,
      everyMs: 20,
    });
    child.kill('SIGKILL');
    await exited;
    const written = await count();
    assert.ok(written < RECORDS, `killed before the end (${written} written)`);
    assert.equal(await loading(), true);
    assert.equal(await ginIndexes(), 0);

    const scan = await tmwatch(['scan'], install.env);
    assert.equal(scan.status, 1);
    assert.match(failureLine(scan), /initial load .* has not finished/);
    const other = await tmwatch(['marks', 'import', file], install.env);
    assert.equal(other.status, 1);
    assert.match(failureLine(other), /initial load .* has not finished/);

    const resumed = await tmwatch(['marks', 'import', '--initial', file], install.env);
    assert.equal(resumed.status, 0, resumed.stderr);
    const summary = printedObject(resumed);
    assert.equal(summary.imported + summary.updated, RECORDS);
    assert.equal(await count(), RECORDS);
    assert.equal(await loading(), false);
    assert.ok((await ginIndexes()) >= 3);
    assert.equal((await tmwatch(['scan'], install.env)).status, 0);
  });
});
