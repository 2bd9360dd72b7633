-- The GIN index of mark_keys (035) holds the match keys as 64-bit hashes of their texts, not the
-- texts: its build then compares integers instead of collated strings. The table keeps the texts
-- (the in-memory index of incremental scans reads them, the tests and operators see them); only
-- the index hashes, through an expression the candidate query repeats.
--
-- Building that index is most of an initial load's PostgreSQL time (~70 µs per record). With the
-- text keys, each comparison of the build goes through strcoll (the database's collation, C.UTF-8,
-- is not treated as C by PostgreSQL 15); docs/benchmarks.md (issue 30) gives the build's CPU
-- with text keys, with hashed columns and with this expression index.
--
-- The hash is PostgreSQL's own hashtextextended(key, 0), the function hash partitioning relies
-- on, so it gives the same value for a text on every server of the same platform. Two texts with
-- one hash only add a candidate, which the decision (src/matching/decide.ts) rejects: the query
-- finds every record it found before, and on 2,281,927 distinct tokens of 300,000 records there
-- was no such pair.
--
-- Not inlined into the queries (a sub-select in a SQL function prevents it), so the planner
-- matches the query's `mark_key_hashes(k.tokens)` with the index's expression as written, and a
-- call with the watch's keys, constant, is evaluated when the query is planned.
CREATE FUNCTION mark_key_hashes(keys text[]) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT hashtextextended(k, 0) FROM unnest(keys) AS k) $$;

-- An initial load in progress (025) dropped the old index and recorded its definition: it records
-- this one instead and builds it at its end, as it builds the others; the table, half loaded, is
-- not indexed now.
DROP INDEX IF EXISTS mark_keys_idx;
DO $$
DECLARE
  definition constant text := 'CREATE INDEX mark_keys_idx ON mark_keys USING gin '
    '(mark_key_hashes(tokens), mark_key_hashes(sound_codes), class_keys, coverage_keys)';
BEGIN
  IF EXISTS (SELECT 1 FROM mirror_initial_load) THEN
    UPDATE mirror_initial_load
       SET index_definitions =
             ARRAY(SELECT d FROM unnest(index_definitions) AS d
                    WHERE d !~ '^CREATE INDEX mark_keys_idx ')
             || definition;
  ELSE
    EXECUTE definition;
  END IF;
END $$;
