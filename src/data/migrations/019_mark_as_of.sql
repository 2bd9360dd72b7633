-- Each mark's as-of date: the day of the register whose version of the record the mirror holds.
-- Why: a sync loads a feed's files oldest first, but a file that failed is loaded again by a later
-- sync, after newer files. Its records are older versions of records a newer file may already have
-- replaced; written over them, the mirror would go back in time. With the date, the importer keeps
-- the newer of two versions (src/data/repositories/marks.ts), and the mirror ends as if every file
-- had been loaded once, in date order.
--
-- The date comes from the record where the source gives one (USPTO daily XML: the case-file's
-- transaction-date), else from the file it was read from (a feed's file date). A record of
-- unknown date (a JSON Lines import, and every mark stored before this migration) has NULL: any
-- version replaces it, and it replaces any, as every import did before: the last one wins.
ALTER TABLE marks ADD COLUMN as_of date;

-- Whether a version as of `incoming` replaces the stored one as of `stored`: unless both dates are
-- known and the incoming one is the earlier. Equal dates replace, so loading a file again (a
-- failed one, or the same day's file) writes its records as the first load did. The upsert and
-- the word counts' changes of an import both ask it, so they cannot disagree.
CREATE FUNCTION mark_supersedes(incoming date, stored date) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN incoming IS NULL OR stored IS NULL OR incoming >= stored;
