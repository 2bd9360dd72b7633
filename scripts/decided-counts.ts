// Writes the "Counts" section of test/fixtures/decided-cases/README.md from the cases, between its
// markers, so that every count there is the fixture's (test/unit/matching.decided-split.test.ts
// holds the README to it).
//   node --import tsx scripts/decided-counts.ts   (npm run decided:counts)
import { fileURLToPath } from 'node:url';
import {
  DECIDED_COUNTS_SECTION,
  decidedCountsMarkdown,
  readDecidedCases,
} from '../bench/lib/decided-cases.ts';
import { writeSection } from '../bench/lib/markdown.ts';

const readme = fileURLToPath(new URL('../test/fixtures/decided-cases/README.md', import.meta.url));
const cases = readDecidedCases();
writeSection(readme, DECIDED_COUNTS_SECTION, decidedCountsMarkdown(cases));
console.log(`wrote the counts of ${cases.length} pairs to ${readme}`);
