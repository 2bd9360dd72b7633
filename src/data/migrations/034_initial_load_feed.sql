-- Who began the initial load of the register mirror in progress (migration 025): the name of the
-- feed whose first sync into the empty mirror began it, or NULL for `tmwatch marks import
-- --initial`. Only the one that began a load resumes it: another feed's sync, or a marks import,
-- would otherwise finish (index) it halfway through the other's files.
ALTER TABLE mirror_initial_load ADD COLUMN feed text;
