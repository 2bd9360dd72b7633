import type { Db, Queryable } from '../db.ts';
import { takeImportLock } from './marks.ts';
import { recountWords } from './word-counts.ts';

// An initial load of the register mirror (`marks import --initial`, migration 025): the candidate
// indexes dropped before the records are written, built again after, the words counted once.

/**
 * The candidate indexes: the GIN indexes of mark_keys and mark_band (match keys and sound codes
 * with their class and territory keys, the two-edit band's trigrams), and any of marks. The unique indexes stay: the upsert's ON CONFLICT needs them, and a
 * btree costs a load little.
 */
const CANDIDATE_INDEXES = `SELECT pg_get_indexdef(i.indexrelid) AS definition,
       format('DROP INDEX %s', i.indexrelid::regclass) AS "dropStatement"
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_am am ON am.oid = c.relam
 WHERE i.indrelid IN ('marks'::regclass, 'mark_band'::regclass, 'mark_keys'::regclass)
   AND am.amname = 'gin' AND NOT i.indisunique
 ORDER BY c.relname`;

/**
 * The initial load that has begun and not finished (the candidate indexes are missing), and who
 * began it (migration 034): a feed's
 * first sync (its name) or `marks import --initial` (null); null when there is none.
 */
export async function initialLoadInProgress(
  db: Queryable,
): Promise<{ feed: string | null } | null> {
  const [row] = await db.query<{ feed: string | null }>('SELECT feed FROM mirror_initial_load');
  return row ?? null;
}

/**
 * Starts an initial load for `by` (a feed's name; null: marks import --initial): on an empty
 * mirror, records the candidate indexes and drops them, in one transaction under the import lock.
 * `resumed`: a load of the same `by` that stopped halfway left its row, and this one continues it.
 * `not_empty`: the mirror holds records, nothing was changed. `busy`: another's load has not
 * finished (`feed` says whose), nothing was changed.
 */
export async function beginInitialLoad(
  db: Db,
  by: string | null = null,
): Promise<
  { outcome: 'started' | 'resumed' | 'not_empty' } | { outcome: 'busy'; feed: string | null }
> {
  return db.transaction(async (tx) => {
    await takeImportLock(tx);
    const pending = await initialLoadInProgress(tx);
    if (pending !== null) {
      return pending.feed === by
        ? { outcome: 'resumed' as const }
        : { outcome: 'busy' as const, feed: pending.feed };
    }
    const [marks] = await tx.query<{ some: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM marks) AS some',
    );
    if (marks?.some) return { outcome: 'not_empty' as const };
    const indexes = await tx.query<{ definition: string; dropStatement: string }>(
      CANDIDATE_INDEXES,
    );
    await tx.query(
      'INSERT INTO mirror_initial_load (index_definitions, feed) VALUES ($1::text[], $2)',
      [indexes.map((index) => index.definition), by],
    );
    for (const index of indexes) await tx.exec(index.dropStatement);
    return { outcome: 'started' as const };
  });
}

/**
 * Ends an initial load in one transaction: builds the indexes it dropped, counts the mirror's
 * words and deletes its row, so that scans see either no indexes and the row, or both indexes and
 * counts. A build that fails or is stopped rolls back whole and leaves the load resumable.
 */
export async function finishInitialLoad(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await takeImportLock(tx);
    const [state] = await tx.query<{ definitions: string[] }>(
      'SELECT index_definitions AS definitions FROM mirror_initial_load FOR UPDATE',
    );
    if (state === undefined) return;
    // The server's maintenance_work_mem is left as it is: building the tokens index of 100,000
    // records took 10.4-11.6 s with 64MB and 11.6-15.3 s with 512MB (measured on a loaded host).
    for (const definition of state.definitions) {
      await tx.exec(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
    }
    await recountWords(tx);
    await tx.query('DELETE FROM mirror_initial_load');
  });
}
