// `npm run fuzz:api -- [--runs N] [--seed N]`: the API fuzz test of test/integration/api.fuzz.test.ts
// run longer, on an embedded database (or DATABASE_URL/REDIS_URL like the tests). Prints the seed
// first so that any run can be repeated; on a failure fast-check prints the shrunk request.
import { parseArgs } from 'node:util';
import { fuzzApi } from '../test/helpers/api-fuzz.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('fuzz:api: --runs and --seed must be whole numbers');
  process.exit(2);
}
console.log(`fuzz:api: ${runs} requests, seed ${seed}`);
const started = Date.now();
const { statuses } = await fuzzApi({ runs, seed });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`fuzz:api: passed, ${runs} requests in ${seconds} s (seed ${seed}); statuses seen:`);
for (const [key, count] of [...statuses].sort()) console.log(`  ${key}: ${count}`);
