// Writes the "Counts" section of test/fixtures/decided-cases/README.md from the cases, between its
// markers, so that every count there is the fixture's (test/unit/matching.decided-split.test.ts
// holds the README to it).
//   node --import tsx scripts/decided-counts.ts   (npm run decided:counts)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DECIDED_COUNTS_MARKERS,
  decidedCountsMarkdown,
  readDecidedCases,
} from '../bench/lib/decided-cases.ts';

const readme = fileURLToPath(new URL('../test/fixtures/decided-cases/README.md', import.meta.url));
const text = readFileSync(readme, 'utf8');
const [start, end] = DECIDED_COUNTS_MARKERS;
const i = text.indexOf(start);
const j = text.indexOf(end);
if (i < 0 || j < i) throw new Error(`${readme} lacks the ${start} … ${end} markers`);
const counts = decidedCountsMarkdown(readDecidedCases());
writeFileSync(readme, `${text.slice(0, i + start.length)}\n${counts}\n${text.slice(j)}`);
console.log(`wrote the counts of ${readDecidedCases().length} pairs to ${readme}`);
