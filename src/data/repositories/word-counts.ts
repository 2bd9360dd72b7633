import type { WordStats } from '../../matching/word-weights.ts';
import type { Queryable } from '../db.ts';

/** A batch's word counts as three parallel arrays, for unnest: word, office, marks. */
export type WordCounts = { words: string[]; offices: string[]; marks: number[] };

/**
 * How many of these marks hold each word of their normalized text, per office (each word once per
 * mark), and under the word '' how many marks each office has: the counts the batch adds to
 * mark_words. Worked out by the importer, where the texts already are, instead of by PostgreSQL
 * splitting every staged text with a LATERAL unnest under the import lock (docs/benchmarks.md).
 */
export function batchWordCounts(
  marks: readonly { normText: string; jurisdiction: string }[],
): WordCounts {
  const counts = new Map<string, Map<string, number>>();
  for (const m of marks) {
    let office = counts.get(m.jurisdiction);
    if (office === undefined) {
      office = new Map();
      counts.set(m.jurisdiction, office);
    }
    // As string_to_array(norm_text, ' ') with '' appended, each word once.
    const words = new Set(m.normText === '' ? [] : m.normText.split(' '));
    words.add('');
    for (const w of words) office.set(w, (office.get(w) ?? 0) + 1);
  }
  const out: WordCounts = { words: [], offices: [], marks: [] };
  for (const [office, words] of counts) {
    for (const [word, n] of words) {
      out.words.push(word);
      out.offices.push(office);
      out.marks.push(n);
    }
  }
  return out;
}

/**
 * Keeps mark_words current for the batch staged in `staging` (one row per record, distinct
 * records): adds the batch's counts ($1 words, $2 offices, $3 marks: batchWordCounts) and
 * subtracts the words of the stored version of each record, which only PostgreSQL has (and only
 * re-imported records have one). Run before the batch is merged into marks, in the same
 * transaction and under the import lock, so the stored versions read here are the ones the merge
 * replaces. A record re-imported unchanged nets to nothing.
 */
export function wordCountUpkeep(staging: string): string {
  return `WITH stored AS (
    SELECT m.jurisdiction AS office, m.norm_text FROM ${staging} s
      JOIN marks m ON m.source_code = s.source_code AND m.external_id = s.external_id
  ), delta AS (
    SELECT word, office, sum(n)::int AS n FROM (
      SELECT a.word, a.office, a.n FROM unnest($1::text[], $2::text[], $3::int[]) AS a(word, office, n)
      UNION ALL
      SELECT w, v.office, -1
        FROM stored v,
             LATERAL (SELECT DISTINCT x AS w
                        FROM unnest(array_append(string_to_array(v.norm_text, ' '), '')) AS x) AS words
    ) AS d
     GROUP BY word, office
    HAVING sum(n) <> 0
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
