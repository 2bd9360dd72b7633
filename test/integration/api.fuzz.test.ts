import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzApi } from '../helpers/api-fuzz.ts';

// The property-based fuzz test of the API (helpers/api-fuzz.ts), CI-sized and with a fixed seed so
// that a failure here fails the same way again. `npm run fuzz:api -- --runs 20000 [--seed N]`
// runs it longer (docs/api-fuzzing.md).
const RUNS = 400;
const SEED = 16;

describe('API fuzzing from the served OpenAPI document', () => {
  it(`${RUNS} generated requests: no 5xx, only declared statuses, bodies as declared`, async () => {
    const { statuses } = await fuzzApi({ runs: RUNS, seed: SEED });
    const seen = [...statuses.keys()];
    // The run reached the routes at all: some valid requests succeeded and some were refused.
    assert.ok(
      seen.some((key) => / 2\d\d$/.test(key)),
      seen.join(', '),
    );
    assert.ok(
      seen.some((key) => / 422$/.test(key)),
      seen.join(', '),
    );
  });
});
