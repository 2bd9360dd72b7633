-- The match keys of the candidate query (tokens and whole-mark sound codes) move off `marks` into
-- a narrow table of their own, beside the record's class and territory keys, all four in one GIN
-- index, as mark_band (016) already holds the two-edit band.
--
-- On `marks` the GIN indexes of tokens and sound_codes found every record sharing a key with the
-- brand whatever its classes and office; each such row was then read from the heap and most were
-- dropped by the class and territory filters: on 10,000,000 records a short brand (BRIO, class 5,
-- US) read 68,000 rows to keep 914, mostly from disk. With the class and territory keys in the
-- same index, `tokens && … AND class_keys && … AND coverage_keys && …` intersect inside it, and
-- only the rows kept are read, from this table and then from marks.
--
-- The keys are stored as src/matching produces them (normalize.ts, candidates.ts): this table
-- knows no kinds of keys, only that a watch's keys must overlap a record's.
CREATE TABLE mark_keys (
  -- marks.id; the row goes with its mark (the importer writes both in one statement; a deleted
  -- mark takes its row along, trigger below).
  id            bigint PRIMARY KEY,
  -- The mark's Nice classes, or {0} when its source publishes none (mark_class_keys, 016).
  class_keys    integer[] NOT NULL,
  -- Its office and, for an international registration, 'WO:' + each designated office
  -- (mark_coverage_keys, 016).
  coverage_keys text[] NOT NULL,
  -- Were marks.tokens and marks.sound_codes (002): forms, words, runs, stems, anchors…; the
  -- Double Metaphone codes the phonetic rule compares.
  tokens        text[] NOT NULL,
  sound_codes   text[] NOT NULL
);

INSERT INTO mark_keys (id, class_keys, coverage_keys, tokens, sound_codes)
SELECT id, mark_class_keys(classes), mark_coverage_keys(jurisdiction, designations), tokens,
       sound_codes
  FROM marks;

-- One index for both kinds of keys: the query ORs a token branch and a sound-code branch, each
-- ANDed with the class and territory keys (BitmapOr of two scans of this index), and the class
-- and territory entries are stored once.
CREATE INDEX mark_keys_idx ON mark_keys
  USING gin (tokens, sound_codes, class_keys, coverage_keys);

DROP INDEX IF EXISTS marks_tokens_idx, marks_sound_idx;
ALTER TABLE marks DROP COLUMN tokens, DROP COLUMN sound_codes;

-- An initial load in progress (025) dropped the old indexes and will build what it recorded: not
-- the two dropped above, but this table's, which it then builds like the others.
UPDATE mirror_initial_load
   SET index_definitions =
         ARRAY(SELECT d FROM unnest(index_definitions) AS d
                WHERE d !~ '^CREATE INDEX (marks_tokens_idx|marks_sound_idx) ')
         || pg_get_indexdef('mark_keys_idx'::regclass);
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM mirror_initial_load) THEN
    DROP INDEX mark_keys_idx;
  END IF;
END $$;

-- The service deletes marks only when an office deletes them (deleteMarks); an operator or a
-- test may too. One trigger takes both of a deleted mark's rows, its keys and its band (replacing
-- 016's trigger for the band alone).
DROP TRIGGER marks_forget_band ON marks;
DROP FUNCTION mark_band_forget();
CREATE FUNCTION mark_rows_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mark_keys k USING old_marks o WHERE k.id = o.id;
  DELETE FROM mark_band b USING old_marks o WHERE b.id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER marks_forget_rows AFTER DELETE ON marks
  REFERENCING OLD TABLE AS old_marks FOR EACH STATEMENT EXECUTE FUNCTION mark_rows_forget();
