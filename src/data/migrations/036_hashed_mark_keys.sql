-- The match keys of mark_keys (035) are stored as 64-bit hashes of the texts src/matching makes,
-- not as the texts: the GIN index over them then compares integers instead of collated strings.
--
-- Building that index is most of an initial load's PostgreSQL time (~70 µs per record). With the
-- text keys, each comparison of the build goes through strcoll (the database's collation, C.UTF-8,
-- is not treated as C by PostgreSQL 15); on 300,000 records of bench:scan's register the build
-- took 20.7 s of CPU with text keys, 18.8 s with them in COLLATE "C", and 12.6 s with these hashes
-- (docs/benchmarks.md, issue 30).
--
-- The hash is PostgreSQL's own hashtextextended(key, 0), the function hash partitioning relies
-- on, so it gives the same value for a text on every server of the same platform. Whoever writes
-- or searches these columns hashes in SQL with mark_key_hashes below, so src/matching keeps its
-- text keys. Two texts with one hash only add a candidate, which the decision (src/matching/decide.ts)
-- rejects: the query finds every record it found before, and on 2,281,927 distinct tokens of
-- 300,000 records there was no such pair.
--
-- Not inlined into the queries (a sub-select in a SQL function prevents it): a call with constant
-- keys is then evaluated when the query is planned, so the planner weighs the hashed keys it
-- searches for as it weighed the texts.
CREATE FUNCTION mark_key_hashes(keys text[]) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT hashtextextended(k, 0) FROM unnest(keys) AS k) $$;

-- The index is built again by the ALTER with the same definition, so an initial load in
-- progress (025), which dropped it and recorded that definition, builds it at its end as before.
ALTER TABLE mark_keys
  ALTER COLUMN tokens TYPE bigint[] USING mark_key_hashes(tokens),
  ALTER COLUMN sound_codes TYPE bigint[] USING mark_key_hashes(sound_codes);
