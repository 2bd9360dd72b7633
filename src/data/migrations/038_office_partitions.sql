-- The candidate query's two tables, mark_keys (035) and mark_band (016), are partitioned by the
-- mark's office (marks.jurisdiction), and a watch's candidate query names the offices its
-- designations can reach: the offices of coverageSearch (src/matching/coverage.ts) and WO, for the
-- international registrations designating them. PostgreSQL reads only those partitions and their
-- indexes.
--
-- Why: the GIN index intersects the watch's keys with its class and territory keys item by item.
-- Each record that shares a key with the brand, in any office, cost a step through every class
-- and territory entry the query names (docs/benchmarks.md). A US watch's query now meets only the
-- US and WO records; each partition's index is a fraction of the whole, and an office's daily
-- file updates its own.
--
-- The partitions: one per office of the service's own feeds and for international registrations
-- (US; EM, with EU, which a watch on the EU names beside EM and which must not send its query to
-- another partition; CA; WO), and four that hold the other offices by a hash of the office, so
-- that no office needs a partition created before its first record is written. `marks` itself is not partitioned: the candidate query reads it by id
-- only, for the few rows kept, and its unique (source, record) key stays global.
--
-- A record whose office changes (an office's correction) may change partition: the importer
-- deletes its rows in the old one in the statement that writes them in the new one (stageMarks).

-- The partition of an office's records. A watch's query names its offices through
-- mark_office_partitions, which PostgreSQL evaluates when it plans the query (the function is
-- immutable and the offices a constant), so that it reads those partitions only. A partitioning
-- by the office itself, with the other offices hashed under a default partition, did not prune:
-- PostgreSQL prunes each level with every office the query names, so a watch on Germany, naming
-- DE, EM, EU and WO, read the hash partitions of all four.
CREATE FUNCTION mark_office_partition(office text) RETURNS smallint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (CASE office WHEN 'US' THEN 1 WHEN 'EM' THEN 2 WHEN 'EU' THEN 2 WHEN 'CA' THEN 3
                      WHEN 'WO' THEN 4 ELSE 5 + (hashtextextended(office, 0) & 3)::int END)::smallint;

CREATE FUNCTION mark_office_partitions(offices text[]) RETURNS smallint[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT DISTINCT mark_office_partition(o) FROM unnest(offices) AS o) $$;

CREATE FUNCTION pg_temp.office_partitions(parent text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  names constant text[] := ARRAY['us', 'em', 'ca', 'wo', 'other_0', 'other_1', 'other_2', 'other_3'];
BEGIN
  FOR i IN 1..8 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%s)',
                   parent || '_' || names[i], parent || '_by_office', i);
  END LOOP;
END $$;

CREATE TABLE mark_keys_by_office (
  id            bigint NOT NULL,
  -- mark_office_partition(marks.jurisdiction): the partition key.
  part          smallint NOT NULL,
  class_keys    integer[] NOT NULL,
  coverage_keys text[] NOT NULL,
  tokens        text[] NOT NULL,
  sound_codes   text[] NOT NULL,
  PRIMARY KEY (id, part)
) PARTITION BY LIST (part);
SELECT pg_temp.office_partitions('mark_keys');
INSERT INTO mark_keys_by_office (id, part, class_keys, coverage_keys, tokens, sound_codes)
SELECT k.id, mark_office_partition(m.jurisdiction), k.class_keys, k.coverage_keys, k.tokens, k.sound_codes
  FROM mark_keys k JOIN marks m ON m.id = k.id;
DROP TABLE mark_keys;
ALTER TABLE mark_keys_by_office RENAME TO mark_keys;
ALTER INDEX mark_keys_by_office_pkey RENAME TO mark_keys_pkey;

CREATE TABLE mark_band_by_office (
  id            bigint NOT NULL,
  part          smallint NOT NULL,
  compact_text  text NOT NULL,
  compact_len   smallint NOT NULL,
  class_keys    integer[] NOT NULL,
  coverage_keys text[] NOT NULL,
  PRIMARY KEY (id, part)
) PARTITION BY LIST (part);
SELECT pg_temp.office_partitions('mark_band');
INSERT INTO mark_band_by_office (id, part, compact_text, compact_len, class_keys, coverage_keys)
SELECT b.id, mark_office_partition(m.jurisdiction), b.compact_text, b.compact_len, b.class_keys, b.coverage_keys
  FROM mark_band b JOIN marks m ON m.id = b.id;
DROP TABLE mark_band;
ALTER TABLE mark_band_by_office RENAME TO mark_band;
ALTER INDEX mark_band_by_office_pkey RENAME TO mark_band_pkey;
ALTER TABLE mark_band ALTER COLUMN compact_text SET STATISTICS 10;

-- The candidate indexes, on the partitioned tables (PostgreSQL makes one per partition), as 036
-- and 016 defined them. An initial load in progress (025) recorded these same definitions and
-- builds them at its end: the tables are half loaded, so they are not built now.
DO $$
DECLARE
  definition text;
BEGIN
  IF EXISTS (SELECT 1 FROM mirror_initial_load) THEN
    RETURN;
  END IF;
  EXECUTE 'CREATE INDEX mark_keys_idx ON mark_keys USING gin '
    '(mark_key_hashes(tokens), mark_key_hashes(sound_codes), class_keys, coverage_keys)';
  FOREACH definition IN ARRAY ARRAY[
    '8_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 8',
    '9_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 9',
    '10_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 10',
    '11_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 11',
    '12_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 12',
    '13_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len = 13',
    '14_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len BETWEEN 14 AND 16',
    '17_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len BETWEEN 17 AND 20',
    '21_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len BETWEEN 21 AND 26',
    '27_idx ON mark_band USING gin (compact_text gin_trgm_ops, class_keys, coverage_keys) WHERE compact_len >= 27'
  ] LOOP
    EXECUTE 'CREATE INDEX mark_band_' || definition;
  END LOOP;
END $$;
