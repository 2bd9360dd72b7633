-- Register sync (src/register/sync): the files each feed has listed, and who is syncing a feed.

-- One row per file a feed has tried to load. A file whose status is 'loaded' is never loaded
-- again; 'loading' (an interrupted sync) and 'failed' ones are loaded again by the next sync.
CREATE TABLE register_files (
  feed          text NOT NULL,
  name          text NOT NULL,
  url           text NOT NULL,
  status        text NOT NULL CHECK (status IN ('loading', 'loaded', 'failed')),
  -- The date the office gives the file (its name: apcYYMMDD.zip), which orders a feed's files.
  file_date     date NOT NULL,
  -- Bytes downloaded and their SHA-256 (hex), once a download has completed and been verified.
  bytes         bigint,
  sha256        text,
  -- The importer's counts for the file's records (as `tmwatch marks import` reports them).
  imported      integer,
  updated       integer,
  skipped       integer,
  errors        integer,
  -- Why the last attempt failed: one line, no stack trace.
  reason        text,
  attempts      integer NOT NULL DEFAULT 0,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  PRIMARY KEY (feed, name)
);

-- Only one process syncs a feed at a time: it holds the lease on the feed's row (renewed while
-- it works; a crashed process's lease lapses). last_scheduled_on is the UTC day whose scheduled
-- sync a process has claimed, so that of all serve/worker processes only one runs it.
CREATE TABLE register_feeds (
  feed              text PRIMARY KEY,
  lease_owner       text,
  lease_expires_at  timestamptz,
  last_scheduled_on date
);
