// Match rules in one place each (issue 31): every rule is a file of src/matching/rules/ with its
// detection, its part of severity and its evidence; decide.ts runs them in order; no other module
// names a rule's kind to switch on it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RULES } from '../../src/matching/rules/index.ts';

const src = (path: string) => readFileSync(new URL(`../../src/${path}`, import.meta.url), 'utf8');

describe('the match rules', () => {
  it('are one file each, all in the ordered list, identity rules first', () => {
    const files = readdirSync(new URL('../../src/matching/rules/', import.meta.url)).filter(
      (f) => !['index.ts', 'rule.ts'].includes(f),
    );
    assert.equal(files.length, RULES.length);
    for (const rule of RULES) {
      assert.ok(files.includes(`${rule.kind.replaceAll('_', '-')}.ts`), rule.kind);
      assert.ok(rule.score > 0 && rule.score <= 1, rule.kind);
    }
    assert.deepEqual(
      RULES.slice(0, 3).map((r) => r.kind),
      ['exact', 'normalized', 'confusable'],
    );
    assert.ok(RULES.slice(0, 3).every((r) => r.alone === true));
  });

  it('are named nowhere else: no switch on a kind in severity, assessment or candidates', () => {
    for (const path of [
      'matching/severity.ts',
      'matching/candidates.ts',
      'matching/decide.ts',
      'matching/evidence.ts',
      'domain/alerts/assessment.ts',
    ]) {
      const text = src(path);
      assert.ok(!/\bswitch\s*\(\s*\w+\.kind\b/.test(text), `${path} switches on a kind`);
      const named = RULES.filter((r) => text.includes(`'${r.kind}'`)).map((r) => r.kind);
      assert.deepEqual(named, [], path);
    }
  });

  it('are each documented in docs/matching.md', () => {
    const doc = readFileSync(new URL('../../docs/matching.md', import.meta.url), 'utf8');
    for (const rule of RULES) assert.ok(doc.includes(`| \`${rule.kind}\` |`), rule.kind);
  });
});
