// Rewrites test/fixtures/match-keys/pinned.json: the match keys of each of its texts as the code
// computes them now. It is for after a deliberate change of the keys (with MATCH_KEYS_VERSION
// bumped), never for making the pinning test pass otherwise: that test is what shows that a rewrite
// of the key code gives the same keys. Usage: node --import tsx scripts/pin-match-keys.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MATCH_KEYS_VERSION, matchKeys } from '../src/matching/normalize.ts';

const path = join(
  dirname(fileURLToPath(import.meta.url)),
  '../test/fixtures/match-keys/pinned.json',
);
const { cases } = JSON.parse(readFileSync(path, 'utf8')) as { cases: { text: string }[] };
// One case per line, so that a change of the keys shows as the lines of the texts it touches.
const lines = cases.map(({ text }) => JSON.stringify({ text, ...matchKeys(text) }));
writeFileSync(
  path,
  `{\n  "version": ${MATCH_KEYS_VERSION},\n  "cases": [\n    ${lines.join(',\n    ')}\n  ]\n}\n`,
);
console.log(`${cases.length} texts pinned at match keys version ${MATCH_KEYS_VERSION}`);
