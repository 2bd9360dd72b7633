-- The two-edit band of the candidate query (brands of 8+ characters: records whose compact text
-- is within 2 of the brand's length and shares enough trigrams with it) moves off `marks` into a
-- narrow table of its own.
--
-- A pg_trgm GIN search is not exact: the index returns every record sharing enough of the
-- brand's trigrams as if the record had no others, and each must be re-checked on its row. For a
-- 9-letter brand that is ~6,500 rows on a million records, of which ~700 reach the similarity and
-- ~10 share a class and a territory with the watch. On `marks` (800 bytes a row, a gigabyte on a
-- million records) each re-check read its own heap page: 100-200 ms for such a watch. Here a row
-- is ~60 bytes, the whole table stays in memory, and the class and territory of the record are
-- keys of the same GIN index, so the index itself leaves out the records of other classes and
-- territories before any row is read: ~2 ms for the same watch, the same records found.
CREATE TABLE mark_band (
  -- marks.id; the row goes with its mark (trigger below).
  id            bigint PRIMARY KEY,
  compact_text  text NOT NULL,
  compact_len   smallint NOT NULL,
  -- The mark's Nice classes, or {0} when its source publishes none (such a record stays a
  -- candidate for every watch: the watch's search always includes 0).
  class_keys    integer[] NOT NULL,
  -- Where the mark may be protected: its office (US, EM, WO…) and, for an international
  -- registration, 'WO:' and each designated office. A watch searches its offices and
  -- 'WO:' + each of them, which is the candidate query's territory condition on marks.
  coverage_keys text[] NOT NULL
);

CREATE FUNCTION mark_class_keys(classes integer[]) RETURNS integer[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN cardinality(classes) = 0 THEN ARRAY[0] ELSE classes END;

CREATE FUNCTION mark_coverage_keys(jurisdiction text, designations text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN jurisdiction = 'WO'
    THEN ARRAY['WO'] || ARRAY(SELECT 'WO:' || d FROM unnest(designations) AS d)
    ELSE ARRAY[jurisdiction] END;

-- Only records the band can reach: a compact text of 8 characters or more (TWO_EDITS_MIN_LENGTH in
-- src/matching/decide.ts). The mirror's importer keeps the table in step with marks, in the
-- statement that writes the marks (src/data/repositories/marks.ts).
INSERT INTO mark_band (id, compact_text, compact_len, class_keys, coverage_keys)
SELECT id, compact_text, compact_len, mark_class_keys(classes),
       mark_coverage_keys(jurisdiction, designations)
  FROM marks
 WHERE compact_len >= 8;

-- One partial index per length bucket, as before on marks (TRIGRAM_BUCKETS of
-- src/matching/candidates.ts lists them: change both together), now with the class and territory
-- keys beside the trigrams.
CREATE INDEX mark_band_8_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 8;
CREATE INDEX mark_band_9_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 9;
CREATE INDEX mark_band_10_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 10;
CREATE INDEX mark_band_11_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 11;
CREATE INDEX mark_band_12_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 12;
CREATE INDEX mark_band_13_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 13;
CREATE INDEX mark_band_14_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys)
  WHERE compact_len BETWEEN 14 AND 16;
CREATE INDEX mark_band_17_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys)
  WHERE compact_len BETWEEN 17 AND 20;
CREATE INDEX mark_band_21_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys)
  WHERE compact_len BETWEEN 21 AND 26;
CREATE INDEX mark_band_27_idx ON mark_band
  USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len >= 27;
-- As on marks: pg_trgm's selectivity estimate for `%` computes the similarity of every
-- most-common value and histogram entry, once per branch; nothing else filters on the text.
ALTER TABLE mark_band ALTER COLUMN compact_text SET STATISTICS 10;

DROP INDEX marks_trgm_8_idx, marks_trgm_9_idx, marks_trgm_10_idx, marks_trgm_11_idx,
  marks_trgm_12_idx, marks_trgm_13_idx, marks_trgm_14_idx, marks_trgm_17_idx, marks_trgm_21_idx,
  marks_trgm_27_idx;

-- The service never deletes a mark; an operator (or a test) who does loses its band row too.
CREATE FUNCTION mark_band_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mark_band b USING old_marks o WHERE b.id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER marks_forget_band AFTER DELETE ON marks
  REFERENCING OLD TABLE AS old_marks FOR EACH STATEMENT EXECUTE FUNCTION mark_band_forget();
