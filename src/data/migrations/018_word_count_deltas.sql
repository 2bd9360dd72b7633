-- The word counts (mark_words) are no longer moved row by row in every import batch. Each batch
-- appends its changes to mark_word_deltas (one row per word and office whose count it changes,
-- no index), in its own transaction as before; the importer folds them into mark_words every 25
-- batches and at the end of each import, and every process folds what a stopped import left when
-- it starts. Why: each batch of 2,000 records updated ~4,400 (word, office) rows of mark_words,
-- a table that grows with the register's vocabulary (810,000 rows at a million records), so most
-- updates touched a page of their own: about a quarter of PostgreSQL's time per imported record.
-- A fold updates each word once for 50,000 records; an update of a frequent word (GROUP, COFFEE)
-- happens once instead of 25 times.
--
-- Between folds, while an import runs, the counts a scan reads trail the mirror by at most 25
-- batches; after an import they are exact again.
CREATE TABLE mark_word_deltas (
  word   text NOT NULL,
  office text NOT NULL,
  marks  integer NOT NULL
);
