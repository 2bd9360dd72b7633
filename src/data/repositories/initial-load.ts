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
 * The match-key index (migration 035): on every record's ~20 keys, most of its tokens found in no
 * other record, it is the costliest build of the load, ~70 µs of PostgreSQL CPU per record where
 * the ten band indexes and the word count take ~13 together (100,000 records). An index of
 * another name is built with the others: slower, not wrong.
 */
const isKeyIndex = (definition: string) => /^CREATE INDEX mark_keys_idx /.test(definition);

/** Builds the indexes of `definitions` (a resumed finish skips those a stopped one built). */
async function buildIndexes(tx: Queryable, definitions: readonly string[]): Promise<void> {
  for (const definition of definitions) {
    await tx.exec(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
  }
}

/**
 * Ends an initial load: builds the indexes it dropped, counts the mirror's words and deletes its
 * row, the row last, in the transaction that holds the import lock throughout, so that scans see
 * either the row (and wait) or every index and the counts.
 *
 * With PostgreSQL the match-key index is built in that transaction while the other indexes and
 * the word count are done on a second connection, in a transaction of their own committed before
 * the row is deleted: a GIN build runs on one core (PostgreSQL 15 builds no GIN index in parallel),
 * and the importer's process is idle by then. It takes two connections of the pool (openDb's has
 * ten), as the importer's batches do. A failure or a stop rolls back what had not
 * committed and leaves the row: the load stays resumable, and the next finish builds only the
 * indexes still missing and counts the words again. PGlite, one connection, does all of it in the
 * one transaction.
 */
export async function finishInitialLoad(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await takeImportLock(tx);
    const [state] = await tx.query<{ definitions: string[] }>(
      'SELECT index_definitions AS definitions FROM mirror_initial_load FOR UPDATE',
    );
    if (state === undefined) return;
    // The server's maintenance_work_mem is left as it is: building the tokens index of 100,000
    // records took 10.4-11.6 s with 64MB and 11.6-15.3 s with 512MB (measured on a loaded host),
    // and 1MB to 1GB spent the same CPU within the host's noise (docs/benchmarks.md, issue 30).
    const keys = state.definitions.filter(isKeyIndex);
    const others = state.definitions.filter((d) => !isKeyIndex(d));
    const rest = async (q: Queryable) => {
      await buildIndexes(q, others);
      await recountWords(q);
    };
    if (db.kind === 'postgres') {
      // Both run to their end before this transaction ends, whichever fails first.
      const results = await Promise.allSettled([buildIndexes(tx, keys), db.transaction(rest)]);
      for (const result of results) if (result.status === 'rejected') throw result.reason;
    } else {
      await buildIndexes(tx, keys);
      await rest(tx);
    }
    await tx.query('DELETE FROM mirror_initial_load');
  });
}
