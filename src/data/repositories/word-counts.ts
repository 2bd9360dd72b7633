import type { WordStats } from '../../matching/word-weights.ts';
import type { Queryable } from '../db.ts';

/**
 * Appends to mark_word_deltas what the batch staged in `staging` (one row per record, distinct
 * records) changes in the word counts: the words of the stored version of each record subtracted,
 * those of the new one added. Run before the batch is merged into marks, in the same transaction
 * and under the import lock, so the stored versions read here are the ones the merge replaces. A
 * record re-imported unchanged nets to nothing and appends no row; one older than the stored
 * version is left out by the merge (mark_supersedes, migration 019) and so by this count too.
 * foldWordCounts moves the rows into mark_words (migration 018).
 */
export function wordCountDeltas(staging: string): string {
  return `INSERT INTO mark_word_deltas (word, office, marks)
  WITH written AS (
    SELECT s.jurisdiction AS office, s.norm_text, m.id AS stored_id,
           m.jurisdiction AS stored_office, m.norm_text AS stored_text
      FROM ${staging} s
      -- One index probe per staged record, whatever the planner believes of marks: planned while
      -- the mirror is empty (a first load, before its first ANALYZE), a plain join hashes a scan
      -- of all of marks, and the cached plan then rescans the growing table at every batch.
      LEFT JOIN LATERAL (
        SELECT m.id, m.jurisdiction, m.norm_text, m.as_of FROM marks m
         WHERE m.source_code = s.source_code AND m.external_id = s.external_id
         LIMIT 1
      ) m ON true
     WHERE m.id IS NULL OR mark_supersedes(s.as_of, m.as_of)
  ), versions AS (
    SELECT office, norm_text, 1 AS d FROM written
    UNION ALL
    SELECT stored_office, stored_text, -1 FROM written WHERE stored_id IS NOT NULL
  )
  SELECT w, v.office, sum(v.d)::int
    FROM versions v,
         LATERAL (SELECT DISTINCT x AS w
                    FROM unnest(array_append(string_to_array(v.norm_text, ' '), '')) AS x) AS words
   GROUP BY w, v.office
  HAVING sum(v.d) <> 0`;
}

/**
 * Folds the changes waiting in mark_word_deltas into mark_words, each word and office once. Run
 * under the import lock (the deltas of a batch and its marks commit together, and no batch
 * appends while this reads and empties the table).
 */
export async function foldWordCounts(tx: Queryable): Promise<void> {
  await tx.query(
    `INSERT INTO mark_words AS c (word, office, marks)
     SELECT word, office, sum(marks)::int FROM mark_word_deltas
      GROUP BY word, office HAVING sum(marks) <> 0 ORDER BY word, office
     ON CONFLICT (word, office) DO UPDATE SET marks = c.marks + excluded.marks`,
  );
  // TRUNCATE rather than DELETE: the table is emptied whole, and leaves no dead rows behind.
  await tx.query('TRUNCATE mark_word_deltas');
}

/**
 * Counts every word of the mirror anew (after an initial load, which appends no changes): the
 * counts of migration 011, computed in one pass over marks, and no change left waiting.
 */
export async function recountWords(tx: Queryable): Promise<void> {
  await tx.query('TRUNCATE mark_words, mark_word_deltas');
  await tx.query(
    `INSERT INTO mark_words (word, office, marks)
     SELECT w, m.jurisdiction, count(*)::int
       FROM marks m,
            LATERAL (SELECT DISTINCT x AS w
                       FROM unnest(array_append(string_to_array(m.norm_text, ' '), '')) AS x) AS words
      GROUP BY w, m.jurisdiction`,
  );
}

/**
 * The register's counts of these words (normalized form, as norm_text holds them), all offices
 * together, and the number of marks.
 */
export async function wordStatsFor(db: Queryable, words: readonly string[]): Promise<WordStats> {
  const wanted = [...new Set(words.filter((w) => w !== ''))];
  const rows = await db.query<{ word: string; marks: number }>(
    `SELECT word, sum(marks)::int8 AS marks FROM mark_words
      WHERE word = ANY($1::text[]) GROUP BY word`,
    [['', ...wanted]],
  );
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    if (r.word === '') total = Number(r.marks);
    else counts.set(r.word, Number(r.marks));
  }
  return { total, counts };
}
