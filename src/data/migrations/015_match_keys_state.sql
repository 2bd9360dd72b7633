-- How far the stored marks are re-keyed to the current match keys (MATCH_KEYS_VERSION in
-- src/matching/normalize.ts). A new version is applied by rekeyStoredMarks (src/data/upgrades.ts)
-- after the migrations, one committed batch of marks at a time in id order, recording here the
-- last id done: a process stopped halfway (deploy, crash) continues where it stopped on its next
-- start instead of starting over, and no transaction spans the whole mirror.
CREATE TABLE match_keys_state (
  only_row        boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  -- The version being applied (0: unknown, re-key every mark).
  version         integer NOT NULL,
  -- Marks with an id up to this hold `version`'s keys; NULL once every mark does.
  rekeyed_through bigint
);

-- The marks stored so far were keyed by earlier code: the first start re-keys them all.
INSERT INTO match_keys_state (version, rekeyed_through) VALUES (0, 0);
