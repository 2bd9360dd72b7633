-- marks.phonetic held the Double Metaphone codes of the whole mark, of its spelling skeleton and of
-- each word. Since sound_codes (002) carries the whole-mark codes, the only ones the phonetic rule
-- compares (docs/matching.md), no index, rule or query reads this column: it only cost the importer
-- a Double Metaphone run per word and every row ~40 bytes. Dropping a column is a catalog change
-- (no table rewrite); the space of existing rows is reclaimed as they are updated or vacuumed.
ALTER TABLE marks DROP COLUMN phonetic;
