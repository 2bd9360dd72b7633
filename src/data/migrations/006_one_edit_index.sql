-- The one-edit rule's candidate branch (docs/matching.md, section 4): a watch of 4 to 8
-- characters compares compact_text with every text one edit away from its brand
-- (compact_len BETWEEN 4 AND 8 AND compact_text = ANY(...)), so that a record of Latin capitals
-- needs no one-edit entry in the tokens GIN index (match keys version 3). A btree entry is cheaper
-- to maintain than the GIN entries it replaces, and the planner estimates `= ANY` from the
-- column's distinct values instead of growing its estimate with every key of `tokens &&`.
-- Rows keyed by versions 1 and 2 keep their `~` tokens and are found by both branches.
CREATE INDEX marks_one_edit_idx ON marks (compact_text) WHERE compact_len BETWEEN 4 AND 8;
