import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  failureLine,
  freshInstallation,
  type Installation,
  printedObject,
  tmwatch,
} from '../helpers/cli.ts';

const realCaseFile = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/uspto/${name}`, import.meta.url)), 'utf8');

/**
 * A daily file built from two real case-files: the first one's mark text references an internal
 * entity of 100,000 characters `references` times (300 MB of text at 3,000), the second is left
 * as the office wrote it.
 */
function entityBomb(references: number): string {
  const hostile = realCaseFile('tmterminal_daily-na-98763166.xml').replace(
    '<mark-identification>SUVENEER</mark-identification>',
    `<mark-identification>${'&big;'.repeat(references)}</mark-identification>`,
  );
  const good = realCaseFile('tmterminal_daily-ib-72269147.xml');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE trademark-applications-daily [
<!ENTITY big "${'A'.repeat(100_000)}">
]>
<trademark-applications-daily>
<version><version-no>2.0</version-no></version>
<creation-datetime>202409260500</creation-datetime>
<application-information><file-segments><file-segment>TRMK</file-segment>
<action-keys><action-key>AA</action-key>
${hostile}
${good}
</action-keys></file-segments></application-information>
</trademark-applications-daily>
`;
}

describe('tmwatch with hostile or mistaken input', () => {
  let install: Installation;
  let dir: string;
  before(async () => {
    install = await freshInstallation();
    dir = mkdtempSync(join(tmpdir(), 'tmwatch-hostile-'));
  });
  after(async () => {
    await install.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const references of [3_000, 6_000]) {
    test(`an entity referenced ${references} times refuses its record only, within bounded memory`, async () => {
      const file = join(dir, `bomb-${references}.xml`);
      writeFileSync(file, entityBomb(references));
      // 160 MB of JavaScript heap: the 300-600 MB an expanded text would need cannot fit.
      const result = printedObject(
        await tmwatch(['marks', 'import', file], {
          ...install.env,
          NODE_OPTIONS: '--max-old-space-size=160',
        }),
      );
      assert.equal(result.imported + result.updated, 1, JSON.stringify(result).slice(0, 500));
      assert.equal(result.errors.length, 1, JSON.stringify(result.errors).slice(0, 500));
      assert.match(
        result.errors[0].message,
        /entity references expand to more than \d+ characters/,
      );
    });
  }

  test('marks import of a file that does not exist fails with one line, exit 1', async () => {
    const result = await tmwatch(['marks', 'import', '/nope.jsonl'], install.env);
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: /nope.jsonl: file not found');
  });

  test('marks import of a directory fails with one line, exit 1', async () => {
    const result = await tmwatch(['marks', 'import', dir], install.env);
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /is a directory/);
  });

  test('scan --watch with an id that names no watch fails with one line, exit 1', async () => {
    const result = await tmwatch(['scan', '--watch', 'wat_nope'], install.env);
    assert.equal(result.status, 1);
    assert.equal(failureLine(result), 'tmwatch: watch wat_nope does not exist');
  });
});
