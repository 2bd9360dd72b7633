import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshInstallation, type Installation, printedObject, tmwatch } from '../helpers/cli.ts';

// A register line whose JSON spells text PostgreSQL cannot store (\u0000, an unpaired surrogate),
// in any field, is an error of that line with its file and number; the lines around it, even in
// the same batch, are imported. Before, one such line aborted the whole import with
// "database error 22P05".

const record = (externalId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    externalId,
    markText: 'NORTHWIND',
    ownerName: 'Northwind Ltd',
    ownerCountryCode: 'GB',
    jurisdiction: 'EM',
    filedAt: '2026-01-01',
    status: 'filed',
    classes: [9],
    ...extra,
  });

describe('marks import: text the database cannot store', () => {
  let install: Installation;
  let dir: string;
  before(async () => {
    install = await freshInstallation();
    dir = mkdtempSync(join(tmpdir(), 'tmwatch-import-'));
  });
  after(async () => {
    await install.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('bad lines are reported with file and line, and every good line is imported', async () => {
    const file = join(dir, 'marks.jsonl');
    const lines = [
      record('EM1'),
      record('EM2', { markText: 'NORTH\u0000WIND' }),
      record('EM3', { comment: 'kept verbatim\u0000' }),
      record('EM4'),
      record('EM5', { ownerName: 'Northwind \ud800Ltd' }),
      record('EM6', { 'note\u0000': 1 }),
      record('EM7', { source: { names: ['ok', '\udc00'] } }),
      record('EM8', { markText: 'a literal \\u0000 is fine' }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = printedObject(await tmwatch(['marks', 'import', file], install.env));
    assert.equal(result.imported, 3, JSON.stringify(result));
    assert.deepEqual(
      result.errors.map((e: { file: string; line: number; message: string }) => [
        e.file,
        e.line,
        e.message,
      ]),
      [
        [file, 2, 'markText: must not contain the NUL character (U+0000)'],
        [file, 3, 'comment: must not contain the NUL character (U+0000)'],
        [file, 5, 'ownerName: must be valid Unicode (it contains an unpaired surrogate)'],
        [file, 6, '"note\\u0000": key must not contain the NUL character (U+0000)'],
        [file, 7, 'source.names.1: must be valid Unicode (it contains an unpaired surrogate)'],
      ],
    );
  });
});
