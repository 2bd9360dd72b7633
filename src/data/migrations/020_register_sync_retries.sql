-- The scheduled register sync of a day is tried again later that day when it fails (the listing
-- cannot be read, or a file failed), with back-off and a bounded number of attempts
-- (src/mirror/schedule.ts). Before, a process claimed the feed's day once (last_scheduled_on) and a
-- failure waited for the next day.
--
-- As before, the database decides which process runs an attempt: claimScheduledSync
-- (src/data/repositories/register-files.ts) is one UPDATE that takes the attempt and the feed's
-- lease together, so exactly one of the serve and worker processes asking runs it.
ALTER TABLE register_feeds
  -- Attempts of the day last_scheduled_on claimed so far (the first one included).
  ADD COLUMN scheduled_attempts integer NOT NULL DEFAULT 0,
  -- When the day's sync is due again: after a failed attempt, the back-off; while an attempt runs,
  -- the end of its first lease, so that a process that dies in it does not block the day (the
  -- lease must have lapsed too). NULL: the day is done (synced, or out of attempts).
  ADD COLUMN scheduled_retry_at timestamptz;
