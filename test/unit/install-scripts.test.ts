import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// npm runs no dependency's install script unless package.json's allowScripts names it, and says
// so at the end of every install. esbuild (under tsx) needs its own to check its platform binary;
// @scarf/scarf (pulled in by Spectral) only reports installs to a third party: denied, and its
// telemetry turned off (scarfSettings) for npm versions that would run it.

const root = join(import.meta.dirname, '..', '..');

function unreviewed(dir: string): string | null {
  const run = spawnSync('npm', ['install-scripts', 'ls'], { cwd: dir, encoding: 'utf8' });
  // An npm without the command runs every script, reviewed or not: nothing to check.
  if (run.status !== 0 && /Unknown command/i.test(`${run.stdout}${run.stderr}`)) return null;
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

describe('install scripts of dependencies', () => {
  for (const dir of [root, join(root, 'clients', 'typescript')]) {
    it(`${dir === root ? 'the service' : 'the client'}: every install script is allowed or denied`, (t) => {
      if (!existsSync(join(dir, 'node_modules'))) return t.skip('not installed');
      const listed = unreviewed(dir);
      if (listed === null) return t.skip('this npm has no install-scripts command');
      assert.equal(listed, 'No packages with unreviewed install scripts.');
    });
  }

  it('scarf is denied and its telemetry off', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.allowScripts['@scarf/scarf'], false);
    assert.deepEqual(pkg.scarfSettings, { enabled: false });
    assert.equal(pkg.allowScripts.esbuild, true);
  });
});
