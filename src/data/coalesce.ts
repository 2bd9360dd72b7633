import DataLoader from 'dataloader';

/**
 * Coalesces the lookups asked for while the event loop handles one batch of ready sockets into one
 * call of `fetch`, made when the loop reaches its check phase (setImmediate); `fetch` answers the
 * keys in order. Under load the hot read paths (API key, watch or alert by id) then cost one
 * statement per batch instead of one per request: each round trip through the driver costs the
 * server process more than the lookup costs PostgreSQL (docs/benchmarks.md, bench:api).
 *
 * Nothing is cached: every lookup reads the database after its request arrived, so it sees every
 * write committed before that (a revoked key is refused by the very next request). Build lookups on
 * the root database only, never on a transaction: a batch mixes the statements of many requests.
 */
export function coalesced<K, V>(
  fetch: (keys: readonly K[]) => Promise<V[]>,
): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(fetch, {
    cache: false,
    batchScheduleFn: (dispatch) => setImmediate(dispatch),
    maxBatchSize: 200,
  });
  return (key) => loader.load(key);
}

/** Places each row at its key's position (`i`, the ordinal the statement echoes), null elsewhere. */
export function byOrdinal<R extends { i: number }, V>(
  count: number,
  rows: readonly R[],
  value: (row: R) => V,
): (V | null)[] {
  const answers: (V | null)[] = new Array(count).fill(null);
  for (const row of rows) answers[row.i] = value(row);
  return answers;
}
