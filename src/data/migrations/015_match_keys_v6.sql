-- Match keys version 6: a mark with a single digit also stores its spoken form (TRUE1 → TRUEONE),
-- that form's anchors and its sound codes (the `digits_as_words` rule), and a word that splits
-- into an English word and a short or dictionary part stores that part as a compound key (the
-- `compound` rule); docs/matching.md. No column changes: the upgrade step of the same name
-- (src/data/upgrades.ts) re-keys every stored record, leaving change_seq alone as the earlier
-- re-keys did.
SELECT 1;
