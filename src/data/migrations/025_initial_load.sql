-- An initial load of the register mirror in progress (`tmwatch marks import --initial`). The load
-- drops the candidate indexes (the GIN indexes of marks and mark_band) so that its records are
-- written without incremental GIN maintenance, and builds them again at its end. This row exists
-- exactly while they are missing: it is written in the transaction that drops them and deleted in
-- the one that builds them again, so a load that stops halfway (a crash, Ctrl-C) leaves it behind.
-- Scans claim no watch while it exists (claimWatches): a mirror without its indexes is never
-- searched as if it were whole. Running the same command again resumes the load.
CREATE TABLE mirror_initial_load (
  only_row          boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  started_at        timestamptz NOT NULL DEFAULT now(),
  -- The dropped indexes as pg_get_indexdef wrote them, built again from these at the end.
  index_definitions text[] NOT NULL
);
