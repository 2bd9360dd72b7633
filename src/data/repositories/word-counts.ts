import type { WordStats } from '../../matching/word-weights.ts';
import type { Queryable } from '../db.ts';

/**
 * Keeps mark_words current for the batch staged in `staging` (one row per record, distinct
 * records): subtracts the words of the stored version of each record, adds those of the new one.
 * Run before the batch is merged into marks, in the same transaction and under the import lock,
 * so the stored versions read here are the ones the merge replaces. A record re-imported
 * unchanged nets to nothing.
 */
export function wordCountUpkeep(staging: string): string {
  return `WITH versions AS (
    SELECT s.jurisdiction AS office, s.norm_text, 1 AS d FROM ${staging} s
    UNION ALL
    SELECT m.jurisdiction, m.norm_text, -1 FROM ${staging} s
      JOIN marks m ON m.source_code = s.source_code AND m.external_id = s.external_id
  ), delta AS (
    SELECT w AS word, v.office, sum(v.d)::int AS n
      FROM versions v,
           LATERAL (SELECT DISTINCT x AS w
                      FROM unnest(array_append(string_to_array(v.norm_text, ' '), '')) AS x) AS words
     GROUP BY w, v.office
    HAVING sum(v.d) <> 0
  )
  INSERT INTO mark_words AS c (word, office, marks)
  SELECT word, office, n FROM delta ORDER BY word, office
  ON CONFLICT (word, office) DO UPDATE SET marks = c.marks + excluded.marks`;
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
