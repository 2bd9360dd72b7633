-- Match keys version 6: a mark with a single digit also stores its spoken form (TRUE1 → TRUEONE),
-- that form's anchors and its sound codes, for the `digits_as_words` rule (docs/matching.md). No
-- column changes: the upgrade step of the same name (src/data/upgrades.ts) re-keys every stored
-- record, leaving change_seq alone as the earlier re-keys did.
SELECT 1;
