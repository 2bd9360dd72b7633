import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  failureLine,
  freshInstallation,
  type Installation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';

// `marks import` of a file from which nothing could be imported is a failure that cron and scripts
// see (exit 1, one line on stderr), and its report lists at most 100 errors: a file of 180,000
// unreadable records once exited 0 with 180 KB of JSON.

const record = (externalId: string) =>
  JSON.stringify({
    externalId,
    markText: 'NORTHWIND',
    ownerName: 'Northwind Ltd',
    ownerCountryCode: 'GB',
    jurisdiction: 'EM',
    filedAt: '2026-01-01',
    status: 'filed',
    classes: [9],
  });

const badLines = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ externalId: `EM-BAD-${i}` }));

describe('marks import: the exit status and the errors listed', () => {
  let install: Installation;
  let dir: string;
  before(async () => {
    install = await freshInstallation();
    dir = mkdtempSync(join(tmpdir(), 'tmwatch-import-exit-'));
  });
  after(async () => {
    await install.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a file of no known format exits 1 with one line saying so', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'Dear colleague,\nplease find the register attached.\n');
    const result = await tmwatch(['marks', 'import', file], install.env);
    assert.equal(result.status, 1);
    assert.match(
      failureLine(result),
      /^tmwatch: no record in this file is in a known format \(.*notes\.txt: unknown format: /,
    );
  });

  test('a file whose every record is bad exits 1 with one line: the count and the first', async () => {
    const file = join(dir, 'all-bad.jsonl');
    writeFileSync(file, `${badLines(150).join('\n')}\n`);
    const result = await tmwatch(['marks', 'import', file], install.env);
    assert.equal(result.status, 1);
    assert.match(
      failureLine(result),
      /^tmwatch: no record of this file could be imported: 150 errors, the first .*all-bad\.jsonl line 1: /,
    );
  });

  test('some bad records among good ones: exit 0, 100 errors listed, "moreErrors" the rest', async () => {
    const file = join(dir, 'some-bad.jsonl');
    writeFileSync(file, `${[record('EM1'), ...badLines(130), record('EM2')].join('\n')}\n`);
    const result = printedObject(await tmwatch(['marks', 'import', file], install.env));
    assert.equal(result.imported, 2);
    assert.equal(result.errors.length, 100);
    assert.equal(result.moreErrors, 30);
    assert.deepEqual(
      result.errors.slice(0, 2).map((e: { line: number }) => e.line),
      [2, 3],
    );
  });

  test('"moreErrors" is absent when every error is listed', async () => {
    const file = join(dir, 'one-bad.jsonl');
    writeFileSync(file, `${[record('EM3'), ...badLines(1)].join('\n')}\n`);
    const result = printedObject(await tmwatch(['marks', 'import', file], install.env));
    assert.equal(result.errors.length, 1);
    assert.equal('moreErrors' in result, false);
  });
});
